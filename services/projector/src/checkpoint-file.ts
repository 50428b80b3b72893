import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface CheckpointStore {
  get(): Promise<bigint | null>;
  set(position: bigint): Promise<void>;
  flush(): Promise<void>;
}

/**
 * A checkpoint in a small file, for the standalone relay whose read store lives in memory: a restart
 * must not republish the whole history. Writes are coalesced (at most one per interval); a crash
 * in between only republishes a few events, which the bus's de-duplication window absorbs.
 */
export class FileCheckpoint implements CheckpointStore {
  private pending: bigint | null = null;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly file: string,
    private readonly intervalMs = 200,
  ) {}

  async get(): Promise<bigint | null> {
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

/** A checkpoint kept beside the read models (MongoDB in the distributed shape). */
export const readStoreCheckpoint = (
  readStore: { getCheckpoint(n: string): Promise<bigint | null>; setCheckpoint(n: string, p: bigint): Promise<void> },
  name: string,
): CheckpointStore => ({
  get: () => readStore.getCheckpoint(name),
  set: (p) => readStore.setCheckpoint(name, p),
  flush: async () => {},
});
