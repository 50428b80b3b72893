export { startPostgres, sharedPostgres, freshDatabase, postgresAvailable, postgresBinDir, type PostgresServer } from './server.js';
export { openPool, inTransaction } from './pool.js';
export { becomeLeader, type Leadership, type LeadershipOptions } from './leadership.js';
export { listen, type Listener, type ListenOptions } from './listener.js';
export { TurnBatches } from './turn-batches.js';
