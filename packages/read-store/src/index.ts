export * from './types.js';
export { MemoryReadStore } from './memory.js';
export { MongoReadStore } from './mongo.js';
export { PostgresReadStore } from './postgres.js';
export { SqliteReadStore } from './sqlite.js';
export { openReadStore, openSqliteReadModels, readModelsPath } from './open.js';
