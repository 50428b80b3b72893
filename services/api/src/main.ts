import { openBus } from '@comanda/bus';
import { loadConfigOrExit, persistentSecret } from '@comanda/config';
import { CommandHandler, openEventStore } from '@comanda/event-store';
import { NodeClient } from '@comanda/lightning';
import { openReadStore } from '@comanda/read-store';
import { buildApp } from './app.js';
import { bootstrapFirstAdmin } from './auth/bootstrap.js';
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
const store = openEventStore(config, storeError);
const readStore = await openReadStore(config, storeError);
const bus = await openBus(config);
const gate = new PollingCheckpointGate(() => readStore.getCheckpoint('projector'));
const commands = new CommandHandler(store);
const masterKey = persistentSecret(config.dataDir, 'master-key', config.masterKey);
await bootstrapFirstAdmin(commands, masterKey, config, (line) => console.log(line));
const app = await buildApp({
  config, store, readStore, bus, gate, commands, masterKey,
  node: config.nodeUrl ? new NodeClient({ url: config.nodeUrl, password: config.nodePassword ?? '' }) : undefined,
  health: [
    { name: 'eventStore', check: async () => (await store.ping(), 'up') },
    { name: 'readStore', check: async () => (await readStore.ping(), 'up') },
    { name: 'bus', check: async () => (await bus.ping(), 'up') },
  ],
});
const address = await app.listen({ host: config.host, port: config.port });
console.log(`api listening on ${address}`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    await app.close();
    await Promise.all([bus.close(), readStore.close(), store.close()]);
    process.exit(0);
  });
}
