import type { Position } from '@comanda/event-store';

interface Waiter {
  name: string;
  position: Position;
  resolve(reached: boolean): void;
  timer: NodeJS.Timeout;
}

/**
 * How far the followers running in this process have come, by name, in memory: the projector
 * (`projector`) and the reactor (`reactions:appended`, `reactions:through`) report here, and the
 * API's read-your-writes waits here when they run beside it (the standalone). The same names and
 * the same meaning as the checkpoints a separate API replica reads from the shared read store, so
 * one gate serves both shapes. A name never reported reads null; positions only move forward.
 */
export class LocalProgress {
  private readonly latest = new Map<string, Position>();
  private waiters: Waiter[] = [];
  private closed = false;

  /** `name` has come to `position`: releases whoever waited for it. */
  report(name: string, position: Position): void {
    const known = this.latest.get(name);
    if (known !== undefined && known >= position) return;
    this.latest.set(name, position);
    this.waiters = this.waiters.filter((w) => {
      if (w.name !== name || w.position > position) return true;
      clearTimeout(w.timer);
      w.resolve(true);
      return false;
    });
  }

  /** The last position reported under `name` (null: never). */
  async position(name: string): Promise<Position | null> {
    return this.latest.get(name) ?? null;
  }

  /** True once `name` has reported `position` or beyond; false after `timeoutMs`, or at close. */
  waitFor(name: string, position: Position, timeoutMs: number): Promise<boolean> {
    if ((this.latest.get(name) ?? -1n) >= position) return Promise.resolve(true);
    if (this.closed || timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        name, position, resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** Whoever still waits is answered false (the process stops). */
  close(): void {
    this.closed = true;
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
  }
}
