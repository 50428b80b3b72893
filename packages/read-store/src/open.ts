import { MemoryReadStore } from './memory.js';
import { MongoReadStore } from './mongo.js';
import { PostgresReadStore } from './postgres.js';
import type { ReadStore } from './types.js';

/**
 * PostgreSQL or MongoDB by the URL's scheme (`COMANDA_READSTORE_URL`, or the older
 * `COMANDA_MONGO_URL`), otherwise memory (rebuilt from the event log at start).
 */
export async function openReadStore(
  config: { readStoreUrl?: string | null; mongoUrl?: string | null },
  onError?: (error: unknown) => void,
): Promise<ReadStore> {
  const url = config.readStoreUrl ?? config.mongoUrl ?? null;
  if (!url) return new MemoryReadStore();
  if (/^postgres(ql)?:\/\//i.test(url)) return PostgresReadStore.open(url, onError);
  const store = new MongoReadStore(url);
  await store.ready();
  return store;
}
