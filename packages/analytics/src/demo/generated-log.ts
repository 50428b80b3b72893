import { type AppendResult, type EventStore, type ExpectedRevision, type NewEvent, type RecordedEvent, type Subscription, WrongExpectedRevision, revisionMatches } from '@comanda/event-store';

/**
 * The store the demo generator's command handler writes to: it numbers and keeps appended events
 * until they are drained (to a real log, or straight into a benchmark), and stamps each with the
 * simulated time (`now`) as `occurredAt`, so a month of history happens in seconds. It keeps no
 * stream contents: the handler it serves must cache every stream's state (a cache as large as the
 * history), so it never reads a stream back.
 */
export class GeneratedLog implements EventStore {
  now = 0;
  private readonly revisions = new Map<string, number>();
  private position = 0n;
  private pending: RecordedEvent[] = [];
  total = 0;

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const current = this.revisions.get(stream) ?? -1;
    if (!revisionMatches(expected, current)) throw new WrongExpectedRevision(stream, expected, current === -1 ? 'no_stream' : current);
    let revision = current;
    for (const e of events) {
      revision++;
      this.position++;
      const metadata = { ...e.metadata, occurredAt: this.now };
      this.pending.push({ id: e.id, stream, revision, position: this.position, type: e.type, data: e.data, metadata, recordedAt: this.now });
    }
    this.total += events.length;
    this.revisions.set(stream, revision);
    return { nextRevision: revision, position: this.position };
  }

  /** The events appended since the last drain, in log order. */
  drain(): RecordedEvent[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }

  async readStream(): Promise<RecordedEvent[]> {
    return [];
  }

  subscribeToAll(): Subscription {
    throw new Error('GeneratedLog is written, not followed: drain() it');
  }

  async headPosition() {
    return this.position === 0n ? null : this.position;
  }

  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}

/**
 * Copies events into a real log in their order: many appends handed over in one turn of the event
 * loop, so an SQLite log commits them in one transaction (one fsync per batch, not per event).
 */
export async function copyInto(target: EventStore, events: readonly RecordedEvent[], batch = 5000): Promise<void> {
  for (let i = 0; i < events.length; i += batch) {
    const appends: Array<Promise<AppendResult>> = [];
    const slice = events.slice(i, i + batch);
    let j = 0;
    while (j < slice.length) {
      // Consecutive events of one stream go in one append (a command's events stay together).
      const first = slice[j]!;
      let k = j + 1;
      while (k < slice.length && slice[k]!.stream === first.stream && slice[k]!.revision === slice[k - 1]!.revision + 1) k++;
      const run = slice.slice(j, k);
      appends.push(target.append(first.stream, run.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })), first.revision === 0 ? 'no_stream' : first.revision - 1));
      j = k;
    }
    await Promise.all(appends);
  }
}
