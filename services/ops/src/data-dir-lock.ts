import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The data dir is owned by a running standalone. */
export class DataDirBusy extends Error {
  override name = 'DataDirBusy';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`the data dir ${dataDir} is in use by a running Comanda (pid ${pid})`);
  }
}

export const lockPath = (dataDir: string) => join(dataDir, 'comanda.pid');

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The pid of the live process holding the data dir, or null (no lock, or one left by a crash). */
export function lockHolder(dataDir: string): number | null {
  const file = lockPath(dataDir);
  if (!existsSync(file)) return null;
  const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
  return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : null;
}

/**
 * Claims the data dir for this process with a pid file (created exclusively). A file left by a process
 * that died (a crash, kill -9) is taken over; one whose process still runs is refused: one SQLite log
 * has one writer, and offline tools must not write behind a running standalone's back.
 */
export function acquireDataDirLock(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = lockPath(dataDir);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o644 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw error;
      const holder = lockHolder(dataDir);
      if (holder !== null) throw new DataDirBusy(dataDir, holder);
      rmSync(file, { force: true });
    }
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      if (existsSync(file) && readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
    },
  };
}
