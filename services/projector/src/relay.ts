import type { Bus } from '@comanda/bus';
import type { EventStore, RecordedEvent } from '@comanda/event-store';
import { type CheckpointStore, SubscriptionRunner } from '@comanda/runtime';
import type { Logger } from 'pino';

/** `order-<id>` → `pos.order.<Type>`: subscribers choose by aggregate and event type. */
export const subjectFor = (event: Pick<RecordedEvent, 'stream' | 'type'>): string => {
  const aggregate = event.stream.split('-')[0]!.replace(/[^A-Za-z0-9_]/g, '_').toLowerCase();
  return `pos.${aggregate}.${event.type}`;
};

export const relayBody = (e: RecordedEvent) => ({
  id: e.id,
  type: e.type,
  stream: e.stream,
  revision: e.revision,
  position: e.position.toString(),
  data: e.data,
  metadata: e.metadata,
});

/** Streams whose events carry credentials (PIN hashes, sessions): never published on the bus. */
export const PRIVATE_AGGREGATES = new Set(['staff', 'session']);

/** Streams with a publisher of their own (kitchen tickets: `pos.kitchen.<station>.<EventType>`). */
export const OWN_PUBLISHER = new Set(['kitchenticket']);

const isPublic = (e: RecordedEvent) => {
  const aggregate = e.stream.split('-')[0]!;
  return !PRIVATE_AGGREGATES.has(aggregate) && !OWN_PUBLISHER.has(aggregate);
};

/** One message for the bus; the event id is always its de-duplication id. */
export interface Publication {
  subject: string;
  body: unknown;
}

/** What the relay publishes for an event: none, one or more messages. */
export type Publish = (e: RecordedEvent) => Promise<Publication[]> | Publication[];

/** The default: every public domain event as `pos.<aggregate>.<EventType>`. */
export const domainEvents: Publish = (e) => (isPublic(e) ? [{ subject: subjectFor(e), body: relayBody(e) }] : []);

/**
 * Publishes every domain event to the bus (kitchen screens, other consumers) with the event id as
 * the de-duplication id, so a replay after a crash does not show a dish twice. Runs under the
 * subscription runner: the checkpoint moves past an event only once all its messages are published.
 */
export class Relay {
  private readonly runner: SubscriptionRunner;

  constructor(
    store: EventStore,
    private readonly bus: Bus,
    checkpoint: CheckpointStore,
    logger: Logger,
    /** Where to begin when no checkpoint exists: 'start' replays history, 'head' only new events. */
    fresh: 'start' | 'head' = 'head',
    private readonly publications: Publish = domainEvents,
    /** Names it in logs and warnings. */
    name = 'relay',
  ) {
    this.runner = new SubscriptionRunner({ name, store, checkpoint, logger, fresh, handle: (events) => this.publish(events) });
  }

  get state() {
    return this.runner.state;
  }

  /** The last position handled (for the lag on /metrics). */
  get position(): bigint | null {
    return this.runner.position;
  }

  private async publish(events: RecordedEvent[]): Promise<bigint> {
    for (const e of events) {
      for (const p of await this.publications(e)) await this.bus.publish(p.subject, p.body, e.id);
    }
    return events[events.length - 1]!.position;
  }

  start(): Promise<void> {
    return this.runner.start();
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }
}
