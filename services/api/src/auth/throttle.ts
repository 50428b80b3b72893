/**
 * Login lockout: five consecutive failures for a key (a user name, or a client address) lock it;
 * each further failure doubles the wait (1 min, 2, 4 … capped at 1 h). A success clears the key.
 * Kept in memory per API process: a restart forgives, which errs toward letting staff work.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; lockedUntil: number }>();

  constructor(
    private readonly now: () => number,
    private readonly freeAttempts = 5,
    private readonly baseLockMs = 60_000,
    private readonly maxLockMs = 3_600_000,
  ) {}

  /** Seconds to wait before trying again, or 0 when an attempt is allowed. */
  retryAfter(keys: string[]): number {
    const now = this.now();
    let wait = 0;
    for (const key of keys) {
      const f = this.failures.get(key);
      if (f && f.lockedUntil > now) wait = Math.max(wait, Math.ceil((f.lockedUntil - now) / 1000));
    }
    return wait;
  }

  fail(keys: string[]): void {
    const now = this.now();
    for (const key of keys) {
      const f = this.failures.get(key) ?? { count: 0, lockedUntil: 0 };
      f.count++;
      if (f.count >= this.freeAttempts) {
        f.lockedUntil = now + Math.min(this.maxLockMs, this.baseLockMs * 2 ** (f.count - this.freeAttempts));
      }
      this.failures.set(key, f);
    }
    if (this.failures.size > 100_000) this.failures.delete(this.failures.keys().next().value!);
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }
}
