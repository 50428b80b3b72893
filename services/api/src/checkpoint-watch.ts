import type { Position } from '@comanda/event-store';
import type { ReadStore } from '@comanda/read-store';
import type { ConsistencyGate } from './deps.js';

export type { ConsistencyGate } from './deps.js';

/** How often waiters read the checkpoints themselves: no announcements (MongoDB), and with them (a safety net). */
export const POLL_MS = { unannounced: 5, announced: 250 };

/** The intervals for COMANDA_CHECKPOINT_POLL_MS: the safety net never reads more often than POLL_MS.announced. */
export const pollEvery = (unannouncedMs: number): typeof POLL_MS => ({ unannounced: unannouncedMs, announced: Math.max(POLL_MS.announced, unannouncedMs) });

interface Waiter {
  name: string;
  position: Position;
  deadline: number;
  resolve(ok: boolean): void;
}

/**
 * The checkpoints of the projector and the reactor as an API replica whose projector runs elsewhere
 * sees them, for read-your-writes. Where the read store announces checkpoint writes (PostgreSQL),
 * they arrive as they commit and nothing is read per request; waiters also read them every 250 ms in
 * case an announcement was lost. Otherwise (or while the announcements are interrupted) waiters read
 * them every 5 ms: one read of every watched name serves every waiting request.
 *
 * Positions known here are never ahead of the store: a value is taken from the store or from its
 * commit's announcement. Names are read in the order given, so a name written before another (in time,
 * or in the same write) is never seen older than it: the reactor writes `appended` with `through`.
 */
export class CheckpointWatch {
  private readonly latest = new Map<string, Position>();
  private readonly waiters = new Set<Waiter>();
  private announced = false;
  private listening = false;
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;
  private stop?: { close(): Promise<void> };
  private readonly first: Promise<void>;
  private readonly readStore: Pick<ReadStore, 'getCheckpoint' | 'watchCheckpoints'>;
  private readonly names: readonly string[];
  private readonly pollMs: typeof POLL_MS;

  constructor(
    readStore: Pick<ReadStore, 'getCheckpoint' | 'watchCheckpoints'>,
    names: readonly string[],
    pollMs = POLL_MS,
  ) {
    this.readStore = readStore;
    this.names = names;
    this.pollMs = pollMs;
    this.stop = readStore.watchCheckpoints?.(
      (checkpoints) => this.seen(checkpoints),
      (on) => {
        this.listening = on;
        this.announced = false;
        // Whatever was written while nobody listened is read once before announcements count, and
        // releases whoever waited for it (no poll may come before their bound).
        if (on) void this.read().then(() => this.settle(false));
      },
    );
    this.first = this.read();
  }

  /** True while checkpoints arrive as announcements (PostgreSQL listening, and read once since). */
  get announcing(): boolean {
    return this.announced;
  }

  /** A checkpoint's position as last read or announced (null: never written). */
  async position(name: string): Promise<Position | null> {
    await this.first;
    if (!this.announced) {
      const read = await this.readStore.getCheckpoint(name);
      if (read !== null) this.raise(name, read);
    }
    return this.latest.get(name) ?? null;
  }

  /** A gate on one checkpoint: resolves once it reaches a position (false at the deadline). */
  gate(name: string): ConsistencyGate {
    return { waitFor: (position, timeoutMs) => this.waitFor(name, position, timeoutMs) };
  }

  async waitFor(name: string, position: Position, timeoutMs: number): Promise<boolean> {
    await this.first;
    if ((this.latest.get(name) ?? -1n) >= position) return true;
    return new Promise((resolve) => {
      this.waiters.add({ name, position, resolve, deadline: Date.now() + timeoutMs });
      this.schedule();
    });
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    for (const w of this.waiters) w.resolve(false);
    this.waiters.clear();
    await this.stop?.close();
  }

  private seen(checkpoints: ReadonlyMap<string, Position>): void {
    for (const [name, position] of checkpoints) if (this.names.includes(name)) this.raise(name, position);
    this.settle(false);
  }

  private raise(name: string, position: Position): void {
    if ((this.latest.get(name) ?? -1n) < position) this.latest.set(name, position);
  }

  /**
   * Every watched name, in order. Announcements count once a read of all of them has succeeded since
   * LISTEN began (a read that failed is made again at the next poll, waiters polling meanwhile). A
   * read begun before then that is still going stops there: what it has yet to read, announcements
   * bring, so no read follows the moment announcements count.
   */
  private async read(): Promise<void> {
    const listening = this.listening;
    try {
      for (const name of this.names) {
        if (!listening && this.announced) return;
        const position = await this.readStore.getCheckpoint(name);
        if (position !== null) this.raise(name, position);
      }
    } catch {
      // The read store briefly unreachable: waiters fall back to their deadline.
      return;
    }
    if (listening && this.listening) this.announced = true;
  }

  /**
   * The next poll, at the interval or at the earliest waiter's deadline if sooner: a waiter's answer
   * never waits past its bound for a poll (with announcements flowing, only an unreleased waiter's
   * deadline fires a timer). None while a poll is reading (`timerAt` -Infinity): it schedules after.
   */
  private schedule(): void {
    if (this.waiters.size === 0) return;
    let at = Date.now() + (this.announced ? this.pollMs.announced : this.pollMs.unannounced);
    for (const w of this.waiters) if (w.deadline < at) at = w.deadline;
    if (this.timer && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => void this.poll(), Math.max(0, at - Date.now()));
  }

  private async poll(): Promise<void> {
    this.timerAt = -Infinity;
    await this.read();
    this.timer = undefined;
    this.timerAt = Infinity;
    this.settle(true);
    this.schedule();
  }

  /** Resolves the waiters whose checkpoint has come; at a poll also those past their deadline. */
  private settle(expire: boolean): void {
    const now = Date.now();
    for (const w of this.waiters) {
      if ((this.latest.get(w.name) ?? -1n) >= w.position) w.resolve(true);
      else if (expire && now >= w.deadline) w.resolve(false);
      else continue;
      this.waiters.delete(w);
    }
  }
}
