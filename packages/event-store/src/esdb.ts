import {
  ANY,
  EventStoreDBClient,
  NO_STREAM,
  START,
  FORWARDS,
  BACKWARDS,
  END,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
} from '@eventstore/db-client';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type RecordedEvent,
  type Subscription,
  type SubscriptionHandlers,
  WrongExpectedRevision,
} from './types.js';

const SHIFT = 64n;
const LOW = (1n << SHIFT) - 1n;

/**
 * ESDB orders $all by (commit, prepare); events of one append share a commit position. Packing both
 * into one bigint keeps the port's single comparable position without losing the tie-break.
 */
export const packPosition = (p: { commit: bigint; prepare: bigint }): Position => (p.commit << SHIFT) | p.prepare;
export const unpackPosition = (p: Position) => ({ commit: p >> SHIFT, prepare: p & LOW });

/** EventStoreDB through the official gRPC client. */
export class EsdbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly subscriptions = new Set<Subscription>();

  constructor(connectionString: string) {
    this.client = EventStoreDBClient.connectionString(connectionString);
  }

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    const expectedRevision = expected === 'any' ? ANY : expected === 'no_stream' ? NO_STREAM : BigInt(expected);
    try {
      const result = await this.client.appendToStream(
        stream,
        events.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data as never, metadata: e.metadata as never })),
        { expectedRevision },
      );
      const nextRevision = Number(result.nextExpectedRevision);
      // The append result names the commit; read-your-writes needs the last event's exact position.
      const [last] = await this.read(stream, { fromRevision: END, direction: BACKWARDS, maxCount: 1 });
      return { nextRevision, position: last?.position ?? 0n };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = typeof error.actualVersion === 'bigint' ? Number(error.actualVersion) : 'no_stream';
        throw new WrongExpectedRevision(stream, expected, actual);
      }
      throw error;
    }
  }

  async readStream(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    return this.read(stream, { fromRevision: fromRevision === 0 ? START : BigInt(fromRevision), direction: FORWARDS });
  }

  private async read(stream: string, options: Parameters<EventStoreDBClient['readStream']>[1]): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(stream, options)) {
        if (resolved.event) out.push(toRecorded(resolved.event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return out;
  }

  subscribeToAll(after: Position | null, handlers: SubscriptionHandlers): Subscription {
    const upstream = this.client.subscribeToAll({
      fromPosition: after === null ? START : unpackPosition(after),
      filter: excludeSystemEvents(),
    });
    let closed = false;
    const done = (async () => {
      try {
        for await (const resolved of upstream) {
          if (closed) break;
          if (resolved.event) await handlers.onEvents([toRecorded(resolved.event)]);
        }
      } catch (error) {
        if (!closed) handlers.onError?.(error);
      }
    })();
    const subscription: Subscription = {
      close: async () => {
        closed = true;
        this.subscriptions.delete(subscription);
        await upstream.unsubscribe();
        await done;
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async headPosition(): Promise<Position | null> {
    for await (const resolved of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 50 })) {
      if (resolved.event && !resolved.event.type.startsWith('$') && resolved.event.position) {
        return packPosition(resolved.event.position);
      }
    }
    return null;
  }

  async ping(): Promise<void> {
    for await (const _ of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 })) break;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await this.client.dispose();
  }
}

function toRecorded(event: {
  id: string;
  streamId: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata?: unknown;
  created: Date | number;
  position?: { commit: bigint; prepare: bigint };
}): RecordedEvent {
  return {
    id: event.id,
    stream: event.streamId,
    revision: Number(event.revision),
    position: event.position ? packPosition(event.position) : 0n,
    type: event.type,
    data: event.data,
    metadata: (event.metadata ?? {}) as Record<string, unknown>,
    recordedAt: typeof event.created === 'number' ? event.created : event.created.getTime(),
  };
}
