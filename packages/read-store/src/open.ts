import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryReadStore } from './memory.js';
import { SqliteReadStore } from './sqlite.js';
import type { ReadStore } from './types.js';

/** The read models' file in the standalone's data dir. */
export const readModelsPath = (dataDir: string) => join(dataDir, 'read-models.db');

/**
 * PostgreSQL or MongoDB by the URL's scheme (`COMANDA_READSTORE_URL`, or the older
 * `COMANDA_MONGO_URL`); otherwise the standalone's own: SQLite in `<dataDir>/read-models.db` (kept
 * across restarts, the projector resumes from its checkpoint), or memory (rebuilt at every start).
 */
export async function openReadStore(
  config: { readStoreUrl?: string | null; mongoUrl?: string | null; dataDir?: string; embeddedReadStore?: 'sqlite' | 'memory' },
  onError?: (error: unknown) => void,
): Promise<ReadStore> {
  const url = config.readStoreUrl ?? config.mongoUrl ?? null;
  if (!url) {
    if (config.embeddedReadStore === 'memory' || config.dataDir === undefined) return new MemoryReadStore();
    return openSqliteReadModels(readModelsPath(config.dataDir));
  }
  if (/^postgres(ql)?:\/\//i.test(url)) {
    const { PostgresReadStore } = await import('./postgres.js');
    return PostgresReadStore.open(url, onError);
  }
  // MongoDB's driver (with BSON's 17 MB buffer) is loaded only when it is the store.
  const { MongoReadStore } = await import('./mongo.js');
  const store = new MongoReadStore(url);
  await store.ready();
  return store;
}

/**
 * The read models are derived from the log: a damaged file is moved aside (kept for a look) and
 * rebuilt from the start of the log rather than stopping the restaurant.
 */
export function openSqliteReadModels(file: string): SqliteReadStore {
  try {
    return new SqliteReadStore({ filename: file });
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (!/^SQLITE_(NOTADB|CORRUPT)/.test(code)) throw error;
    const aside = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
    console.warn(`${file} is not a usable SQLite database (${(error as Error).message}): moved to ${aside}; the read models are rebuilt from the event log`);
    return new SqliteReadStore({ filename: file });
  }
}
