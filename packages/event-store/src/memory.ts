import { LocalSubscription } from './local-subscription.js';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type RecordedEvent,
  type Subscription,
  type StoredSnapshot,
  type SubscriptionHandlers,
  WrongExpectedRevision,
  revisionMatches,
} from './types.js';

/** The event store for unit tests: the whole log in one array, position = index + 1. */
export class MemoryEventStore implements EventStore {
  private readonly snapshots = new Map<string, StoredSnapshot>();
  readonly soleWriter: boolean;

  /** `soleWriter: false` for a test that plays several replicas (several command handlers) on one log. */
  constructor(options: { soleWriter?: boolean } = {}) {
    this.soleWriter = options.soleWriter ?? true;
  }

  async readSnapshot(stream: string): Promise<StoredSnapshot | null> {
    return this.snapshots.get(stream) ?? null;
  }

  async writeSnapshot(stream: string, snapshot: StoredSnapshot): Promise<void> {
    this.snapshots.set(stream, snapshot);
  }

  private readonly log: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  private readonly subscriptions = new Set<LocalSubscription>();

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const existing = this.streams.get(stream) ?? [];
    const current = existing.length - 1;
    if (!revisionMatches(expected, current)) {
      throw new WrongExpectedRevision(stream, expected, current === -1 ? 'no_stream' : current);
    }
    if (events.length === 0) throw new Error('append needs at least one event');
    const recordedAt = Date.now();
    const recorded = events.map((e, i) => ({
      id: e.id,
      stream,
      revision: current + 1 + i,
      position: BigInt(this.log.length + 1 + i),
      type: e.type,
      // A copy, so later mutation by the caller cannot rewrite history.
      data: structuredClone(e.data),
      metadata: structuredClone(e.metadata),
      recordedAt,
    }));
    this.log.push(...recorded);
    this.streams.set(stream, existing.concat(recorded));
    for (const s of this.subscriptions) s.nudge();
    const last = recorded[recorded.length - 1]!;
    return { nextRevision: last.revision, position: last.position };
  }

  knownToEndAt(stream: string, revision: number): boolean {
    return (this.streams.get(stream)?.length ?? 0) - 1 <= revision;
  }

  async readStream(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    return (this.streams.get(stream) ?? []).slice(fromRevision);
  }

  readAfter(after: Position | null, limit: number): RecordedEvent[] {
    const start = after === null ? 0 : Number(after);
    return this.log.slice(start, start + limit);
  }

  subscribeToAll(after: Position | null, handlers: SubscriptionHandlers): Subscription {
    const sub = new LocalSubscription(this, after, handlers, (s) => this.subscriptions.delete(s));
    this.subscriptions.add(sub);
    return sub;
  }

  async headPosition(): Promise<Position | null> {
    return this.log.length === 0 ? null : BigInt(this.log.length);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close()));
  }
}
