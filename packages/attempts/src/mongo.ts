import { MongoClient, type Db } from 'mongodb';
import { type Counter, admit, refund } from './rule.js';
import type { Admission, AttemptCounter, AttemptRule } from './types.js';

/** The collection the read store kept them in before issue 58: counters written then still count. */
const ATTEMPTS = '_attempts';

type StoredCounter = Counter & { _id: string };

/** Counters shared by every replica, in the MongoDB database of the read models. */
export class MongoAttemptCounter implements AttemptCounter {
  private readonly client: MongoClient;
  private readonly db: Db;

  constructor(url: string, dbName?: string) {
    this.client = new MongoClient(url);
    this.db = this.client.db(dbName);
  }

  async ready(): Promise<void> {
    await this.client.connect();
  }

  /**
   * Compare-and-set on the key's counter: an update that finds the counter changed (or an insert that
   * finds it created) since it was read decides again. Each step that lands is atomic.
   */
  async admit(key: string, rule: AttemptRule, now: number): Promise<Admission> {
    return this.compareAndSet(key, (counter) => admit(counter, rule, now));
  }

  async settle(key: string, rule: AttemptRule, how: 'forget' | 'refund'): Promise<void> {
    if (how === 'forget') await this.db.collection<StoredCounter>(ATTEMPTS).deleteOne({ _id: key });
    else await this.compareAndSet(key, (counter) => ({ admission: undefined, next: refund(counter, rule) }));
  }

  private async compareAndSet<R>(key: string, step: (counter: Counter | null) => { admission: R; next: Counter | null }): Promise<R> {
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

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
