import type { Position } from '@comanda/event-store';

/** What an API response waits on for read-your-writes (the projector implements it in-process). */
export interface ConsistencyGate {
  waitFor(position: Position, timeoutMs: number): Promise<boolean>;
}

/**
 * For an API process whose projector runs elsewhere: polls the projector's checkpoint in the shared
 * read store. One poll serves every waiting request.
 */
export class PollingCheckpointGate implements ConsistencyGate {
  private latest: bigint | null = null;
  private waiters = new Set<{ position: Position; resolve(ok: boolean): void; deadline: number }>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly readCheckpoint: () => Promise<bigint | null>,
    private readonly intervalMs = 5,
  ) {}

  /** Whether the checkpoint has ever been written (read once, then remembered). */
  async reported(): Promise<boolean> {
    if (this.latest === null) this.latest = await this.readCheckpoint().catch(() => null);
    return this.latest !== null;
  }

  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    if (this.latest !== null && this.latest >= position) return Promise.resolve(true);
    return new Promise((resolve) => {
      this.waiters.add({ position, resolve, deadline: Date.now() + timeoutMs });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.timer || this.waiters.size === 0) return;
    this.timer = setTimeout(() => void this.poll(), this.intervalMs);
  }

  private async poll(): Promise<void> {
    try {
      this.latest = await this.readCheckpoint();
    } catch {
      // The read store is briefly unreachable: waiters fall back to their deadline.
    }
    this.timer = undefined;
    const now = Date.now();
    for (const w of this.waiters) {
      if (this.latest !== null && this.latest >= w.position) w.resolve(true);
      else if (now >= w.deadline) w.resolve(false);
      else continue;
      this.waiters.delete(w);
    }
    this.schedule();
  }
}
