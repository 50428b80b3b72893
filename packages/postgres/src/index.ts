export { startPostgres, sharedPostgres, freshDatabase, postgresAvailable, postgresBinDir, type PostgresServer } from './server.js';
export { openPool, inTransaction } from './pool.js';
