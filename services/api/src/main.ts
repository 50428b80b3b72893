import { loadConfigOrExit } from '@comanda/config';
import { createRuntime } from '@comanda/runtime';
import { api, reports } from './part.js';

/**
 * The API on its own (distributed shape): any number of replicas share the event store (PostgreSQL or
 * EventStoreDB), the read store (PostgreSQL or MongoDB), NATS and the Lightning node (COMANDA_NODE_URL);
 * the projector runs as its own process and read-your-writes polls its checkpoint.
 */
const config = loadConfigOrExit([
  ['eventStoreUrl', 'COMANDA_EVENTSTORE_URL', 'is required for the API on its own (use npm start for standalone)'],
  ['readStoreUrl', 'COMANDA_READSTORE_URL', 'is required for the API on its own (use npm start for standalone)'],
  // A key generated per replica would sign sessions the other replicas refuse: a replica that looks
  // ready and through which nobody can sign in.
  ['masterKey', 'COMANDA_MASTER_KEY', 'is required for the API on its own: every replica must be given the same key (sessions signed by one are checked by the others)'],
]);

// The owner's reports: each replica folds the log in memory; /reports answers 503 and readiness
// waits until the fold has caught up.
const ownerReports = reports();
const running = await createRuntime(config, [ownerReports, api({ reports: ownerReports })]);
console.log(`api listening on ${running.url}`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    // Bounded: a client that never lets go cannot keep the replica alive past the timeout.
    setTimeout(() => {
      console.error(`Shutdown took longer than ${config.shutdownTimeoutMs} ms (COMANDA_SHUTDOWN_TIMEOUT_MS): exiting`);
      running.app?.server.closeAllConnections();
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    await running.close();
    process.exit(0);
  });
}
