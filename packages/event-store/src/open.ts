import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { EsdbEventStore } from './esdb.js';
import { SqliteEventStore } from './sqlite.js';
import type { EventStore } from './types.js';

/** EventStoreDB when a URL is configured, otherwise the SQLite file in the data directory. */
export function openEventStore(config: { eventStoreUrl: string | null; dataDir: string }): EventStore {
  if (config.eventStoreUrl) return new EsdbEventStore(config.eventStoreUrl);
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteEventStore({ filename: join(config.dataDir, 'events.db') });
}
