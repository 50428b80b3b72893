export * from './types.js';
export { isOneOf, type Recorded, type Replayed } from './typed-events.js';
export { MemoryEventStore } from './memory.js';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite.js';
export { readSqliteLog, sqliteLogHead, sqliteLogMix } from './sqlite-log-reader.js';
// EsdbEventStore is not re-exported: importing it loads EventStoreDB's client; openEventStore loads it on demand.
export { CommandHandler, StreamContended, type CommandContext, type CommandObserver, type CommandResult } from './command-handler.js';
// PostgresEventStore is at '@comanda/event-store/postgres' (it loads pg); openEventStore loads it on demand.
export { EventLogFileError, asEventLogFileError, openEventStore, isPostgresUrl } from './open.js';
