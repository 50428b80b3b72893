import type { Bus } from '@comanda/bus';
import type { EventStore, RecordedEvent, Subscription } from '@comanda/event-store';
import type { Logger } from 'pino';
import type { CheckpointStore } from './checkpoint-file.js';

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
 * the de-duplication id, so a replay after a crash does not show a dish twice.
 */
export class Relay {
  private subscription?: Subscription;
  state: 'starting' | 'live' | 'failed' | 'stopped' = 'starting';
  /** The last position handled (for the lag on /metrics). */
  position: bigint | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly bus: Bus,
    private readonly checkpoint: CheckpointStore,
    private readonly logger: Logger,
    /** Where to begin when no checkpoint exists: 'start' replays history, 'head' only new events. */
    private readonly fresh: 'start' | 'head' = 'head',
    private readonly publications: Publish = domainEvents,
  ) {}

  async start(): Promise<void> {
    let from = await this.checkpoint.get();
    if (from === null && this.fresh === 'head') from = (await this.store.headPosition()) ?? null;
    this.state = 'live';
    this.position = from;
    this.subscription = this.store.subscribeToAll(from, {
      onEvents: async (events) => {
        for (const e of events) {
          for (const p of await this.publications(e)) await this.bus.publish(p.subject, p.body, e.id);
        }
        this.position = events[events.length - 1]!.position;
        await this.checkpoint.set(this.position);
      },
      onError: (err) => {
        this.state = 'failed';
        this.logger.error({ err }, 'relay stopped');
      },
    });
  }

  async stop(): Promise<void> {
    if (this.state !== 'failed') this.state = 'stopped';
    await this.subscription?.close();
    await this.checkpoint.flush();
  }
}
