import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryAttemptCounter } from './memory.js';
import { SqliteAttemptCounter } from './sqlite.js';
import type { AttemptCounter } from './types.js';

/** The counters' file in the standalone's data dir. */
export const attemptsPath = (dataDir: string) => join(dataDir, 'attempts.db');

/**
 * Where the read models are, by the same configuration (`COMANDA_READSTORE_URL`, or the older
 * `COMANDA_MONGO_URL`): PostgreSQL or MongoDB, shared by every replica; otherwise the standalone's
 * own, SQLite in `<dataDir>/attempts.db` or memory (with memory read models).
 */
export async function openAttemptCounter(
  config: { readStoreUrl?: string | null; mongoUrl?: string | null; dataDir?: string; embeddedReadStore?: 'sqlite' | 'memory' },
  onError?: (error: unknown) => void,
): Promise<AttemptCounter> {
  const url = config.readStoreUrl ?? config.mongoUrl ?? null;
  if (!url) {
    if (config.embeddedReadStore === 'memory' || config.dataDir === undefined) return new MemoryAttemptCounter();
    return openSqliteAttemptCounter(attemptsPath(config.dataDir));
  }
  if (/^postgres(ql)?:\/\//i.test(url)) {
    const { PostgresAttemptCounter } = await import('./postgres.js');
    return PostgresAttemptCounter.open(url, onError);
  }
  // MongoDB's driver is loaded only when it is the store.
  const { MongoAttemptCounter } = await import('./mongo.js');
  const counter = new MongoAttemptCounter(url);
  await counter.ready();
  return counter;
}

/**
 * A damaged file is moved aside (kept for a look) and started afresh: losing the counts of the last
 * hour costs a few more guesses, never the restaurant's logins.
 */
export function openSqliteAttemptCounter(file: string): SqliteAttemptCounter {
  try {
    return new SqliteAttemptCounter({ filename: file });
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (!/^SQLITE_(NOTADB|CORRUPT)/.test(code)) throw error;
    const aside = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
    console.warn(`${file} is not a usable SQLite database (${(error as Error).message}): moved to ${aside}; login attempts are counted afresh`);
    return new SqliteAttemptCounter({ filename: file });
  }
}
