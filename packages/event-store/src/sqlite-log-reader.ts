import { Sqlite, type Database, type Statement } from '@comanda/sqlite';
import type { Position, ReplayedEvent } from './types.js';

type ReplayRow = [position: number, stream: string, type: string, data: string];
type Extras = [metadata: string, recordedAt: number];

/**
 * A row of the log as a replay hands it on. Its metadata and time of recording are looked up when
 * first read (a point read by position): a report reads them only for an event that carries no time
 * of its own, and handing every row's over was a tenth of a replay's reading. So they can be read
 * while the page the event came in is folded, not after the log was read to its end.
 */
class LoggedEvent implements ReplayedEvent {
  #extras: Extras | undefined = undefined;
  #parsed: Record<string, unknown> | undefined = undefined;
  readonly #extrasAt: (position: Position) => Extras;
  readonly position: Position;
  readonly stream: string;
  readonly type: string;
  readonly data: unknown;
  constructor(
    position: Position,
    stream: string,
    type: string,
    data: unknown,
    extrasAt: (position: Position) => Extras,
  ) {
    this.position = position;
    this.stream = stream;
    this.type = type;
    this.data = data;
    this.#extrasAt = extrasAt;
  }

  get metadata(): Record<string, unknown> {
    return (this.#parsed ??= JSON.parse((this.#extras ??= this.#extrasAt(this.position))[0]) as Record<string, unknown>);
  }

  get recordedAt(): number {
    return (this.#extras ??= this.#extrasAt(this.position))[1];
  }
}

/** How much of the file a replay's connection maps: a year of a busy restaurant is a few GB. */
const MAPPED_BYTES = 2 ** 34;

/**
 * A SQLite event log read on its own connection, read-only, for a replay that folds only some
 * reports: only the events of `types` up to `upTo`, a page at a time, without their ids and
 * revisions (a fifth of SQLite's work handing a row over). Several threads can each read the same
 * file this way at once (WAL readers never block each other or the writer), each skipping what its
 * reports never read without parsing it.
 */
export function* readSqliteLog(file: string, options: { types: readonly string[]; upTo: Position; pageSize?: number }): Generator<ReplayedEvent[]> {
  const types = [...new Set(options.types)];
  if (types.length === 0) return;
  const spelled = new Map(types.map((t) => [t, t]));
  const db = new Sqlite(file, { readonly: true, fileMustExist: true });
  // Mapped rather than read into SQLite's page cache: a replay reads every page of the file once.
  db.pragma(`mmap_size = ${MAPPED_BYTES}`);
  try {
    const limit = options.pageSize ?? 2000;
    const extras = db.prepare('SELECT metadata, recorded_at FROM events WHERE position = ?').raw(true);
    const extrasAt = (position: Position): Extras => {
      if (!db.open) throw new Error('an event\'s metadata is read while its page is folded, before the log is read to its end');
      return extras.get(position) as Extras;
    };
    const page = db
      .prepare(`SELECT position, stream, type, data FROM events WHERE position > ? AND position <= ? AND type IN (${types.map(() => '?').join(', ')}) ORDER BY position LIMIT ?`)
      .raw(true);
    let after: Position = 0n;
    for (;;) {
      const rows = page.all(after, options.upTo, ...types, limit) as ReplayRow[];
      if (rows.length === 0) return;
      // The type as the caller spelled it, not SQLite's fresh copy: the fold's routing by type and
      // the reports' switches then compare one string with itself.
      const events = rows.map((row) => new LoggedEvent(BigInt(row[0]), row[1], spelled.get(row[2]) ?? row[2], JSON.parse(row[3]), extrasAt));
      yield events;
      after = events[events.length - 1]!.position;
      if (rows.length < limit) return;
    }
  } finally {
    db.close();
  }
}

/** The position of the last event in a SQLite log file (null when empty), read-only. */
export function sqliteLogHead(file: string): Position | null {
  const db = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    const p = (db.prepare('SELECT max(position) AS p FROM events').get() as { p: number | null }).p;
    return p === null ? null : BigInt(p);
  } finally {
    db.close();
  }
}

/**
 * What the last `size` events of a SQLite log file are made of: per type, how many and their data's
 * bytes. A replay splits its work by it (the recent mix stands for the whole log), read-only.
 */
export function sqliteLogMix(file: string, size = 20_000): Map<string, { events: number; bytes: number }> {
  const db = new Sqlite(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare('SELECT type, count(*) AS events, sum(length(data)) AS bytes FROM (SELECT type, data FROM events ORDER BY position DESC LIMIT ?) GROUP BY type')
      .all(size) as Array<{ type: string; events: number; bytes: number }>;
    return new Map(rows.map((r) => [r.type, { events: r.events, bytes: r.bytes }]));
  } finally {
    db.close();
  }
}
