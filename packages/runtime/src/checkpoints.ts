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
 * Writes coalesced: at most one per interval, the newest position; `flush` writes the one held back
 * (the runner flushes at stop). A crash in between only replays a few handled events, which their
 * consumers absorb (bus de-duplication by event id, idempotent reactions), and spares the store a
 * write per batch (on PostgreSQL, a round trip per batch per follower).
 */
export class CoalescedCheckpoint implements CheckpointStore {
  private pending: bigint | null = null;
  private timer?: NodeJS.Timeout;
  private readonly read: () => Promise<bigint | null>;
  private readonly write: (position: bigint) => Promise<void>;
  private readonly intervalMs: number;

  constructor(
    read: () => Promise<bigint | null>,
    write: (position: bigint) => Promise<void>,
    intervalMs = 200,
  ) {
    this.read = read;
    this.write = write;
    this.intervalMs = intervalMs;
  }

  async get(): Promise<bigint | null> {
    return this.pending ?? this.read();
  }

  async set(position: bigint): Promise<void> {
    this.pending = position;
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush().catch(() => undefined), this.intervalMs);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const position = this.pending;
    if (position === null) return;
    await this.write(position);
    // A set meanwhile holds a newer position: it stays to be written.
    if (this.pending === position) this.pending = null;
  }
}

/**
 * A checkpoint in a small file, for the standalone relay whose read store lives in memory: a restart
 * must not republish the whole history. Written by rename: a crash never leaves half a number.
 */
export class FileCheckpoint extends CoalescedCheckpoint {
  constructor(file: string, intervalMs = 200) {
    super(
      async () => (existsSync(file) ? BigInt(readFileSync(file, 'utf8').trim()) : null),
      async (position) => {
        mkdirSync(dirname(file), { recursive: true });
        const tmp = `${file}.tmp`;
        writeFileSync(tmp, position.toString());
        renameSync(tmp, file);
      },
      intervalMs,
    );
  }
}

/**
 * A checkpoint kept beside the read models (PostgreSQL or MongoDB in the distributed shape), each
 * write at once (the projector's, in its batch's transaction). Followers whose consumers absorb a
 * replay (relays, reactions) take `coalescedReadStoreCheckpoint`.
 */
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

/** A read store's checkpoint written at most every `intervalMs` (see CoalescedCheckpoint). */
export const coalescedReadStoreCheckpoint = (readStore: Pick<ReadStore, 'getCheckpoint' | 'setCheckpoint'>, name: string, intervalMs?: number): CheckpointStore =>
  new CoalescedCheckpoint(() => readStore.getCheckpoint(name), (p) => readStore.setCheckpoint(name, p), intervalMs);

/**
 * The checkpoints through which the reactor (projector process) tells API replicas how far a write's
 * direct reactions are done (`through`) and a log position covering what they appended (`appended`).
 */
export const REACTIONS_THROUGH = 'reactions:through';
export const REACTIONS_APPENDED = 'reactions:appended';
