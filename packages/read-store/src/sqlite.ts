import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Sqlite, type Database, type Statement } from '@comanda/sqlite';
import { sqliteOrderBy, sqliteWhere } from './sqlite-filter.js';
import { CHECKPOINTS, Connection, PREFIX, Schema, isMissingTable, quote, tableName } from './sqlite-schema.js';
import type { Collection, Doc, Filter, FindOptions, IndexSpec, ReadStore } from './types.js';

type Pending = Map<string, Map<string, Doc | null>>;

/** Where a collection reads and writes: committed state (the reader), or inside a transaction. */
interface Access {
  /** Connection for reads. */
  read: Connection;
  /** Buffered writes of a transaction (flushed before its own queries and at commit), or none. */
  pending?: Pending;
  write(collection: string, id: string, doc: Doc | null): Promise<void>;
  flush(collection?: string): void;
}

class SqliteCollection<T extends Doc> implements Collection<T> {
  private readonly schema: Schema;
  private readonly access: Access;
  private readonly name: string;
  constructor(
    schema: Schema,
    access: Access,
    name: string,
  ) {
    this.schema = schema;
    this.access = access;
    this.name = name;
  }

  private query<R>(run: (table: string) => R, empty: R): R {
    const table = tableName(this.name);
    // A collection nothing has written yet (or whose creation is still uncommitted) is empty.
    if (!this.access.read.hasTable(table)) return empty;
    try {
      return run(quote(table));
    } catch (error) {
      if (!isMissingTable(error)) throw error;
      this.access.read.forgetTable(table);
      return empty;
    }
  }

  async get(id: string): Promise<T | null> {
    const buffered = this.access.pending?.get(this.name);
    if (buffered?.has(id)) return buffered.get(id) as T | null;
    const row = this.query((t) => this.access.read.prepare(`SELECT doc FROM ${t} WHERE id = ?`).get(id) as { doc: string } | undefined, undefined);
    return row ? (JSON.parse(row.doc) as T) : null;
  }

  upsert(doc: T): Promise<void> {
    return this.access.write(this.name, doc._id, doc);
  }

  delete(id: string): Promise<void> {
    return this.access.write(this.name, id, null);
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    this.access.flush(this.name);
    const p: unknown[] = [];
    let sql = `WHERE ${sqliteWhere(filter, p)} ${sqliteOrderBy(options.sort)}`;
    if (options.limit !== undefined || options.skip) {
      sql += ' LIMIT ? OFFSET ?';
      p.push(options.limit ?? -1, options.skip ?? 0);
    }
    // Row by row: a long answer never holds every document's text and its parsed form at once.
    return this.query((t) => {
      const docs: T[] = [];
      for (const row of this.access.read.prepare(`SELECT doc FROM ${t} ${sql}`).iterate(...p) as Iterable<{ doc: string }>) docs.push(JSON.parse(row.doc) as T);
      return docs;
    }, []);
  }

  async count(filter: Filter = {}): Promise<number> {
    this.access.flush(this.name);
    const p: unknown[] = [];
    const where = sqliteWhere(filter, p);
    return this.query((t) => (this.access.read.prepare(`SELECT count(*) AS n FROM ${t} WHERE ${where}`).get(...p) as { n: number }).n, 0);
  }
}

export interface SqliteReadStoreOptions {
  /** The database file (created with its directory when missing). */
  filename: string;
}

/**
 * Read models in one SQLite file (the standalone default, `<data dir>/read-models.db`): a table per
 * collection (`rm_<name>`: id, the document as JSON text), an expression index per `IndexSpec` the
 * projections declare, checkpoints in `comanda_checkpoints`. They survive a restart, so the projector
 * resumes from its checkpoint instead of rebuilding, and only what a query asks for is in memory.
 *
 * Two connections: queries read committed state through their own (WAL: a consistent snapshot per
 * statement, never blocked by the writer); writes go through the writer. `transaction(work)` buffers
 * the documents `work` writes and commits them with its checkpoints in one SQLite transaction, so the
 * API never sees half a batch and a crash loses whole batches only (re-applied from the log).
 */
export class SqliteReadStore implements ReadStore {
  private readonly writer: Connection;
  private readonly reader: Connection;
  private readonly schema: Schema;
  /** The writer is in a transaction until this settles: other writes wait for it. */
  private busy: Promise<unknown> | null = null;
  private readonly root: Access;
  /** Per collection, moved on when a write to it is committed (visible to the reader); `epoch` on clear(). */
  private readonly generations = new Map<string, number>();
  private epoch = 0;

  constructor(options: SqliteReadStoreOptions) {
    if (options.filename !== ':memory:') mkdirSync(dirname(options.filename), { recursive: true });
    const writer = new Sqlite(options.filename);
    writer.pragma('journal_mode = WAL');
    // The event log is the truth: a power cut may lose the last batches (with their checkpoint), never mix them.
    writer.pragma('synchronous = NORMAL');
    writer.pragma('cache_size = -8000');
    this.writer = new Connection(writer);
    this.schema = new Schema(this.writer);
    // ':memory:' (tests) is one database per connection: then reads share the writer.
    this.reader = options.filename === ':memory:' ? this.writer : new Connection(new Sqlite(options.filename, { readonly: true, fileMustExist: true }));
    this.reader.db.pragma('cache_size = -16000');
    this.root = {
      read: this.reader,
      write: (collection, id, doc) => this.exclusive(() => {
        this.writeRow(collection, id, doc);
        this.changed(collection);
      }),
      flush: () => undefined,
    };
  }

  /** Runs `fn` on the writer once no transaction holds it (at once when none does). */
  private async exclusive<R>(fn: () => R): Promise<R> {
    while (this.busy) await this.busy.catch(() => undefined);
    return fn();
  }

  private writeRow(collection: string, id: string, doc: Doc | null): void {
    const table = quote(this.schema.ensure(collection));
    if (doc === null) this.writer.prepare(`DELETE FROM ${table} WHERE id = ?`).run(id);
    else this.writer.prepare(`INSERT INTO ${table} (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`).run(id, JSON.stringify(doc));
  }

  collection<T extends Doc = Doc>(name: string, indexes: IndexSpec[] = []): Collection<T> {
    tableName(name);
    this.schema.declare(name, indexes);
    return new SqliteCollection<T>(this.schema, this.root, name);
  }

  generation(collection: string): number {
    return this.epoch + (this.generations.get(collection) ?? 0);
  }

  private changed(collection: string): void {
    this.generations.set(collection, (this.generations.get(collection) ?? 0) + 1);
  }

  async getCheckpoint(name: string): Promise<bigint | null> {
    return readCheckpoint(this.reader, name);
  }

  setCheckpoint(name: string, position: bigint): Promise<void> {
    return this.exclusive(() => writeCheckpoint(this.writer, name, position));
  }

  /** Everything `work` writes through the store it is given commits together, or not at all. */
  async transaction<R>(work: (store: ReadStore) => Promise<R>): Promise<R> {
    while (this.busy) await this.busy.catch(() => undefined);
    const run = this.runTransaction(work);
    this.busy = run;
    try {
      return await run;
    } finally {
      if (this.busy === run) this.busy = null;
    }
  }

  private async runTransaction<R>(work: (store: ReadStore) => Promise<R>): Promise<R> {
    const pending: Pending = new Map();
    const written = new Set<string>();
    const flush = (only?: string) => {
      for (const [collection, rows] of pending) {
        if (only !== undefined && collection !== only) continue;
        for (const [id, doc] of rows) this.writeRow(collection, id, doc);
        pending.delete(collection);
      }
    };
    const access: Access = {
      read: this.writer,
      pending,
      write: async (collection, id, doc) => {
        let rows = pending.get(collection);
        if (!rows) pending.set(collection, (rows = new Map()));
        rows.set(id, doc);
        written.add(collection);
      },
      flush,
    };
    const view = new TransactionView(this.schema, this.writer, access);
    this.writer.db.exec('BEGIN IMMEDIATE');
    try {
      const result = await work(view);
      flush();
      this.writer.db.exec('COMMIT');
      for (const collection of written) this.changed(collection);
      return result;
    } catch (error) {
      if (this.writer.db.inTransaction) this.writer.db.exec('ROLLBACK');
      this.schema.forget();
      throw error;
    }
  }

  /** Empties one collection (a projection rebuilt from the start of the log). */
  async drop(name: string): Promise<void> {
    await this.exclusive(() => {
      this.writer.db.exec(`DROP TABLE IF EXISTS ${quote(tableName(name))}`);
      this.schema.forget();
      this.changed(name);
    });
  }

  async clear(): Promise<void> {
    await this.exclusive(() => {
      const tables = this.writer.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '${PREFIX.replace('_', '\\_')}%' ESCAPE '\\'`).all() as Array<{ name: string }>;
      this.writer.db.transaction(() => {
        for (const t of tables) this.writer.db.exec(`DROP TABLE ${quote(t.name)}`);
        this.writer.db.exec(`DELETE FROM ${CHECKPOINTS}`);
      })();
      this.schema.forget();
      this.epoch++;
    });
  }

  async ping(): Promise<void> {
    this.reader.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    while (this.busy) await this.busy.catch(() => undefined);
    if (this.reader !== this.writer) this.reader.db.close();
    this.writer.db.close();
  }
}

/** The store as `transaction(work)` hands it to `work`: reads see its own writes. */
class TransactionView implements ReadStore {
  private readonly schema: Schema;
  private readonly writer: Connection;
  private readonly access: Access;
  constructor(
    schema: Schema,
    writer: Connection,
    access: Access,
  ) {
    this.schema = schema;
    this.writer = writer;
    this.access = access;
  }

  collection<T extends Doc = Doc>(name: string, indexes: IndexSpec[] = []): Collection<T> {
    tableName(name);
    this.schema.declare(name, indexes);
    return new SqliteCollection<T>(this.schema, this.access, name);
  }

  async getCheckpoint(name: string): Promise<bigint | null> {
    return readCheckpoint(this.writer, name);
  }

  async setCheckpoint(name: string, position: bigint): Promise<void> {
    writeCheckpoint(this.writer, name, position);
  }

  transaction<R>(work: (store: ReadStore) => Promise<R>): Promise<R> {
    return work(this);
  }

  async drop(): Promise<void> {
    throw new Error('drop is not available inside a read-store transaction');
  }

  async clear(): Promise<void> {
    throw new Error('clear is not available inside a read-store transaction');
  }

  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}

function readCheckpoint(c: Connection, name: string): bigint | null {
  const row = c.prepare(`SELECT position FROM ${CHECKPOINTS} WHERE name = ?`).get(name) as { position: string } | undefined;
  return row ? BigInt(row.position) : null;
}

function writeCheckpoint(c: Connection, name: string, position: bigint): void {
  c.prepare(`INSERT INTO ${CHECKPOINTS} (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position`).run(name, position.toString());
}
