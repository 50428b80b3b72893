import { ALL_REPORTS, LiveReports } from '@comanda/analytics';
import { openBus } from '@comanda/bus';
import { loadConfigOrExit, persistentSecret } from '@comanda/config';
import { CommandHandler, openEventStore } from '@comanda/event-store';
import { Metrics, commandObserver, instrumentBus, instrumentStore } from '@comanda/metrics';
import { NodeClient } from '@comanda/lightning';
import { openReadStore } from '@comanda/read-store';
import { buildApp } from './app.js';
import pino from 'pino';
import { bootstrapFirstAdmin, firstAdminAnnouncer } from './auth/bootstrap.js';
import { PollingCheckpointGate } from './polling-gate.js';

/**
 * The API on its own (distributed shape): any number of replicas share the event store (PostgreSQL or
 * EventStoreDB), the read store (PostgreSQL or MongoDB) and NATS;
 * the projector runs as its own process and read-your-writes polls its checkpoint.
 */
const config = loadConfigOrExit([
  ['eventStoreUrl', 'COMANDA_EVENTSTORE_URL', 'is required for the API on its own (use npm start for standalone)'],
  ['readStoreUrl', 'COMANDA_READSTORE_URL', 'is required for the API on its own (use npm start for standalone)'],
]);

// A store briefly away (restart, failover) is logged; its pool reconnects on the next query.
const storeError = (error: unknown) => console.error(`store connection: ${(error as Error).message}`);
// /metrics (with COMANDA_METRICS_TOKEN): this replica's requests and commands, the log's head, and
// the projector's lag read from its checkpoint at scrape time.
const metrics = new Metrics();
const store = instrumentStore(openEventStore(config, storeError), metrics);
const readStore = await openReadStore(config, storeError);
const bus = instrumentBus(await openBus(config), metrics);
metrics.watchFollower('projector', () => readStore.getCheckpoint('projector'));
const gate = new PollingCheckpointGate(() => readStore.getCheckpoint('projector'));
const commands = new CommandHandler(store, undefined, commandObserver(metrics));
const masterKey = persistentSecret(config.dataDir, 'master-key', config.masterKey);
await bootstrapFirstAdmin(commands, masterKey, config, firstAdminAnnouncer(pino({ level: 'info' }), config.dataDir));
// Ready once the projector's read models include every event that was in the log when this replica
// started (they never fall back behind that point, so it is checked until reached, then remembered).
const headAtStart = await store.headPosition();
let caughtUp = headAtStart === null;
const readModelsCaughtUp = async () => {
  caughtUp ||= ((await readStore.getCheckpoint('projector')) ?? -1n) >= headAtStart!;
  return caughtUp ? 'up' : 'catching up';
};
// The owner's reports: each replica folds the log in memory (from position 0, then live); /reports
// answers 503 and readiness waits until the fold has caught up.
const reports = new LiveReports(store, ALL_REPORTS, config.timezone, pino({ level: config.logLevel }).child({ part: 'reports' }));
reports.start().catch(() => {});
const app = await buildApp({
  config, store, readStore, bus, gate, commands, masterKey, metrics, reports,
  node: config.nodeUrl ? new NodeClient({ url: config.nodeUrl, password: config.nodePassword ?? '' }) : undefined,
  health: [
    { name: 'eventStore', check: async () => (await store.ping(), 'up') },
    { name: 'readStore', check: async () => (await readStore.ping(), 'up') },
    { name: 'bus', check: async () => (await bus.ping(), 'up') },
    { name: 'readModels', check: readModelsCaughtUp },
    { name: 'reports', check: async () => reports.state },
  ],
});
const address = await app.listen({ host: config.host, port: config.port });
console.log(`api listening on ${address}`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    // Bounded: a client that never lets go cannot keep the replica alive past the timeout.
    setTimeout(() => {
      console.error(`Shutdown took longer than ${config.shutdownTimeoutMs} ms (COMANDA_SHUTDOWN_TIMEOUT_MS): exiting`);
      app.server.closeAllConnections();
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    await app.close();
    await reports.stop();
    await Promise.all([bus.close(), readStore.close(), store.close()]);
    process.exit(0);
  });
}
