import type { EventStore } from '@comanda/event-store';
import type { Projection } from '@comanda/read-models';
import type { ReadStore } from '@comanda/read-store';
import type { Logger } from 'pino';
import { Projector } from './projector.js';

export interface ReplayReport {
  events: number;
  seconds: number;
  eventsPerSecond: number;
}

/** Drops every read model and rebuilds them from position 0. */
export async function replay(store: EventStore, readStore: ReadStore, projections: Projection[], logger: Logger): Promise<ReplayReport> {
  await readStore.clear();
  const started = process.hrtime.bigint();
  const projector = new Projector({ store, readStore, projections, logger });
  await projector.start();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const events = projector.eventsSeen;
  await projector.stop();
  return { events, seconds, eventsPerSecond: seconds > 0 ? Math.round(events / seconds) : events };
}
