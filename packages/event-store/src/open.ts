import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from './sqlite.js';
import type { EventStore } from './types.js';

export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url);

/**
 * The event log file cannot be used (damaged, not a database, unreadable). The message is one line
 * naming the file, what is wrong and what to do, for the operator rather than a stack trace.
 */
export class EventLogFileError extends Error {
  override readonly name = 'EventLogFileError';
  readonly file: string;
  readonly reason: string;
  constructor(
    file: string,
    reason: string,
  ) {
    super(`The event log ${file} cannot be used: ${reason}. Stop Comanda, restore the file from a backup (or move it away to start with an empty log), then start again.`);
    this.file = file;
    this.reason = reason;
  }
}

/** Turns a SQLite failure on the log file into an EventLogFileError; anything else is rethrown. */
export function asEventLogFileError(error: unknown, file: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? new EventLogFileError(file, `${(error as Error).message} (${code})`) : error;
}

/**
 * PostgreSQL or EventStoreDB by the URL's scheme when one is configured, otherwise the SQLite file
 * in the data directory. The drivers (pg; EventStoreDB's gRPC client and its protobuf code, tens of
 * MB) are loaded only when they are the store: the standalone shape never loads them.
 */
export async function openEventStore(config: { eventStoreUrl: string | null; dataDir: string }, onError?: (error: unknown) => void): Promise<EventStore> {
  if (config.eventStoreUrl && isPostgresUrl(config.eventStoreUrl)) {
    const { PostgresEventStore } = await import('./postgres.js');
    return new PostgresEventStore(config.eventStoreUrl, { onError });
  }
  if (config.eventStoreUrl) {
    const { EsdbEventStore } = await import('./esdb.js');
    return new EsdbEventStore(config.eventStoreUrl);
  }
  mkdirSync(config.dataDir, { recursive: true });
  const filename = join(config.dataDir, 'events.db');
  try {
    return new SqliteEventStore({ filename });
  } catch (error) {
    throw asEventLogFileError(error, filename);
  }
}
