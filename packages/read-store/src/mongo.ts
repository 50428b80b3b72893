import { MongoClient, type Db } from 'mongodb';
import type { Collection, Doc, Filter, FindOptions, IndexSpec, ReadStore } from './types.js';

const CHECKPOINTS = '_checkpoints';
/** The login attempt counters' collection (@comanda/attempts) in the same database: not the read models'. */
const ATTEMPTS = '_attempts';

/** Read models in MongoDB through the official driver; every projector and API replica shares them. */
export class MongoReadStore implements ReadStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly names = new Set<string>();
  private readonly indexing: Promise<unknown>[] = [];

  constructor(url: string, dbName?: string) {
    this.client = new MongoClient(url);
    this.db = this.client.db(dbName);
  }

  collection<T extends Doc = Doc>(name: string, indexes: IndexSpec[] = []): Collection<T> {
    const c = this.db.collection<Doc>(name);
    if (!this.names.has(name)) {
      this.names.add(name);
      for (const spec of indexes) this.indexing.push(c.createIndex(spec).catch(() => undefined));
    }
    return {
      get: async (id) => (await c.findOne({ _id: id })) as T | null,
      upsert: async (doc) => {
        await c.replaceOne({ _id: doc._id }, doc, { upsert: true });
      },
      delete: async (id) => {
        await c.deleteOne({ _id: id });
      },
      find: async (filter: Filter = {}, options: FindOptions = {}) => {
        let cursor = c.find(filter);
        if (options.sort) cursor = cursor.sort(options.sort);
        if (options.skip) cursor = cursor.skip(options.skip);
        if (options.limit !== undefined) cursor = cursor.limit(options.limit);
        return (await cursor.toArray()) as T[];
      },
      count: (filter: Filter = {}) => c.countDocuments(filter),
    };
  }

  /** Waits for the indexes the collections asked for (called once at start). */
  async ready(): Promise<void> {
    await this.client.connect();
    await Promise.all(this.indexing);
  }

  async getCheckpoint(name: string): Promise<bigint | null> {
    const doc = await this.db.collection<{ _id: string; position: string }>(CHECKPOINTS).findOne({ _id: name });
    return doc ? BigInt(doc.position) : null;
  }

  async setCheckpoint(name: string, position: bigint): Promise<void> {
    await this.db
      .collection<{ _id: string; position: string }>(CHECKPOINTS)
      .replaceOne({ _id: name }, { position: position.toString() }, { upsert: true });
  }

  async drop(name: string): Promise<void> {
    await this.db.collection(name).deleteMany({});
  }

  /** Every read model and checkpoint; the attempt counters sharing the database are not the log's to rebuild. */
  async clear(): Promise<void> {
    for (const c of await this.db.collections()) if (c.collectionName !== ATTEMPTS) await c.deleteMany({});
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
