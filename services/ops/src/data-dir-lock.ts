import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Sqlite } from '@comanda/sqlite';

/** The data dir is owned by a running standalone. */
export class DataDirBusy extends Error {
  override name = 'DataDirBusy';
  readonly dataDir: string;
  constructor(dataDir: string) {
    super(`the data dir ${dataDir} is in use by a running Comanda`);
    this.dataDir = dataDir;
  }
}

export const lockPath = (dataDir: string) => join(dataDir, 'comanda.lock');

const isBusy = (error: unknown) => {
  const code = (error as { code?: string }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
};

/**
 * Claims the data dir for this process: an exclusive SQLite transaction on `comanda.lock`, held open
 * for the life of the process. SQLite takes it as a POSIX record lock, which the kernel drops when the
 * process dies however it dies (kill -9, OOM, power loss), so the next start succeeds at once whatever
 * its pid; a pid file could not tell its own stale pid from a live process (PID 1 in every container).
 * A second live owner is refused: one SQLite log has one writer, and offline tools that write must not
 * write behind a running standalone's back. Read-only tools take no lock.
 */
export function acquireDataDirLock(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // The pid file of earlier releases says nothing any more.
  rmSync(join(dataDir, 'comanda.pid'), { force: true });
  const db = new Sqlite(lockPath(dataDir), { timeout: 0 });
  try {
    db.pragma('journal_mode = DELETE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if (isBusy(error)) throw new DataDirBusy(dataDir);
    throw error;
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      db.exec('ROLLBACK');
      db.close();
    },
  };
}

/** Whether a live process owns the data dir (asked without keeping anything). */
export function dataDirInUse(dataDir: string): boolean {
  try {
    acquireDataDirLock(dataDir).release();
    return false;
  } catch (error) {
    if (error instanceof DataDirBusy) return true;
    throw error;
  }
}
