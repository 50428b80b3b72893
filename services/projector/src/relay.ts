import type { Bus } from '@comanda/bus';
import type { EventStore, Position, RecordedEvent } from '@comanda/event-store';
import { type BatchScope, type CheckpointStore, SubscriptionRunner } from '@comanda/runtime';
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

/** Waits between attempts while the bus is away: from a quarter second, doubling, at most 5 s. */
const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 5_000;

/**
 * Publishes every domain event to the bus (kitchen screens, other consumers) with the event id as
 * the de-duplication id, so a replay after a crash does not show a dish twice. Runs under the
 * subscription runner: the checkpoint moves past an event only once all its messages are published.
 *
 * While the bus is away the relay waits and tries the same message again (`degraded` on /health),
 * instead of stopping: the projections and process managers beside it in the projector go on, and
 * it resumes where it was (its own checkpoint) when the bus is back. A message published before the
 * outage and again after is one message to subscribers (the event id is its de-duplication id).
 */
export class Relay {
  private readonly runner: SubscriptionRunner;
  /** Since when the bus has refused the message in hand (null: publishing). */
  private awaySince: number | null = null;
  private readonly bus: Bus;
  private readonly logger: Logger;
  private readonly publications: Publish;
  private readonly name: string;

  constructor(
    store: EventStore,
    bus: Bus,
    checkpoint: CheckpointStore,
    logger: Logger,
    /** Where to begin when no checkpoint exists: 'start' replays history, 'head' only new events. */
    fresh: 'start' | 'head' = 'head',
    publications: Publish = domainEvents,
    /** Names it in logs and warnings. */
    name = 'relay',
  ) {
    this.bus = bus;
    this.logger = logger;
    this.publications = publications;
    this.name = name;
    this.runner = new SubscriptionRunner({ name, store, checkpoint, logger, fresh, handle: (events, scope) => this.publish(events, scope) });
  }

  get state() {
    return this.awaySince !== null && this.runner.state === 'live' ? 'degraded' : this.runner.state;
  }

  /** The last position handled (for the lag on /metrics). */
  get position(): bigint | null {
    return this.runner.position;
  }

  /** Publishes the batch in order; stopped meanwhile, it returns how far it got (all of an event's messages). */
  private async publish(events: RecordedEvent[], scope: BatchScope): Promise<Position | null> {
    let done: Position | null = null;
    for (const e of events) {
      for (const p of await this.publications(e)) {
        if (!(await this.publishUntilSent(p, e.id, scope.signal))) return done;
      }
      done = e.position;
    }
    return done;
  }

  private async publishUntilSent(p: Publication, dedupId: string, signal: AbortSignal): Promise<boolean> {
    for (let wait = FIRST_RETRY_MS; !signal.aborted; wait = Math.min(wait * 2, LAST_RETRY_MS)) {
      try {
        await this.bus.publish(p.subject, p.body, dedupId);
        if (this.awaySince !== null) {
          this.logger.info({ part: this.name, awayMs: Date.now() - this.awaySince }, `${this.name}: the bus is back; publishing again`);
          this.awaySince = null;
        }
        return true;
      } catch (error) {
        if (this.awaySince === null) {
          this.awaySince = Date.now();
          this.logger.warn({ part: this.name, err: error }, `${this.name}: the bus refused a message; retrying until it is back (projections go on)`);
        }
        await abortableSleep(wait, signal);
      }
    }
    return false;
  }

  start(): Promise<void> {
    return this.runner.start();
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }
}

/** Resolves after `ms`, or at once when the signal aborts. */
function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
