import { openBus } from '@comanda/bus';
import { loadConfigOrExit, persistentSecret } from '@comanda/config';
import { CommandHandler, openEventStore } from '@comanda/event-store';
import { Metrics, commandObserver, instrumentBus, instrumentStore } from '@comanda/metrics';
import { openReadStore } from '@comanda/read-store';
import { buildApp } from './app.js';
import pino from 'pino';
import { bootstrapFirstAdmin, firstAdminAnnouncer } from './auth/bootstrap.js';
import { PollingCheckpointGate } from './polling-gate.js';

/**
 * The API on its own (distributed shape): any number of replicas share EventStoreDB, MongoDB and NATS;
 * the projector runs as its own process and read-your-writes polls its checkpoint.
 */
const config = loadConfigOrExit([
  ['eventStoreUrl', 'COMANDA_EVENTSTORE_URL', 'is required for the API on its own (use npm start for standalone)'],
  ['mongoUrl', 'COMANDA_MONGO_URL', 'is required for the API on its own (use npm start for standalone)'],
]);

// /metrics (with COMANDA_METRICS_TOKEN): this replica's requests and commands, the log's head, and
// the projector's lag read from its checkpoint at scrape time.
const metrics = new Metrics();
const store = instrumentStore(openEventStore(config), metrics);
const readStore = await openReadStore(config);
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
const app = await buildApp({
  config, store, readStore, bus, gate, commands, masterKey, metrics,
  health: [
    { name: 'eventStore', check: async () => (await store.ping(), 'up') },
    { name: 'readStore', check: async () => (await readStore.ping(), 'up') },
    { name: 'bus', check: async () => (await bus.ping(), 'up') },
    { name: 'readModels', check: readModelsCaughtUp },
  ],
});
await app.listen({ host: config.host, port: config.port });

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    await app.close();
    await Promise.all([bus.close(), readStore.close(), store.close()]);
    process.exit(0);
  });
}
