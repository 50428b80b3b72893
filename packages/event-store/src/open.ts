import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { EsdbEventStore } from './esdb.js';
import { PostgresEventStore } from './postgres.js';
import { SqliteEventStore } from './sqlite.js';
import type { EventStore } from './types.js';

export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url);

/**
 * PostgreSQL or EventStoreDB by the URL's scheme when one is configured, otherwise the SQLite file
 * in the data directory.
 */
export function openEventStore(config: { eventStoreUrl: string | null; dataDir: string }, onError?: (error: unknown) => void): EventStore {
  if (config.eventStoreUrl && isPostgresUrl(config.eventStoreUrl)) return new PostgresEventStore(config.eventStoreUrl, { onError });
  if (config.eventStoreUrl) return new EsdbEventStore(config.eventStoreUrl);
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteEventStore({ filename: join(config.dataDir, 'events.db') });
}
