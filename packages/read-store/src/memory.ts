import { Query } from 'mingo';
import type { Collection, Doc, Filter, FindOptions, ReadStore } from './types.js';

class MemoryCollection<T extends Doc> implements Collection<T> {
  readonly docs = new Map<string, T>();

  async get(id: string): Promise<T | null> {
    return this.docs.get(id) ?? null;
  }

  async upsert(doc: T): Promise<void> {
    this.docs.set(doc._id, doc);
  }

  async delete(id: string): Promise<void> {
    this.docs.delete(id);
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    let cursor = new Query(filter as never, {}).find<T>([...this.docs.values()]);
    if (options.sort) cursor = cursor.sort(options.sort);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return cursor.all();
  }

  async count(filter: Filter = {}): Promise<number> {
    if (Object.keys(filter).length === 0) return this.docs.size;
    const query = new Query(filter as never, {});
    let n = 0;
    for (const doc of this.docs.values()) if (query.test(doc)) n++;
    return n;
  }
}

/** Read models held in memory: the standalone default, rebuilt from the event log at start. */
export class MemoryReadStore implements ReadStore {
  private readonly collections = new Map<string, MemoryCollection<Doc>>();
  private readonly checkpoints = new Map<string, bigint>();

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    let c = this.collections.get(name);
    if (!c) this.collections.set(name, (c = new MemoryCollection()));
    return c as unknown as Collection<T>;
  }

  async getCheckpoint(name: string): Promise<bigint | null> {
    return this.checkpoints.get(name) ?? null;
  }

  async setCheckpoint(name: string, position: bigint): Promise<void> {
    this.checkpoints.set(name, position);
  }

  async drop(name: string): Promise<void> {
    this.collections.get(name)?.docs.clear();
  }

  async clear(): Promise<void> {
    for (const c of this.collections.values()) c.docs.clear();
    this.checkpoints.clear();
  }

  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}
