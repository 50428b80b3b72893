export type { Admission, AttemptCounter, AttemptRule } from './types.js';
export { MemoryAttemptCounter } from './memory.js';
export { SqliteAttemptCounter } from './sqlite.js';
// PostgresAttemptCounter and MongoAttemptCounter are not re-exported: importing them loads their
// drivers; openAttemptCounter loads the one it needs on demand.
export { attemptsPath, openAttemptCounter, openSqliteAttemptCounter } from './open.js';
