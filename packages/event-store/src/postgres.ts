import { inTransaction, openPool } from '@comanda/postgres';
import pg from 'pg';
import { LocalSubscription } from './local-subscription.js';
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

/** Advisory lock keys (arbitrary constants): one serialises appends, one the schema creation. */
const APPEND_LOCK = 7_236_611_001;
const SCHEMA_LOCK = 7_236_611_002;
const CHANNEL = 'comanda_events';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS comanda_events (
    position    bigint  PRIMARY KEY,
    id          text    NOT NULL UNIQUE,
    stream      text    NOT NULL,
    revision    integer NOT NULL,
    type        text    NOT NULL,
    data        json    NOT NULL,
    metadata    json    NOT NULL,
    recorded_at bigint  NOT NULL,
    CONSTRAINT comanda_events_stream_revision UNIQUE (stream, revision)
  )`;

/**
 * One statement: checks the expected revision and inserts the events at the next positions, or
 * inserts nothing when the stream has moved on. Runs under the append lock, so `max(position)`
 * and `max(revision)` are read after every earlier append has committed.
 */
const INSERT = `
  WITH cur AS (SELECT coalesce(max(revision), -1) AS r FROM comanda_events WHERE stream = $1),
       head AS (SELECT coalesce(max(position), 0) AS p FROM comanda_events),
       ins AS (
         INSERT INTO comanda_events (position, id, stream, revision, type, data, metadata, recorded_at)
         SELECT head.p + e.ord, e.id, $1, cur.r + e.ord, e.type, e.data, e.metadata, $3
           FROM cur, head, unnest($4::text[], $5::text[], $6::json[], $7::json[]) WITH ORDINALITY AS e(id, type, data, metadata, ord)
          WHERE $2::integer IS NULL OR cur.r = $2::integer
         RETURNING position, revision)
  SELECT max(position)::text AS position, max(revision) AS revision, pg_notify('${CHANNEL}', max(position)::text) FROM ins`;

const COLUMNS = 'position::text AS position, id, stream, revision, type, data, metadata, recorded_at::text AS recorded_at';

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
  onError?(error: unknown): void;
}

/**
 * The event log in PostgreSQL. Positions are gap-free and in commit order: every append takes one
 * transaction-level advisory lock, then reads `max(position)` and inserts after it, and the lock is
 * released only after the commit is visible. So a reader that sees position n has already been able
 * to see every position below n, and reading `position > checkpoint` never skips an event that
 * commits late (the sequence pitfall). The price is one append committing at a time, which a
 * restaurant's write rate never approaches. Subscribers wake on NOTIFY and also poll.
 */
export class PostgresEventStore implements EventStore {
  private readonly pool: pg.Pool;
  private ready: Promise<void>;
  private readonly subscriptions = new Set<LocalSubscription>();
  private listener?: pg.Client;
  private listening = false;
  private closed = false;
  private reconnect?: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly options: PostgresEventStoreOptions = {},
  ) {
    this.pool = openPool(url, { onError: (e) => options.onError?.(e) });
    this.ready = this.createSchema();
    this.ready.catch(() => undefined);
  }

  private async createSchema(): Promise<void> {
    // Two processes starting at once would race on CREATE TABLE IF NOT EXISTS: one at a time.
    await inTransaction(this.pool, (client) => client.query(SCHEMA), `BEGIN; SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`);
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

  async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    await this.schema();
    const expectedParam = expected === 'any' ? null : expected === 'no_stream' ? -1 : expected;
    const client = await this.pool.connect();
    let result: AppendResult | null = null;
    let conflict: unknown = null;
    let broken: Error | undefined;
    try {
      await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${APPEND_LOCK})`);
      const inserted = await client.query<{ position: string | null; revision: number | null }>(INSERT, [
        stream,
        expectedParam,
        Date.now(),
        events.map((e) => e.id),
        events.map((e) => e.type),
        events.map((e) => JSON.stringify(e.data)),
        events.map((e) => JSON.stringify(e.metadata)),
      ]);
      const row = inserted.rows[0];
      if (row?.position == null) {
        const current = await client.query<{ r: number }>(
          'SELECT coalesce(max(revision), -1) AS r FROM comanda_events WHERE stream = $1',
          [stream],
        );
        const actual = current.rows[0]!.r;
        conflict = new WrongExpectedRevision(stream, expected, actual === -1 ? 'no_stream' : actual);
        await client.query('ROLLBACK');
      } else {
        await client.query('COMMIT');
        result = { nextRevision: row.revision!, position: BigInt(row.position) };
      }
    } catch (error) {
      // A connection that cannot even roll back is dropped from the pool, not reused.
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      conflict = isUniqueViolation(error, 'comanda_events_stream_revision')
        ? new WrongExpectedRevision(stream, expected, 'no_stream')
        : error;
    } finally {
      client.release(broken);
    }
    if (result) {
      for (const s of this.subscriptions) s.nudge();
      return result;
    }
    // A retried append (same event ids, e.g. after a lost acknowledgement) answers as the first did.
    const earlier = await this.alreadyAppended(stream, events);
    if (earlier) return earlier;
    throw conflict;
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
    const rows = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM comanda_events WHERE stream = $1 AND revision >= $2 ORDER BY revision`,
      [stream, fromRevision],
    );
    return rows.rows.map(toRecorded);
  }

  async readAfter(after: Position | null, limit: number): Promise<RecordedEvent[]> {
    await this.schema();
    const rows = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM comanda_events WHERE position > $1 ORDER BY comanda_events.position LIMIT $2`,
      [(after ?? 0n).toString(), limit],
    );
    return rows.rows.map(toRecorded);
  }

  subscribeToAll(after: Position | null, handlers: SubscriptionHandlers): Subscription {
    const sub = new LocalSubscription(this, after, handlers, (s) => this.subscriptions.delete(s), {
      pollMs: this.options.pollMs ?? 1000,
      retryReadsAfterMs: 500,
      onReadError: (e) => this.options.onError?.(e),
    });
    this.subscriptions.add(sub);
    void this.listen();
    return sub;
  }

  /** One LISTEN connection per store wakes every subscription of this process; it reconnects. */
  private async listen(): Promise<void> {
    if (this.listening || this.closed) return;
    this.listening = true;
    const client = new pg.Client({ connectionString: this.url });
    this.listener = client;
    const retry = (error?: unknown) => {
      if (error) this.options.onError?.(error);
      if (this.listener !== client) return;
      this.listener = undefined;
      this.listening = false;
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.reconnect = setTimeout(() => void this.listen(), 1000);
      this.reconnect.unref();
    };
    client.on('error', retry);
    client.on('end', () => retry());
    client.on('notification', () => {
      for (const s of this.subscriptions) s.nudge();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      // Whatever was appended while no one listened.
      for (const s of this.subscriptions) s.nudge();
    } catch (error) {
      retry(error);
    }
  }

  async headPosition(): Promise<Position | null> {
    await this.schema();
    const row = await this.pool.query<{ p: string | null }>('SELECT max(position)::text AS p FROM comanda_events');
    const p = row.rows[0]?.p;
    return p == null ? null : BigInt(p);
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnect);
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.ready.catch(() => undefined);
    await this.pool.end();
  }
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === constraint;
}
