export * from './types.js';
export { MemoryEventStore } from './memory.js';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite.js';
export { EsdbEventStore, packPosition, unpackPosition } from './esdb.js';
export { CommandHandler, StreamContended, type CommandContext, type CommandObserver, type CommandResult } from './command-handler.js';
export { PostgresEventStore, type PostgresEventStoreOptions } from './postgres.js';
export { EventLogFileError, asEventLogFileError, openEventStore, isPostgresUrl } from './open.js';
