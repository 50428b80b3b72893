import { openBus } from '@comanda/bus';
import { loadConfigOrExit } from '@comanda/config';
import { CommandHandler, openEventStore } from '@comanda/event-store';
import { allProjections } from '@comanda/read-models';
import { openReadStore } from '@comanda/read-store';
import pino from 'pino';
import { readStoreCheckpoint } from './checkpoint-file.js';
import { Projector } from './projector.js';
import { Relay } from './relay.js';
import { kitchenPublications } from './kitchen-publications.js';
import { Reactor } from './reactor.js';
import { tableOccupancy } from './process-managers/table-occupancy.js';
import { kitchenReactions } from './process-managers/kitchen.js';

/** The projector and relay on their own (distributed shape): one instance per deployment. */
const config = loadConfigOrExit([
  ['readStoreUrl', 'COMANDA_READSTORE_URL', 'is required for the projector on its own (its read models must be shared)'],
]);

const logger = pino({ level: config.logLevel });
const storeError = (err: unknown) => logger.warn({ error: (err as Error).message }, 'store connection');
const store = openEventStore(config, storeError);
const readStore = await openReadStore(config, storeError);
const bus = await openBus(config);
const projector = new Projector({ store, readStore, projections: allProjections, logger });
const relay = new Relay(store, bus, readStoreCheckpoint(readStore, 'relay'), logger, 'head');
try {
  await projector.start();
} catch {
  process.exit(1);
}
await relay.start();
// Kitchen screens get every kitchen event ever written (from the start of the log on a first run).
const kitchenRelay = new Relay(store, bus, readStoreCheckpoint(readStore, 'kitchen-relay'), logger, 'start', kitchenPublications(store));
await kitchenRelay.start();
const commands = new CommandHandler(store);
const reactor = new Reactor(store, readStoreCheckpoint(readStore, 'reactor'), [tableOccupancy(commands), ...kitchenReactions(commands)], logger);
await reactor.start();
console.log(`projector live at position ${projector.position()?.toString() ?? 'none'}`);

// Crash-only: a projector, relay or reactor that stopped (a projection bug, the bus or a store away
// too long) ends the process, and its supervisor starts it again from the durable checkpoints.
const watchdog = setInterval(() => {
  const failed = ([['projector', projector], ['relay', relay], ['reactor', reactor]] as const).find(([, part]) => part.state === 'failed');
  if (!failed) return;
  logger.fatal({ part: failed[0] }, 'stopped; exiting so the supervisor restarts the projector process');
  process.exit(1);
}, 500);
watchdog.unref();

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    await reactor.stop();
    await relay.stop();
    await kitchenRelay.stop();
    await projector.stop();
    await Promise.all([bus.close(), readStore.close(), store.close()]);
    process.exit(0);
  });
}
