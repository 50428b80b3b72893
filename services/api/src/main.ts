import { openBus } from '@comanda/bus';
import { loadConfigOrExit, persistentSecret } from '@comanda/config';
import { CommandHandler, openEventStore } from '@comanda/event-store';
import { openReadStore } from '@comanda/read-store';
import { buildApp } from './app.js';
import { bootstrapFirstAdmin } from './auth/bootstrap.js';
import { PollingCheckpointGate } from './polling-gate.js';

/**
 * The API on its own (distributed shape): any number of replicas share EventStoreDB, MongoDB and NATS;
 * the projector runs as its own process and read-your-writes polls its checkpoint.
 */
const config = loadConfigOrExit([
  ['eventStoreUrl', 'COMANDA_EVENTSTORE_URL', 'is required for the API on its own (use npm start for standalone)'],
  ['mongoUrl', 'COMANDA_MONGO_URL', 'is required for the API on its own (use npm start for standalone)'],
]);

const store = openEventStore(config);
const readStore = await openReadStore(config);
const bus = await openBus(config);
const gate = new PollingCheckpointGate(() => readStore.getCheckpoint('projector'));
const commands = new CommandHandler(store);
const masterKey = persistentSecret(config.dataDir, 'master-key', config.masterKey);
await bootstrapFirstAdmin(commands, masterKey, config, (line) => console.log(line));
const app = await buildApp({
  config, store, readStore, bus, gate, commands, masterKey,
  health: [
    { name: 'eventStore', check: async () => (await store.ping(), 'up') },
    { name: 'readStore', check: async () => (await readStore.ping(), 'up') },
    { name: 'bus', check: async () => (await bus.ping(), 'up') },
  ],
});
await app.listen({ host: config.host, port: config.port });

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    // Bounded: a client that never lets go cannot keep the replica alive past the timeout.
    setTimeout(() => {
      console.error(`Shutdown took longer than ${config.shutdownTimeoutMs} ms (COMANDA_SHUTDOWN_TIMEOUT_MS): exiting`);
      app.server.closeAllConnections();
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    await app.close();
    await Promise.all([bus.close(), readStore.close(), store.close()]);
    process.exit(0);
  });
}
