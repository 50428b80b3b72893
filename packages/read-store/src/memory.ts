import { Query } from 'mingo';
import { type Entry, type Plan, SortedIndex, sortOrder } from './memory-index.js';
import type { Collection, Doc, Filter, FindOptions, IndexSpec, ReadStore } from './types.js';

/** Answers kept per collection until its next write; beyond this many, the oldest make room. */
const CACHED_ANSWERS = 64;

function plainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(plainJson);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(plainJson);
}

class MemoryCollection<T extends Doc> implements Collection<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly indexes = new Map<string, SortedIndex<T>>();
  private seq = 0;
  /** Moves on with every write (ReadStore.generation). */
  generation = 0;
  /**
   * Answers of `find` by query, dropped on every write to the collection: reads outnumber writes
   * (a tablet refreshes its list far more often than an order changes), and documents are immutable
   * snapshots, so a cached answer is exactly what a new search would return.
   */
  private readonly answers = new Map<string, T[]>();

  get size(): number {
    return this.entries.size;
  }

  addIndexes(specs: IndexSpec[]): void {
    for (const spec of specs) {
      const key = JSON.stringify(Object.entries(spec));
      if (this.indexes.has(key)) continue;
      const index = new SortedIndex<T>(spec);
      for (const entry of this.entries.values()) index.add(entry);
      this.indexes.set(key, index);
    }
  }

  async get(id: string): Promise<T | null> {
    return this.entries.get(id)?.doc ?? null;
  }

  async upsert(doc: T): Promise<void> {
    const old = this.entries.get(doc._id);
    const entry = { doc, seq: old ? old.seq : this.seq++ };
    for (const index of this.indexes.values()) {
      if (old) index.replace(old, entry);
      else index.add(entry);
    }
    this.entries.set(doc._id, entry);
    this.answers.clear();
    this.generation++;
  }

  async delete(id: string): Promise<void> {
    const old = this.entries.get(id);
    if (!old) return;
    for (const index of this.indexes.values()) index.remove(old);
    this.entries.delete(id);
    this.answers.clear();
    this.generation++;
  }

  clear(): void {
    this.entries.clear();
    for (const index of this.indexes.values()) index.clear();
    this.answers.clear();
    this.generation++;
  }

  /** The index that narrows the search most (equalities first, then a range, then the sort order). */
  private plan(filter: Filter, options: FindOptions): Plan<T> | undefined {
    if (options.sort && Object.keys(options.sort).some((k) => k.includes('.'))) return undefined;
    let best: Plan<T> | undefined;
    for (const index of this.indexes.values()) {
      const plan = index.plan(filter, options.sort);
      if (plan && (!best || plan.score > best.score)) best = plan;
    }
    return best;
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    // Only filters that JSON writes down faithfully are cached (a RegExp or a Date would collide).
    if (!plainJson(filter)) return this.search(filter, options);
    const key = JSON.stringify([filter, options.sort ?? null, options.skip ?? 0, options.limit ?? null]);
    const cached = this.answers.get(key);
    if (cached) return cached.slice();
    const answer = this.search(filter, options);
    if (this.answers.size >= CACHED_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(key, answer);
    return answer.slice();
  }

  private search(filter: Filter, options: FindOptions): T[] {
    const plan = this.plan(filter, options);
    const skip = options.skip ?? 0;
    const limit = options.limit ?? Infinity;
    if (!plan) {
      let cursor = new Query(filter as never, {}).find<T>([...this.entries.values()].map((e) => e.doc));
      if (options.sort) cursor = cursor.sort(options.sort);
      if (skip) cursor = cursor.skip(skip);
      if (options.limit !== undefined) cursor = cursor.limit(options.limit);
      return cursor.all();
    }
    // The index gives the candidates; the whole filter still decides, exactly as mingo reads it.
    const query = new Query(filter as never, {});
    if (plan.sorted) {
      const out: T[] = [];
      let skipped = 0;
      if (limit <= 0) return out;
      for (const entry of plan.index.block(plan.constraints)) {
        if (!query.test(entry.doc)) continue;
        if (skipped < skip) skipped++;
        else if (out.push(entry.doc) >= limit) break;
      }
      return out;
    }
    const matching: Array<Entry<T>> = [];
    for (const entry of plan.index.block(plan.constraints)) if (query.test(entry.doc)) matching.push(entry);
    matching.sort(sortOrder(options.sort));
    return matching.slice(skip, skip + limit).map((e) => e.doc);
  }

  async count(filter: Filter = {}): Promise<number> {
    if (Object.keys(filter).length === 0) return this.entries.size;
    const query = new Query(filter as never, {});
    const plan = this.plan(filter, {});
    let n = 0;
    if (plan) {
      for (const entry of plan.index.block(plan.constraints)) if (query.test(entry.doc)) n++;
      return n;
    }
    for (const entry of this.entries.values()) if (query.test(entry.doc)) n++;
    return n;
  }
}

/**
 * Read models held in memory: the standalone default, rebuilt from the event log at start. Each
 * `IndexSpec` a projection declares becomes a sorted index, so a query by status, table, waiter or
 * date reads the documents it answers with (and a page of a sorted list reads only that page),
 * not the whole collection; the filter itself is still mingo's (MongoDB's query language).
 */
export class MemoryReadStore implements ReadStore {
  private readonly collections = new Map<string, MemoryCollection<Doc>>();
  private readonly checkpoints = new Map<string, bigint>();

  collection<T extends Doc = Doc>(name: string, indexes: IndexSpec[] = []): Collection<T> {
    let c = this.collections.get(name);
    if (!c) this.collections.set(name, (c = new MemoryCollection()));
    if (indexes.length) c.addIndexes(indexes);
    // One map holds every collection as documents of any shape: the caller names its own.
    return c as Collection<T>;
  }

  generation(name: string): number {
    return this.collections.get(name)?.generation ?? 0;
  }

  async getCheckpoint(name: string): Promise<bigint | null> {
    return this.checkpoints.get(name) ?? null;
  }

  async setCheckpoint(name: string, position: bigint): Promise<void> {
    this.checkpoints.set(name, position);
  }

  async drop(name: string): Promise<void> {
    this.collections.get(name)?.clear();
  }

  async clear(): Promise<void> {
    for (const c of this.collections.values()) c.clear();
    this.checkpoints.clear();
  }

  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}
