import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Collection, Doc, Filter, FindOptions, IndexSpec, ReadStore } from './types.js';

/** What the batch needs of the PostgreSQL read store it writes to. */
export interface BatchHost {
  pool: pg.Pool;
  /** The store reading through the pool (outside any transaction). */
  reader: ReadStore;
  /** A view of the store through one client (inside its transaction). */
  through(client: pg.PoolClient): ReadStore;
  /** Resolves once the collection's table (and indexes) exist; its quoted name. */
  table(collection: string): Promise<string>;
  ensureCheckpoints(): Promise<void>;
  /** The checkpoints' upsert (a data-modifying CTE returning name, position) and its announcement. */
  checkpoints: { upsert(names: string, positions: string): string; announce(cte: string): string };
}

/**
 * `transaction(work)` for the projector's batches, in one round trip instead of one per document.
 * The batch's writes wait in memory (the last one per document) and its reads see them; at the end,
 * every upsert, delete and checkpoint goes to the server as ONE statement (data-modifying CTEs),
 * which commits them all or none with no BEGIN and COMMIT. Reads outside a transaction are safe
 * because the read models have one writer, the leading projector. A query that must see the
 * pending writes (`find`, `count`) turns the batch into a real transaction first: BEGIN, the writes
 * so far, then everything on that connection until COMMIT.
 */
export async function batchTransaction<R>(host: BatchHost, work: (store: ReadStore) => Promise<R>): Promise<R> {
  const batch = new Batch(host);
  try {
    const result = await work(batch.store);
    await batch.commit();
    return result;
  } catch (error) {
    await batch.abandon();
    throw error;
  }
}

class Batch {
  /** collection → id → the document to write, or null to delete it. */
  private readonly docs = new Map<string, Map<string, Doc | null>>();
  private readonly checkpoints = new Map<string, bigint>();
  private tx?: { client: pg.PoolClient; view: ReadStore };
  readonly store: ReadStore;
  private readonly host: BatchHost;

  constructor(host: BatchHost) {
    this.host = host;
    const batch = this;
    const reading = () => this.tx?.view ?? host.reader;
    this.store = {
      collection<T extends Doc>(name: string, indexes: IndexSpec[] = []): Collection<T> {
        host.reader.collection(name, indexes);
        const pending = () => {
          let docs = batch.docs.get(name);
          if (!docs) batch.docs.set(name, (docs = new Map()));
          return docs;
        };
        return {
          async get(id) {
            const waiting = batch.docs.get(name)?.get(id);
            return waiting !== undefined ? (waiting as T | null) : reading().collection<T>(name).get(id);
          },
          async upsert(doc) {
            pending().set(doc._id, doc);
          },
          async delete(id) {
            pending().set(id, null);
          },
          async find(filter?: Filter, options?: FindOptions) {
            return (await batch.begun()).collection<T>(name).find(filter, options);
          },
          async count(filter?: Filter) {
            return (await batch.begun()).collection<T>(name).count(filter);
          },
        };
      },
      getCheckpoint: async (name) => this.checkpoints.get(name) ?? reading().getCheckpoint(name),
      setCheckpoint: async (name, position) => void this.checkpoints.set(name, position),
      drop: async (name) => (await this.begun()).drop(name),
      clear: async () => (await this.begun()).clear(),
      ping: () => host.reader.ping(),
      close: async () => {},
    };
  }

  /** The batch as a real transaction from here on, with the writes so far in it. */
  private async begun(): Promise<ReadStore> {
    if (!this.tx) {
      const client = await this.host.pool.connect();
      this.tx = { client, view: this.host.through(client) };
      try {
        await client.query('BEGIN');
      } catch (error) {
        await this.abandon();
        throw error;
      }
    }
    await this.write(this.tx.client);
    return this.tx.view;
  }

  async commit(): Promise<void> {
    if (!this.tx) return this.write(this.host.pool);
    await this.write(this.tx.client);
    await this.tx.client.query('COMMIT');
    this.tx.client.release();
    this.tx = undefined;
  }

  async abandon(): Promise<void> {
    const tx = this.tx;
    this.tx = undefined;
    if (!tx) return;
    let broken: Error | undefined;
    await tx.client.query('ROLLBACK').catch((e: Error) => (broken = e));
    tx.client.release(broken);
  }

  /** Every pending write as one statement; the pending writes are then gone from memory. */
  private async write(db: Pick<pg.Pool, 'query'>): Promise<void> {
    const ctes: string[] = [];
    const values: unknown[] = [];
    const param = (value: unknown) => `$${values.push(value)}`;
    for (const [collection, docs] of this.docs) {
      if (docs.size === 0) continue;
      const table = await this.host.table(collection);
      const upserts = [...docs].filter((entry): entry is [string, Doc] => entry[1] !== null);
      const deletes = [...docs].filter(([, doc]) => doc === null).map(([id]) => id);
      if (upserts.length) {
        ctes.push(`INSERT INTO ${table} (id, doc) SELECT * FROM unnest(${param(upserts.map(([id]) => id))}::text[], ${param(upserts.map(([, doc]) => JSON.stringify(doc)))}::jsonb[])
          ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`);
      }
      if (deletes.length) ctes.push(`DELETE FROM ${table} WHERE id = ANY(${param(deletes)}::text[])`);
    }
    let last = 'SELECT 1';
    if (this.checkpoints.size) {
      await this.host.ensureCheckpoints();
      ctes.push(this.host.checkpoints.upsert(param([...this.checkpoints.keys()]), param([...this.checkpoints.values()].map(String))));
      last = this.host.checkpoints.announce(`w${ctes.length - 1}`);
    }
    if (ctes.length === 0) return;
    const text = `WITH ${ctes.map((c, i) => `w${i} AS (${c})`).join(',\n')}\n${last}`;
    // Named by its text: a batch of the same shape is parsed and planned once per connection.
    await db.query({ name: `comanda_batch_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text, values });
    this.docs.clear();
    this.checkpoints.clear();
  }
}
