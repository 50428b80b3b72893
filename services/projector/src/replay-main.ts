import { loadConfigOrExit } from '@comanda/config';
import { openEventStore } from '@comanda/event-store';
import { allProjections } from '@comanda/read-models';
import { openReadStore } from '@comanda/read-store';
import pino from 'pino';
import { replay } from './replay.js';

/** `npm run replay`: rebuilds every read model from the start of the log and reports the speed. */
const config = loadConfigOrExit();
const store = await openEventStore(config);
const readStore = await openReadStore(config);
const report = await replay(store, readStore, allProjections, pino({ level: config.logLevel }));
console.log(`replayed ${report.events} events in ${report.seconds.toFixed(3)} s: ${report.eventsPerSecond} events/s`);
await readStore.close();
await store.close();
