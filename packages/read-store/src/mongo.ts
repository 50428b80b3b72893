import { MongoClient, type Db } from 'mongodb';
import { type Admission, type AttemptCounter, type AttemptRule, admit, refund } from './attempts.js';
import type { Collection, Doc, Filter, FindOptions, IndexSpec, ReadStore } from './types.js';

const CHECKPOINTS = '_checkpoints';
const ATTEMPTS = '_attempts';

type StoredCounter = AttemptCounter & { _id: string };

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

  /**
   * Compare-and-set on the key's counter: an update that finds the counter changed (or an insert that
   * finds it created) since it was read decides again. Each step that lands is atomic.
   */
  async admitAttempt(key: string, rule: AttemptRule, now: number): Promise<Admission> {
    return this.compareAndSet(key, (counter) => admit(counter, rule, now));
  }

  async settleAttempt(key: string, rule: AttemptRule, how: 'forget' | 'refund'): Promise<void> {
    if (how === 'forget') await this.db.collection<StoredCounter>(ATTEMPTS).deleteOne({ _id: key });
    else await this.compareAndSet(key, (counter) => ({ admission: undefined, next: refund(counter, rule) }));
  }

  private async compareAndSet<R>(key: string, step: (counter: AttemptCounter | null) => { admission: R; next: AttemptCounter | null }): Promise<R> {
    const c = this.db.collection<StoredCounter>(ATTEMPTS);
    for (;;) {
      const stored = await c.findOne({ _id: key });
      const counter = stored ? { count: stored.count, windowStart: stored.windowStart, lockedUntil: stored.lockedUntil } : null;
      const { admission, next } = step(counter);
      if (!next || (counter && next.count === counter.count && next.windowStart === counter.windowStart && next.lockedUntil === counter.lockedUntil)) return admission;
      if (!counter) {
        try {
          await c.insertOne({ _id: key, ...next });
          return admission;
        } catch (error) {
          if ((error as { code?: number }).code === 11000) continue;
          throw error;
        }
      }
      const r = await c.updateOne({ _id: key, ...counter }, { $set: next });
      if (r.modifiedCount === 1) return admission;
    }
  }

  async drop(name: string): Promise<void> {
    await this.db.collection(name).deleteMany({});
  }

  async clear(): Promise<void> {
    for (const c of await this.db.collections()) await c.deleteMany({});
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
