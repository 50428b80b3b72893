import { inTransaction, openPool } from '@comanda/postgres';
import pg from 'pg';
import { LocalSubscription } from './local-subscription.js';
import { Notifications } from './postgres-notifications.js';
import { BatchedStreamReads, SharedPages } from './postgres-reads.js';
import {
  APPEND,
  COUNT_AFTER,
  CURRENT_REVISION,
  HEAD,
  OFFSET_CHECK,
  MAX_EVENTS_PER_APPEND,
  READ_AFTER,
  READ_SNAPSHOT,
  READ_STREAM,
  READ_STREAMS,
  SCHEMA,
  SCHEMA_LOCK,
  WRITE_SNAPSHOT,
} from './postgres-sql.js';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type RecordedEvent,
  type StoredSnapshot,
  type Subscription,
  type SubscriptionHandlers,
  WrongExpectedRevision,
} from './types.js';

interface Row {
  position: string;
  id: string;
  stream: string;
  revision: number;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recorded_at: string;
}

const toRecorded = (row: Row): RecordedEvent => ({
  id: row.id,
  stream: row.stream,
  revision: row.revision,
  position: BigInt(row.position),
  type: row.type,
  data: row.data,
  metadata: row.metadata,
  recordedAt: Number(row.recorded_at),
});

export interface PostgresEventStoreOptions {
  /** Subscriptions read again at this interval when no notification arrives (another process, a lost LISTEN). */
  pollMs?: number;
  /** Connections in the pool (default 10): concurrent appends beyond it wait for a connection. */
  poolSize?: number;
  onError?(error: unknown): void;
}

/**
 * How soon subscriptions look again when committed events wait for an older transaction to end
 * (doubling while it lasts, up to a second: a long transaction elsewhere is not polled at 200 Hz).
 */
const HELD_RETRY_MS = { first: 5, max: 1000 };

/**
 * The event log in PostgreSQL. An append is one statement in its own transaction: appends to
 * different streams commit concurrently, and appends to one stream meet on its (stream, revision)
 * unique index, which keeps the expected-revision check exact. Positions pack the transaction id
 * (see postgres-sql.ts): readers read only what lies below the oldest running transaction, so an
 * event that commits late is never skipped. Subscribers wake on NOTIFY and also poll.
 */
export class PostgresEventStore implements EventStore {
  private readonly pool: pg.Pool;
  private ready: Promise<void>;
  private readonly subscriptions = new Set<LocalSubscription>();
  private readonly notifications: Notifications;
  private closed = false;
  private heldRetry?: NodeJS.Timeout;
  private heldDelay = HELD_RETRY_MS.first;
  /** The last append in flight per stream (see append). */
  private readonly tails = new Map<string, Promise<void>>();
  private readonly pages = new SharedPages((after, limit) => this.readPage(after, limit));
  private readonly streamReads = new BatchedStreamReads(
    async (stream, from) => (await this.pool.query<Row>({ name: 'comanda_read_stream', text: READ_STREAM, values: [stream, from] })).rows.map(toRecorded),
    async (streams, froms) => (await this.pool.query<Row>({ name: 'comanda_read_streams', text: READ_STREAMS, values: [streams, froms] })).rows.map(toRecorded),
  );
  private poll?: NodeJS.Timeout;
  private readonly options: PostgresEventStoreOptions;

  constructor(
    url: string,
    options: PostgresEventStoreOptions = {},
  ) {
    this.options = options;
    this.pool = openPool(url, { max: options.poolSize, onError: (e) => options.onError?.(e) });
    this.notifications = new Notifications(url, this.pool, () => this.wake(), (e) => options.onError?.(e));
    this.ready = this.createSchema();
    this.ready.catch(() => undefined);
  }

  private async createSchema(): Promise<void> {
    // Two processes starting at once would race on CREATE TABLE IF NOT EXISTS: one at a time.
    await inTransaction(
      this.pool,
      async (client) => {
        await client.query(SCHEMA);
        await client.query(OFFSET_CHECK);
      },
      `BEGIN; SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`,
    );
  }

  /** Waits for the schema; a failed first attempt (server not up yet) is tried again. */
  private async schema(): Promise<void> {
    try {
      await this.ready;
    } catch {
      this.ready = this.createSchema();
      await this.ready;
    }
  }

  /**
   * Appends to one stream from this process run one after the other: the command handler pipelines
   * a stream's commands (the next decides on the revision the previous one is writing), and that
   * revision must be committed before the next statement reads the stream's head, or every queued
   * command would conflict. Other streams never wait; other processes meet on the unique index.
   */
  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const ahead = this.tails.get(stream);
    const mine = ahead ? ahead.then(() => this.appendNow(stream, events, expected)) : this.appendNow(stream, events, expected);
    const tail = mine.then(noop, noop);
    this.tails.set(stream, tail);
    void tail.then(() => {
      if (this.tails.get(stream) === tail) this.tails.delete(stream);
    });
    return mine;
  }

  private async appendNow(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    if (events.length >= MAX_EVENTS_PER_APPEND) throw new Error(`append takes fewer than ${MAX_EVENTS_PER_APPEND} events`);
    await this.schema();
    const expectedParam = expected === 'any' ? null : expected === 'no_stream' ? -1 : expected;
    const params = [
      stream,
      expectedParam,
      Date.now(),
      events.map((e) => e.id),
      events.map((e) => e.type),
      events.map((e) => JSON.stringify(e.data)),
      events.map((e) => JSON.stringify(e.metadata)),
    ];
    for (let attempt = 0; ; attempt++) {
      try {
        // Named: each connection parses and plans the statement once, not at every append.
        const row = (await this.pool.query<{ position: string | null; revision: number | null }>({ name: 'comanda_append', text: APPEND, values: params })).rows[0];
        if (row?.position != null) {
          this.wake();
          this.notifications.announce();
          return { nextRevision: row.revision!, position: BigInt(row.position) };
        }
        break; // the stream had moved on: nothing inserted
      } catch (error) {
        const raced = isUniqueViolation(error, 'comanda_events_stream_revision');
        // 'any' expects no revision, so losing the race for the next one is no conflict: insert again.
        if (raced && expected === 'any' && attempt < 100) continue;
        // Another append took the revision, or these ids are recorded already (a retry): see below.
        if (!raced && !isUniqueViolation(error, 'comanda_events_id_key')) throw error;
        break;
      }
    }
    // A retried append (same event ids, e.g. after a lost acknowledgement) answers as the first did.
    const earlier = await this.alreadyAppended(stream, events);
    if (earlier) return earlier;
    const actual = (await this.pool.query<{ r: number }>(CURRENT_REVISION, [stream])).rows[0]!.r;
    throw new WrongExpectedRevision(stream, expected, actual === -1 ? 'no_stream' : actual);
  }

  private async alreadyAppended(stream: string, events: NewEvent[]): Promise<AppendResult | null> {
    const ids = events.map((e) => e.id);
    const found = await this.pool.query<{ id: string; stream: string; revision: number; position: string }>(
      'SELECT id, stream, revision, position::text AS position FROM comanda_events WHERE id = ANY($1::text[]) ORDER BY comanda_events.position',
      [ids],
    );
    if (found.rows.length === 0) return null;
    const same =
      found.rows.length === ids.length &&
      found.rows.every((r, i) => r.stream === stream && r.id === ids[i] && (i === 0 || r.revision === found.rows[i - 1]!.revision + 1));
    if (!same) throw new Error(`Stream ${stream}: event id ${found.rows[0]!.id} is already recorded elsewhere in the log`);
    const last = found.rows[found.rows.length - 1]!;
    return { nextRevision: last.revision, position: BigInt(last.position) };
  }

  async readStream(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    await this.schema();
    return this.streamReads.read(stream, fromRevision);
  }

  async readAfter(after: Position | null, limit: number): Promise<RecordedEvent[]> {
    await this.schema();
    return this.readPage(after ?? 0n, limit);
  }

  /** How this process's subscriptions read the log: a page read since the last wake is shared. */
  private readonly subscriptionReads = {
    readAfter: async (after: Position | null, limit: number): Promise<RecordedEvent[]> => {
      await this.schema();
      // A copy: each subscription may keep or slice its page; the events themselves are shared.
      return [...(await this.pages.page(after ?? 0n, limit))];
    },
  };

  private async readPage(after: bigint, limit: number): Promise<RecordedEvent[]> {
    const rows = await this.pool.query<Row & { held: boolean }>({ name: 'comanda_read_after', text: READ_AFTER, values: [after.toString(), limit] });
    if (rows.rows[0]?.held) this.lookAgainSoon();
    else this.heldDelay = HELD_RETRY_MS.first;
    return rows.rows.filter((r) => r.position !== null).map(toRecorded);
  }

  /** Something may have been committed: the subscriptions read the log again (not a page read before). */
  private wake(): void {
    this.pages.wake();
    for (const s of this.subscriptions) s.nudge();
  }

  /** Committed events wait for an older transaction: the subscriptions read again shortly. */
  private lookAgainSoon(): void {
    if (this.heldRetry || this.closed || this.subscriptions.size === 0) return;
    this.heldRetry = setTimeout(() => {
      this.heldRetry = undefined;
      this.wake();
    }, this.heldDelay);
    this.heldDelay = Math.min(this.heldDelay * 2, HELD_RETRY_MS.max);
    this.heldRetry.unref();
  }

  /** Events after `position`: a follower's lag (positions are not a count of events). */
  async countAfter(position: Position | null): Promise<number> {
    await this.schema();
    const row = await this.pool.query<{ n: string }>(COUNT_AFTER, [(position ?? 0n).toString()]);
    return Number(row.rows[0]!.n);
  }

  async readSnapshot(stream: string): Promise<StoredSnapshot | null> {
    await this.schema();
    return (await this.pool.query<StoredSnapshot>(READ_SNAPSHOT, [stream])).rows[0] ?? null;
  }

  async writeSnapshot(stream: string, snapshot: StoredSnapshot): Promise<void> {
    await this.schema();
    await this.pool.query(WRITE_SNAPSHOT, [stream, snapshot.revision, snapshot.schema, snapshot.body]);
  }

  subscribeToAll(after: Position | null, handlers: SubscriptionHandlers): Subscription {
    const sub = new LocalSubscription(this.subscriptionReads, after, handlers, (s) => this.subscriptions.delete(s), {
      retryReadsAfterMs: 500,
      onReadError: (e) => this.options.onError?.(e),
      ...(handlers.settleMs ? { settleMs: handlers.settleMs } : {}),
    });
    this.subscriptions.add(sub);
    this.notifications.listen();
    // One timer for every subscription, and a wake (a new generation of pages): a notification
    // that never came (another process, a lost connection) is made up for within pollMs.
    this.poll ??= setInterval(() => this.wake(), this.options.pollMs ?? 1000);
    this.poll.unref();
    return sub;
  }

  async headPosition(): Promise<Position | null> {
    await this.schema();
    const row = await this.pool.query<{ p: string | null }>({ name: 'comanda_head', text: HEAD });
    const p = row.rows[0]?.p;
    return p == null ? null : BigInt(p);
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.heldRetry);
    clearInterval(this.poll);
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await this.notifications.close();
    await this.ready.catch(() => undefined);
    await this.pool.end();
  }
}

const noop = () => {};

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === constraint;
}
