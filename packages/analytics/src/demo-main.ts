import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '@comanda/config';
import { isCalendarDate } from '@comanda/domain';
import { openEventStore } from '@comanda/event-store';
import { copyInto } from './demo/generated-log.js';
import { generateDemo } from './demo/generate.js';

/**
 * `npm run demo-data -- [--days 30] [--seed 1] [--start YYYY-MM-DD] [--scale 1]`: fills a fresh data
 * dir (its log must be empty) with a busy restaurant's history, written through the product's own
 * deciders. By default the `days` days up to yesterday, in COMANDA_TIMEZONE.
 */
const USAGE = 'npm run demo-data -- [--days 30] [--seed 1] [--start YYYY-MM-DD] [--scale 1]';
const fail = (message: string): never => {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
};
let values: Record<string, string | undefined> = {};
try {
  ({ values } = parseArgs({ strict: true, options: { days: { type: 'string' }, seed: { type: 'string' }, start: { type: 'string' }, scale: { type: 'string' } } }));
} catch (error) {
  fail((error as Error).message);
}
const number = (name: string, fallback: number, min: number, max: number): number => {
  const v = values[name] === undefined ? fallback : Number(values[name]);
  if (!Number.isFinite(v) || v < min || v > max) fail(`--${name} must be a number from ${min} to ${max}`);
  return v;
};
const days = Math.floor(number('days', 30, 1, 3660));
const seed = Math.floor(number('seed', 1, 0, 2 ** 31));
const scale = number('scale', 1, 0.01, 50);
const start = values.start ?? new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
if (!isCalendarDate(start)) fail('--start must be a date YYYY-MM-DD');

const config = loadConfigOrExit();
const store = await openEventStore(config);
if ((await store.headPosition()) !== null) {
  console.error(`The event log in ${config.eventStoreUrl ? 'COMANDA_EVENTSTORE_URL' : config.dataDir} is not empty: demo data goes into a fresh data dir only (set COMANDA_DATA_DIR to an empty directory).`);
  await store.close();
  process.exit(1);
}
let written = 0;
await generateDemo({
  seed, start, days, scale, timeZone: config.timezone,
  onDay: async (log, day) => {
    const events = log.drain();
    await copyInto(store, events);
    written += events.length;
    console.log(`demo-data: ${day} done, ${written} events`);
  },
});
await store.close();
console.log(`demo-data: ${written} events of ${days} days from ${start} (seed ${seed}) written to ${config.eventStoreUrl ? 'the configured event store' : `${config.dataDir}/events.db`}`);
