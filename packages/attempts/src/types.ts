/** A throttle's rule for one key. */
export interface AttemptRule {
  /** The attempt that brings the count to `limit` locks the key (it is still admitted itself). */
  limit: number;
  /** Streak locks (no window): `baseLockMs` at the limit, doubled by every attempt beyond it, at most `maxLockMs`. */
  baseLockMs: number;
  maxLockMs: number;
  /** Counting per fixed window instead: the count starts again after `windowMs`, a lock lasts until its window ends. */
  windowMs?: number;
}

export type Admission = { admitted: true; count: number } | { admitted: false; retryAfterMs: number };

/**
 * Counted attempts (the login and wallet-password throttles). Not read models: nothing in the event
 * log rebuilds them, so they live behind this port rather than the read store's ("rebuildable from
 * the log"). One atomic step admits an attempt and counts it, whatever else runs at once (in every
 * replica of the distributed shape), so attempts still in flight hold their place: a check followed
 * by a later count let a burst of guesses all pass the check before the first failure was written.
 */
export interface AttemptCounter {
  /** Admits and counts one attempt against `key` unless the key is locked at `now`. */
  admit(key: string, rule: AttemptRule, now: number): Promise<Admission>;
  /** After a success: `forget` drops the key's counter (a streak ends), `refund` gives its attempt back (a windowed count). */
  settle(key: string, rule: AttemptRule, how: 'forget' | 'refund'): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
