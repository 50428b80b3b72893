import { createHash } from 'node:crypto';
import { inTransaction, listen, openPool } from '@comanda/postgres';
import type pg from 'pg';
import { batchTransaction } from './postgres-batch.js';
import { BatchedGets, getOne } from './postgres-gets.js';
import { SqlParams, indexColumns, orderBy, where } from './postgres-filter.js';
import type { Collection, Doc, Filter, FindOptions, IndexSpec, ReadStore } from './types.js';

const SCHEMA_LOCK = 7_236_611_003;
const PREFIX = 'rm_';
const CHECKPOINTS = 'comanda_checkpoints';
/** NOTIFY channel of checkpoint writes: `name position` lines, one notification per write. */
const CHECKPOINT_CHANNEL = 'comanda_checkpoints';
/**
 * Checkpoints are announced in their write's own commit (a NOTIFY is delivered only if and when its
 * transaction commits): API replicas wait on the projector's and the reactor's checkpoints for
 * read-your-writes, and learn of them this way instead of polling the table.
 */
const CHECKPOINTS_SQL = {
  upsert: (names: string, positions: string) => `INSERT INTO ${CHECKPOINTS} (name, position) SELECT * FROM unnest(${names}::text[], ${positions}::text[])
    ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position RETURNING name, position`,
  announce: (cte: string) => `SELECT pg_notify('${CHECKPOINT_CHANNEL}', string_agg(name || ' ' || position, E'\\n')) FROM ${cte}`,
};
const SET_CHECKPOINTS = `WITH up AS (${CHECKPOINTS_SQL.upsert('$1', '$2')}) ${CHECKPOINTS_SQL.announce('up')}`;

/** Bumped when `indexColumns` changes what an index holds. */
const INDEX_LAYOUT = 2;

const CORE_TABLES = [`CREATE TABLE IF NOT EXISTS ${CHECKPOINTS} (name text PRIMARY KEY, position text NOT NULL)`];

type Queryable = Pick<pg.Pool, 'query'>;

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

function tableName(collection: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(collection)) throw new Error(`Collection names are letters, digits and _: ${collection}`);
  const name = `${PREFIX}${collection.toLowerCase()}`;
  return name.length <= 63 ? name : `${PREFIX}${createHash('sha256').update(collection).digest('hex').slice(0, 40)}`;
}

/**
 * Tables, their indexes and the checkpoint table, created once per process (and idempotently). A
 * collection's indexes are those every `collection(name, specs)` of this process declared: the
 * projector declares its projections' at start, then writes through instances that declare none
 * (the first use must not create the table without them, which left every table with its primary
 * key only). Another process's tables get their indexes when the projector starts.
 */
class Schema {
  private readonly declared = new Map<string, IndexSpec[]>();
  private readonly tables = new Map<string, Promise<void>>();
  private readonly checkpoints: Promise<void>;
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.pool = pool;
    this.checkpoints = this.ddl(CORE_TABLES);
    this.checkpoints.catch(() => undefined);
  }

  /** DDL under an advisory lock: replicas starting together would race on CREATE … IF NOT EXISTS. */
  private async ddl(statements: string[]): Promise<void> {
    await inTransaction(
      this.pool,
      async (client) => {
        for (const sql of statements) await client.query(sql);
      },
      `BEGIN; SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`,
    );
  }

  /** Specs not declared before are created at the next use (the table's DDL runs again, idempotent). */
  declare(collection: string, specs: IndexSpec[]): void {
    const known = this.declared.get(collection) ?? [];
    const fresh = specs.filter((s) => !known.some((k) => JSON.stringify(k) === JSON.stringify(s)));
    if (fresh.length === 0) return;
    this.declared.set(collection, [...known, ...fresh]);
    this.tables.delete(tableName(collection));
  }

  table(collection: string): Promise<void> {
    const name = tableName(collection);
    let ready = this.tables.get(name);
    if (!ready) {
      const statements = [`CREATE TABLE IF NOT EXISTS ${quote(name)} (id text COLLATE "C" PRIMARY KEY, doc jsonb NOT NULL)`];
      for (const spec of this.declared.get(collection) ?? []) {
        // The layout is in the name: an index of an older layout is another index, not this one.
        const index = `${name}_${createHash('sha256').update(JSON.stringify([INDEX_LAYOUT, Object.entries(spec)])).digest('hex').slice(0, 12)}`;
        statements.push(`CREATE INDEX IF NOT EXISTS ${quote(index)} ON ${quote(name)} (${indexColumns(spec)})`);
      }
      ready = this.ddl(statements);
      // A failure (server not up yet) is not remembered: the next use tries again.
      ready.catch(() => this.tables.get(name) === ready && this.tables.delete(name));
      this.tables.set(name, ready);
    }
    return ready;
  }

  async checkpointTable(): Promise<void> {
    await this.checkpoints.catch(() => this.ddl(CORE_TABLES));
  }
}

class PostgresCollection<T extends Doc> implements Collection<T> {
  private readonly table: string;
  /** Prepared statements' names: each connection parses and plans a collection's get once. */
  private readonly statement: string;
  private readonly db: Queryable;
  private readonly ready: () => Promise<void>;
  private readonly name: string;
  private readonly gets: BatchedGets | null;

  constructor(
    db: Queryable,
    ready: () => Promise<void>,
    name: string,
    /** Outside a transaction, gets of one turn go together (postgres-gets.ts). */
    gets: BatchedGets | null,
  ) {
    this.db = db;
    this.ready = ready;
    this.name = name;
    this.gets = gets;
    this.table = quote(tableName(name));
    this.statement = `comanda_${tableName(name)}`;
  }

  async get(id: string): Promise<T | null> {
    await this.ready();
    if (this.gets) return this.gets.get<T>(this.table, this.statement, id);
    return (await getOne<T>(this.db, this.table, this.statement, id)).rows[0]?.doc ?? null;
  }

  async upsert(doc: T): Promise<void> {
    await this.ready();
    await this.db.query({
      name: `${this.statement}_upsert`,
      text: `INSERT INTO ${this.table} (id, doc) VALUES ($1, $2::jsonb) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`,
      values: [doc._id, JSON.stringify(doc)],
    });
  }

  async delete(id: string): Promise<void> {
    await this.ready();
    await this.db.query({ name: `${this.statement}_delete`, text: `DELETE FROM ${this.table} WHERE id = $1`, values: [id] });
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    await this.ready();
    const q = findQuery(this.name, filter, options);
    return (await this.db.query<{ doc: T }>(q.text, q.values)).rows.map((r) => r.doc);
  }

  async count(filter: Filter = {}): Promise<number> {
    await this.ready();
    const q = countQuery(this.name, filter);
    return (await this.db.query<{ n: number }>(q.text, q.values)).rows[0]!.n;
  }
}

/** The SQL of `find` on a collection (exported for the tests that read its plan). */
export function findQuery(collection: string, filter: Filter = {}, options: FindOptions = {}): { text: string; values: unknown[] } {
  const p = new SqlParams();
  let text = `SELECT doc FROM ${quote(tableName(collection))} WHERE ${where(filter, p)} ${orderBy(options.sort)}`;
  if (options.limit !== undefined) text += ` LIMIT ${p.add(options.limit)}`;
  if (options.skip) text += ` OFFSET ${p.add(options.skip)}`;
  return { text, values: p.values };
}

/** The SQL of `count` on a collection. */
export function countQuery(collection: string, filter: Filter = {}): { text: string; values: unknown[] } {
  const p = new SqlParams();
  return { text: `SELECT count(*)::int AS n FROM ${quote(tableName(collection))} WHERE ${where(filter, p)}`, values: p.values };
}

/**
 * Read models in PostgreSQL: one table per collection (`rm_<name>`, the document as jsonb, indexes
 * on the fields the projections declare), checkpoints in `comanda_checkpoints`. `transaction` lets
 * the projector write a batch's documents and its checkpoint in one commit: exactly once.
 */
export class PostgresReadStore implements ReadStore {
  private readonly gets: BatchedGets;
  private readonly url: string;
  private readonly pool: pg.Pool;
  private readonly schema: Schema;
  private readonly db: Queryable;
  private readonly owner: boolean;
  private readonly onError?: (error: unknown) => void;

  private constructor(
    url: string,
    pool: pg.Pool,
    schema: Schema,
    db: Queryable,
    owner: boolean,
    onError?: (error: unknown) => void,
  ) {
    this.url = url;
    this.pool = pool;
    this.schema = schema;
    this.db = db;
    this.owner = owner;
    this.onError = onError;
    this.gets = new BatchedGets(db);
  }

  static open(url: string, onError?: (error: unknown) => void): PostgresReadStore {
    const pool = openPool(url, { onError });
    return new PostgresReadStore(url, pool, new Schema(pool), pool, true, onError);
  }

  collection<T extends Doc = Doc>(name: string, indexes: IndexSpec[] = []): Collection<T> {
    this.schema.declare(name, indexes);
    return new PostgresCollection<T>(this.db, () => this.schema.table(name), name, this.owner ? this.gets : null);
  }

  async getCheckpoint(name: string): Promise<bigint | null> {
    await this.schema.checkpointTable();
    const r = await this.db.query<{ position: string }>({ name: 'comanda_get_checkpoint', text: `SELECT position FROM ${CHECKPOINTS} WHERE name = $1`, values: [name] });
    return r.rows[0] ? BigInt(r.rows[0].position) : null;
  }

  setCheckpoint(name: string, position: bigint): Promise<void> {
    return this.setCheckpoints([[name, position]]);
  }

  async setCheckpoints(entries: ReadonlyArray<readonly [string, bigint]>): Promise<void> {
    await this.schema.checkpointTable();
    await this.db.query({ name: 'comanda_set_checkpoints', text: SET_CHECKPOINTS, values: [entries.map(([n]) => n), entries.map(([, p]) => p.toString())] });
  }

  watchCheckpoints(seen: (checkpoints: ReadonlyMap<string, bigint>) => void, listening: (on: boolean) => void): { close(): Promise<void> } {
    return listen(this.url, CHECKPOINT_CHANNEL, {
      onNotification: (payload) => seen(new Map(payload.split('\n').map((line) => {
        const [name, position] = line.split(' ');
        return [name!, BigInt(position!)];
      }))),
      onListening: listening,
      onError: (e) => this.onError?.(e),
    });
  }

  /**
   * Everything `work` does through the store it is given commits together, or not at all: its
   * writes in one statement at the end (postgres-batch.ts), or in a transaction once it queries.
   */
  async transaction<R>(work: (store: ReadStore) => Promise<R>): Promise<R> {
    return batchTransaction(
      {
        pool: this.pool,
        reader: this,
        through: (client) => new PostgresReadStore(this.url, this.pool, this.schema, client, false, this.onError),
        table: async (collection) => {
          await this.schema.table(collection);
          return quote(tableName(collection));
        },
        ensureCheckpoints: () => this.schema.checkpointTable(),
        checkpoints: CHECKPOINTS_SQL,
      },
      work,
    );
  }

  async drop(name: string): Promise<void> {
    const exists = await this.db.query(`SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1`, [tableName(name)]);
    if (exists.rowCount) await this.db.query(`TRUNCATE ${quote(tableName(name))}`);
  }

  async clear(): Promise<void> {
    await this.schema.checkpointTable();
    const tables = await this.db.query<{ t: string }>(
      `SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE '${PREFIX.replace('_', '\\_')}%'`,
    );
    const names = [...tables.rows.map((r) => quote(r.t)), CHECKPOINTS];
    await this.db.query(`TRUNCATE ${names.join(', ')}`);
  }

  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }

  async close(): Promise<void> {
    if (this.owner) await this.pool.end();
  }
}
