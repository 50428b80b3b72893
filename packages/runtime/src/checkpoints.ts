import type { ReadStore } from '@comanda/read-store';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Where a subscription remembers the last event it handled. The runner sets it only to positions
 * whose every event is handled (see subscription-runner.ts), so whatever the store keeps is safe.
 */
export interface CheckpointStore {
  get(): Promise<bigint | null>;
  set(position: bigint): Promise<void>;
  /** Writes a position still held back (coalesced writes); a no-op for stores that write at once. */
  flush(): Promise<void>;
  /**
   * Optional: runs `work` with a read store and a checkpoint whose writes commit together (PostgreSQL):
   * a projector's batch and its checkpoint are one transaction.
   */
  transaction?(work: (readStore: ReadStore, checkpoint: CheckpointStore) => Promise<void>): Promise<void>;
}

/**
 * A checkpoint in a small file, for the standalone relay whose read store lives in memory: a restart
 * must not republish the whole history. Writes are coalesced (at most one per interval); a crash
 * in between only replays a few handled events, which consumers absorb (bus de-duplication,
 * idempotent reactions). Written by rename: a crash never leaves half a number.
 */
export class FileCheckpoint implements CheckpointStore {
  private pending: bigint | null = null;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly file: string,
    private readonly intervalMs = 200,
  ) {}

  async get(): Promise<bigint | null> {
    if (this.pending !== null) return this.pending;
    return existsSync(this.file) ? BigInt(readFileSync(this.file, 'utf8').trim()) : null;
  }

  async set(position: bigint): Promise<void> {
    this.pending = position;
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === null) return;
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, this.pending.toString());
    renameSync(tmp, this.file);
    this.pending = null;
  }
}

/** A checkpoint kept beside the read models (PostgreSQL or MongoDB in the distributed shape). */
export const readStoreCheckpoint = (
  readStore: Pick<ReadStore, 'getCheckpoint' | 'setCheckpoint' | 'transaction'>,
  name: string,
): CheckpointStore => ({
  get: () => readStore.getCheckpoint(name),
  set: (p) => readStore.setCheckpoint(name, p),
  flush: async () => {},
  ...(readStore.transaction
    ? { transaction: (work) => readStore.transaction!((tx) => work(tx, readStoreCheckpoint(tx, name))) }
    : {}),
});

/**
 * The checkpoints through which the reactor (projector process) tells API replicas how far a write's
 * direct reactions are done (`through`) and a log position covering what they appended (`appended`).
 */
export const REACTIONS_THROUGH = 'reactions:through';
export const REACTIONS_APPENDED = 'reactions:appended';
