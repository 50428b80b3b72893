import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A secret kept in the data directory: generated on first start, written atomically with mode 0600,
 * read back on later starts. A value from the environment always wins and is never written.
 */
export function persistentSecret(dataDir: string, name: string, fromEnv: string | null, bytes = 32): string {
  if (fromEnv) return fromEnv;
  const file = join(dataDir, `${name}.secret`);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const value = randomBytes(bytes).toString('hex');
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, value + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return value;
}

/** A file or folder of the data dir that this process can neither make private nor leave as it is. */
export class DataDirNotPrivate extends Error {
  override name = 'DataDirNotPrivate';
  readonly path: string;
  constructor(
    path: string,
    reason: string,
  ) {
    super(`${path} holds secrets (PIN and password hashes, keys) and could not be made private to this user (${reason}): give it to the service's user, or remove its access for others`);
    this.path = path;
  }
}

/**
 * The data dir holds PIN and password hashes, keys and the node simulator's passwords: whether or not
 * it existed before (an operator's mkdir, a volume), it becomes 0700 and everything in it 0600 (folders
 * 0700), and files made later are private too (umask 077: SQLite's -wal and -shm files, backups).
 */
export function privateDataDir(dataDir: string): void {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const tighten = (path: string, mode: number) => {
    try {
      if ((statSync(path).mode & 0o777) !== mode) chmodSync(path, mode);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      throw new DataDirNotPrivate(path, code ?? (error as Error).message);
    }
  };
  const walk = (dir: string) => {
    tighten(dir, 0o700);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) tighten(path, 0o600);
    }
  };
  walk(dataDir);
}
