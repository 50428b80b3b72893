/** A read-model document; `_id` is its key in its collection. */
export type Doc = { _id: string } & Record<string, unknown>;

/** A filter in MongoDB's query language, so the memory adapter and MongoDB mean the same thing. */
export type Filter = Record<string, unknown>;

export interface FindOptions {
  sort?: Record<string, 1 | -1>;
  skip?: number;
  limit?: number;
}

/** Fields a collection is queried by; MongoDB creates these indexes at start. */
export type IndexSpec = Record<string, 1 | -1>;

export interface Collection<T extends Doc = Doc> {
  /** Documents returned are snapshots: treat them as immutable and upsert a new object to change one. */
  get(id: string): Promise<T | null>;
  upsert(doc: T): Promise<void>;
  delete(id: string): Promise<void>;
  find(filter?: Filter, options?: FindOptions): Promise<T[]>;
  count(filter?: Filter): Promise<number>;
}

export interface ReadStore {
  collection<T extends Doc = Doc>(name: string, indexes?: IndexSpec[]): Collection<T>;
  /** Checkpoints are kept as decimal strings: positions are bigints and may exceed 2^53. */
  getCheckpoint(name: string): Promise<bigint | null>;
  setCheckpoint(name: string, position: bigint): Promise<void>;
  /** Optional: several checkpoints in one write, committed (and announced) together. */
  setCheckpoints?(entries: ReadonlyArray<readonly [name: string, position: bigint]>): Promise<void>;
  /**
   * Optional, for a shared store that announces checkpoints as they commit (PostgreSQL's NOTIFY):
   * `seen` gets every checkpoint any process writes, in commit order, the ones written together in
   * one call; `listening(true)` once that starts (and after every reconnection: what was written
   * meanwhile must be read once), `listening(false)` while it is interrupted.
   */
  watchCheckpoints?(seen: (checkpoints: ReadonlyMap<string, bigint>) => void, listening: (on: boolean) => void): { close(): Promise<void> };
  /**
   * Optional: runs `work` against a view of the store whose writes (documents and checkpoints)
   * commit together or not at all. Adapters that cannot (memory, MongoDB without a replica set)
   * leave it out, and the projector falls back to at-least-once with per-document guards.
   */
  transaction?<R>(work: (store: ReadStore) => Promise<R>): Promise<R>;
  /**
   * Optional, for stores written only by this process (memory, SQLite): a number that changes whenever
   * a write to `collection` becomes visible to readers. An answer computed while it read g is current
   * as long as it still reads g (the API's ETags). Shared stores (PostgreSQL, MongoDB), which
   * other processes write, leave it out.
   */
  generation?(collection: string): number;
  /** Removes every document of one collection (a projection rebuilt from the start of the log). */
  drop(name: string): Promise<void>;
  /** Removes every document and checkpoint: a replay starts from nothing. */
  clear(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Fixed-width text for a position, so string order is numeric order in every store. */
export const positionKey = (position: bigint): string => position.toString().padStart(40, '0');
