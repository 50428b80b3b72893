export * from './types.js';
export { MemoryReadStore } from './memory.js';
// MongoReadStore is not re-exported: importing it loads MongoDB's driver; openReadStore loads it on demand.
// PostgresReadStore is at '@comanda/read-store/postgres' (it loads pg); openReadStore loads it on demand.
export { SqliteReadStore } from './sqlite.js';
export { openReadStore, openSqliteReadModels, readModelsPath } from './open.js';
