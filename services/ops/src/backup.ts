import { createHash } from 'node:crypto';
import { chmodSync, createReadStream, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Sqlite, type Database, type Statement } from '@comanda/sqlite';
import type { SqliteEventStore } from '@comanda/event-store';

/** Secrets a data dir generates for itself: without the master key, no PIN in the log can be checked. */
export const DATA_DIR_SECRETS = ['master-key', 'webhook-secret'] as const;

export const BACKUP_FORMAT = 'comanda-backup/1';

/** Written beside a backup as `<file>.json`: what it holds and how to check it is whole. */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  file: string;
  sha256: string;
  headPosition: string | null;
  events: number;
  createdAt: string;
  /** Names of the data-dir secrets carried inside (values only in the backup file). */
  secrets: string[];
}

export const manifestPath = (file: string) => `${file}.json`;
export const eventLogPath = (dataDir: string) => join(dataDir, 'events.db');

/**
 * Copies the live event log consistently: `VACUUM INTO` from a read transaction of its own (a
 * snapshot: appends that land meanwhile are simply not in it), or, inside the running standalone, the
 * store's own online backup. Then records the head position and the data dir's generated secrets in
 * the copy, and its SHA-256 in `<out>.json`. The copy is written beside `out` and renamed at the end, so
 * a crash never leaves a half backup under the final name.
 */
export async function backupEventLog(options: { dataDir: string; out: string; store?: SqliteEventStore }): Promise<BackupManifest> {
  const { dataDir, out } = options;
  const partial = `${out}.partial`;
  rmSync(partial, { force: true });
  if (options.store) {
    await options.store.backupTo(partial);
  } else {
    const source = eventLogPath(dataDir);
    if (!existsSync(source)) throw new Error(`no event log at ${source}`);
    const db = new Sqlite(source, { readonly: true, fileMustExist: true });
    try {
      db.prepare('VACUUM INTO ?').run(partial);
    } finally {
      db.close();
    }
  }
  // It carries the master key: readable by the owner only, as the data dir's secrets are.
  chmodSync(partial, 0o600);
  const secrets = DATA_DIR_SECRETS.filter((name) => existsSync(join(dataDir, `${name}.secret`)));
  const copy = new Sqlite(partial);
  let head: bigint | null;
  let events: number;
  try {
    // A single self-contained file (no -wal beside it).
    copy.pragma('journal_mode = DELETE');
    copy.defaultSafeIntegers(true);
    const stats = copy.prepare('SELECT max(position) AS head, count(*) AS n FROM events').get() as { head: bigint | null; n: bigint };
    head = stats.head;
    events = Number(stats.n);
    copy.exec('CREATE TABLE comanda_backup (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    const put = copy.prepare('INSERT INTO comanda_backup (key, value) VALUES (?, ?)');
    put.run('format', BACKUP_FORMAT);
    put.run('head_position', head === null ? '' : head.toString());
    for (const name of secrets) put.run(`secret:${name}`, readFileSync(join(dataDir, `${name}.secret`), 'utf8').trim());
  } finally {
    copy.close();
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    file: basename(out),
    sha256: await sha256(partial),
    headPosition: head === null ? null : head.toString(),
    events,
    createdAt: new Date().toISOString(),
    secrets,
  };
  writeFileSync(`${manifestPath(out)}.partial`, JSON.stringify(manifest, null, 2) + '\n', { mode: 0o600 });
  renameSync(partial, out);
  renameSync(`${manifestPath(out)}.partial`, manifestPath(out));
  return manifest;
}

export function sha256(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}
