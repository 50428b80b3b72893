import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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
