import { Sqlite, type Database, type Statement } from '@comanda/sqlite';
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

interface PendingAppend {
  stream: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/**
 * An event row as better-sqlite3's raw mode gives it, columns in EVENT_COLUMNS order: an array per
 * row rather than an object with eight named properties reads the log ~40 % faster (replays,
 * catch-ups, the owner's reports).
 */
type Row = [position: number | bigint, id: string, stream: string, revision: number, type: string, data: string, metadata: string, recordedAt: number];
const EVENT_COLUMNS = 'position, id, stream, revision, type, data, metadata, recorded_at';

export interface SqliteEventStoreOptions {
  /** File path, or ':memory:'. */
  filename: string;
  /** Recently appended events kept in memory so live subscribers rarely touch the disk. */
  recentEvents?: number;
}

/**
 * The embedded event store: one SQLite file in WAL mode with synchronous=FULL, so an acknowledged
 * append survives a crash or power cut. Appends arriving in the same turn of the event loop are
 * committed together in one transaction (group commit: one fsync for many commands); each keeps its
 * own savepoint, so one append's conflict never fails its neighbours.
 */
/** Streams whose head revision is remembered (a few MB at most). */
const HEADS_KEPT = 50_000;

export class SqliteEventStore implements EventStore {
  private readonly db: Database;
  private readonly subscriptions = new Set<LocalSubscription>();
  private queue: PendingAppend[] = [];
  private flushScheduled = false;
  private readonly recent: RecordedEvent[] = [];
  /**
   * For streams read lately: a revision past which the stream has no event. This store is the file's
   * only writer (one process owns it), so its own appends keep the figure exact, and a read from past
   * it (a cached fold checking for news: every signed-in request checks its session and the roster)
   * answers without a query.
   */
  private readonly heads = new Map<string, number>();
  /** The file's only writer, and the process's one command handler with it: commands may be pipelined. */
  readonly soleWriter = true;
  private readonly recentLimit: number;
  private readonly stmt: {
    revision: Statement<[string], { r: number | null }>;
    insert: Statement;
    readStream: Statement<[string, number]>;
    readAfter: Statement<[number | bigint, number]>;
    head: Statement<[], { p: number | bigint | null }>;
    readSnapshot: Statement<[string], StoredSnapshot>;
    writeSnapshot: Statement<[string, number, string, string]>;
  };
  private readonly appendOne: (p: PendingAppend) => { result: AppendResult; recorded: RecordedEvent[] };
  private readonly appendAll: (batch: PendingAppend[]) => Array<{ result?: AppendResult; recorded?: RecordedEvent[]; error?: unknown }>;

  constructor(options: SqliteEventStoreOptions) {
    this.recentLimit = options.recentEvents ?? 10_000;
    this.db = new Sqlite(options.filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.defaultSafeIntegers(false);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS events (
        position    INTEGER PRIMARY KEY,
        id          TEXT    NOT NULL UNIQUE,
        stream      TEXT    NOT NULL,
        revision    INTEGER NOT NULL,
        type        TEXT    NOT NULL,
        data        TEXT    NOT NULL,
        metadata    TEXT    NOT NULL,
        recorded_at INTEGER NOT NULL,
        UNIQUE (stream, revision)
      );
      CREATE TABLE IF NOT EXISTS snapshots (
        stream   TEXT    PRIMARY KEY,
        revision INTEGER NOT NULL,
        schema   TEXT    NOT NULL,
        body     TEXT    NOT NULL
      );`);
    this.stmt = {
      revision: this.db.prepare('SELECT max(revision) AS r FROM events WHERE stream = ?'),
      insert: this.db.prepare(
        'INSERT INTO events (id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      readStream: this.db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision`).raw(true),
      readAfter: this.db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`).raw(true),
      head: this.db.prepare('SELECT max(position) AS p FROM events'),
      readSnapshot: this.db.prepare('SELECT revision, schema, body FROM snapshots WHERE stream = ?'),
      // A snapshot is a cache of the log: losing one costs a longer fold, never a fact.
      writeSnapshot: this.db.prepare('INSERT OR REPLACE INTO snapshots (stream, revision, schema, body) VALUES (?, ?, ?, ?)'),
    };
    this.appendOne = this.db.transaction((p: PendingAppend) => {
      const current = this.stmt.revision.get(p.stream)?.r ?? -1;
      if (!revisionMatches(p.expected, current)) {
        throw new WrongExpectedRevision(p.stream, p.expected, current === -1 ? 'no_stream' : current);
      }
      const recordedAt = Date.now();
      const recorded = p.events.map((e, i) => {
        const data = JSON.stringify(e.data);
        const metadata = JSON.stringify(e.metadata);
        const revision = current + 1 + i;
        const info = this.stmt.insert.run(e.id, p.stream, revision, e.type, data, metadata, recordedAt);
        return {
          id: e.id,
          stream: p.stream,
          revision,
          position: BigInt(info.lastInsertRowid),
          type: e.type,
          data: JSON.parse(data) as unknown,
          metadata: JSON.parse(metadata) as Record<string, unknown>,
          recordedAt,
        };
      });
      const last = recorded[recorded.length - 1]!;
      return { result: { nextRevision: last.revision, position: last.position }, recorded };
    });
    this.appendAll = this.db.transaction((batch: PendingAppend[]) =>
      batch.map((p) => {
        try {
          return this.appendOne(p);
        } catch (error) {
          return { error };
        }
      }),
    );
  }

  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
    return new Promise((resolve, reject) => {
      this.queue.push({ stream, events, expected, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = [];
    let outcomes;
    try {
      outcomes = this.appendAll(batch);
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    outcomes.forEach((o, i) => {
      if (!o.recorded) return;
      this.remember(o.recorded);
      const stream = batch[i]!.stream;
      if (this.heads.has(stream)) this.heads.set(stream, o.recorded[o.recorded.length - 1]!.revision);
    });
    outcomes.forEach((o, i) => (o.error === undefined ? batch[i]!.resolve(o.result!) : batch[i]!.reject(o.error)));
    for (const s of this.subscriptions) s.nudge();
  }

  private remember(events: RecordedEvent[]): void {
    this.recent.push(...events);
    if (this.recent.length > this.recentLimit * 2) this.recent.splice(0, this.recent.length - this.recentLimit);
  }

  async readSnapshot(stream: string): Promise<StoredSnapshot | null> {
    return this.stmt.readSnapshot.get(stream) ?? null;
  }

  async writeSnapshot(stream: string, snapshot: StoredSnapshot): Promise<void> {
    this.stmt.writeSnapshot.run(stream, snapshot.revision, snapshot.schema, snapshot.body);
  }

  knownToEndAt(stream: string, revision: number): boolean {
    const head = this.heads.get(stream);
    return head !== undefined && head <= revision;
  }

  async readStream(stream: string, fromRevision = 0): Promise<RecordedEvent[]> {
    const head = this.heads.get(stream);
    if (head !== undefined && fromRevision > head) return [];
    const events = (this.stmt.readStream.all(stream, fromRevision) as Row[]).map(toRecorded);
    this.heads.delete(stream);
    this.heads.set(stream, events.length ? events[events.length - 1]!.revision : fromRevision - 1);
    if (this.heads.size > HEADS_KEPT) this.heads.delete(this.heads.keys().next().value!);
    return events;
  }

  readAfter(after: Position | null, limit: number): RecordedEvent[] {
    const from = after ?? 0n;
    const first = this.recent[0];
    if (first && from >= first.position - 1n) {
      // Positions are contiguous (INTEGER PRIMARY KEY, no deletes), so the index is arithmetic.
      const start = Number(from - first.position + 1n);
      return this.recent.slice(start, start + limit);
    }
    return (this.stmt.readAfter.all(from, limit) as Row[]).map(toRecorded);
  }

  subscribeToAll(after: Position | null, handlers: SubscriptionHandlers): Subscription {
    const sub = new LocalSubscription(this, after, handlers, (s) => this.subscriptions.delete(s));
    this.subscriptions.add(sub);
    return sub;
  }

  async headPosition(): Promise<Position | null> {
    const p = this.stmt.head.get()?.p;
    return p === null || p === undefined ? null : BigInt(p);
  }

  /**
   * An online copy of the log into `file` through this connection (SQLite's backup API, a few pages per
   * turn of the event loop): appends made meanwhile through this connection reach the copy too, so it
   * is consistent when it resolves, and the service keeps serving while it runs.
   */
  async backupTo(file: string): Promise<void> {
    await this.db.backup(file);
  }

  async ping(): Promise<void> {
    this.stmt.head.get();
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    if (this.flushScheduled) this.flush();
    this.db.close();
  }
}

function toRecorded(row: Row): RecordedEvent {
  return {
    id: row[1],
    stream: row[2],
    revision: row[3],
    position: BigInt(row[0]),
    type: row[4],
    data: JSON.parse(row[5]) as unknown,
    metadata: JSON.parse(row[6]) as Record<string, unknown>,
    recordedAt: row[7],
  };
}
