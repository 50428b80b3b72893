import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Sqlite, type Database, type Statement } from '@comanda/sqlite';
import { BACKUP_FORMAT, type BackupManifest, eventLogPath, manifestPath, sha256 } from './backup.js';
import { type VerifyReport, verifyEventLog } from './verify.js';

/** A restore that was refused; nothing was written. */
export class RestoreRefused extends Error {
  override name = 'RestoreRefused';
}

/**
 * Restores a backup into an empty (or absent) data dir: checks the file against its manifest's
 * SHA-256, verifies the log, then writes `events.db` and the data dir's secrets. Refuses a data dir
 * holding anything, so a restore never overwrites a restaurant's history.
 */
export async function restoreBackup(file: string, dataDir: string): Promise<{ manifest: BackupManifest; report: VerifyReport }> {
  if (!existsSync(file)) throw new RestoreRefused(`no backup at ${file}`);
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new RestoreRefused(`refusing to restore into ${dataDir}: it is not empty (restore into a new, empty data dir)`);
  }
  if (!existsSync(manifestPath(file))) throw new RestoreRefused(`no manifest ${manifestPath(file)} beside the backup`);
  const manifest = JSON.parse(readFileSync(manifestPath(file), 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT) throw new RestoreRefused(`unknown backup format ${String(manifest.format)}`);
  const actual = await sha256(file);
  if (actual !== manifest.sha256) throw new RestoreRefused(`checksum mismatch: the backup is damaged (sha256 ${actual}, manifest says ${manifest.sha256})`);

  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const partial = `${eventLogPath(dataDir)}.partial`;
  try {
    copyFileSync(file, partial);
    const db = new Sqlite(partial);
    const secrets = new Map<string, string>();
    try {
      const rows = db.prepare("SELECT key, value FROM comanda_backup WHERE key LIKE 'secret:%'").all() as Array<{ key: string; value: string }>;
      for (const row of rows) secrets.set(row.key.slice('secret:'.length), row.value);
      // The restored log is an ordinary event log again: secrets live in their own 0600 files.
      db.exec('DROP TABLE comanda_backup');
      db.exec('VACUUM');
    } finally {
      db.close();
    }
    const report = verifyEventLog(partial);
    if (!report.ok) throw new RestoreRefused(`the backup does not verify: ${report.problem}`);
    if (String(report.head ?? '') !== String(manifest.headPosition ?? '')) {
      throw new RestoreRefused(`the backup's head ${String(report.head)} is not the manifest's ${String(manifest.headPosition)}`);
    }
    for (const [name, value] of secrets) {
      writeFileSync(join(dataDir, `${name}.secret`), value + '\n', { mode: 0o600, flag: 'wx' });
      chmodSync(join(dataDir, `${name}.secret`), 0o600);
    }
    chmodSync(partial, 0o600);
    renameSync(partial, eventLogPath(dataDir));
    return { manifest, report };
  } catch (error) {
    // Leave the data dir as empty as it was found.
    for (const entry of readdirSync(dataDir)) rmSync(join(dataDir, entry), { recursive: true, force: true });
    throw error;
  }
}
