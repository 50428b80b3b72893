import { MemoryReadStore } from './memory.js';
import { MongoReadStore } from './mongo.js';
import type { ReadStore } from './types.js';

/** MongoDB when a URL is configured, otherwise memory (rebuilt from the event log at start). */
export async function openReadStore(config: { mongoUrl: string | null }): Promise<ReadStore> {
  if (!config.mongoUrl) return new MemoryReadStore();
  const store = new MongoReadStore(config.mongoUrl);
  await store.ready();
  return store;
}
