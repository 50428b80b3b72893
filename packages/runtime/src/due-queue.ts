/** A job the queue runs once it is due. */
interface Due {
  at: number;
  run(): Promise<void> | void;
}

/**
 * A due-time queue: jobs run when their time comes, each on its own, so one job waiting (a
 * reaction's grace period) never holds back another. One timer, set for the earliest job. It keeps
 * nothing on disk: its owner keeps the checkpoint before every job still queued, so a restart
 * derives the same jobs again from the log.
 */
export class DueQueue {
  private jobs: Due[] = [];
  private timer?: NodeJS.Timeout;
  private readonly running = new Set<Promise<void>>();
  private stopped = false;
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** Runs `run` at `at` (ms since the epoch, this queue's clock), or at once when that has passed. */
  schedule(at: number, run: () => Promise<void> | void): void {
    if (this.stopped) return;
    const index = this.jobs.findIndex((job) => job.at > at);
    this.jobs.splice(index === -1 ? this.jobs.length : index, 0, { at, run });
    this.arm();
  }

  get size(): number {
    return this.jobs.length + this.running.size;
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.jobs[0];
    if (!next || this.stopped) return;
    this.timer = setTimeout(() => this.runDue(), Math.max(0, next.at - this.now()));
  }

  private runDue(): void {
    const now = this.now();
    while (this.jobs.length > 0 && this.jobs[0]!.at <= now) {
      const job = this.jobs.shift()!;
      const running: Promise<void> = (async () => job.run())().catch(() => undefined).finally(() => this.running.delete(running));
      this.running.add(running);
    }
    this.arm();
  }

  /** Drops the jobs not started and waits for those running (their owner stops them via its own signal). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.jobs = [];
    await Promise.all([...this.running]);
  }
}
