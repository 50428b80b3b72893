import type { AttemptCounter, AttemptRule } from '@comanda/attempts';

export interface ThrottleRules {
  /** Consecutive attempts of one (address, name) pair: the one reaching this locks the pair. */
  pair: AttemptRule;
  /** Attempts from one address, whatever the names, per window. */
  address: AttemptRule;
}

/**
 * The seed's rule, kept per (client address, name) so one waiter's typos never lock the rest of the
 * restaurant (who share one address behind the restaurant's router): five consecutive failures lock
 * the pair for 1 minute, doubling with each further failure (cap 1 h); a success clears the pair.
 * Against a brute force that spreads over many names, an address has a much higher ceiling of
 * failures per minute (50). Unknown names count like known ones.
 */
export const DEFAULT_RULES: ThrottleRules = {
  pair: { limit: 5, baseLockMs: 60_000, maxLockMs: 3_600_000 },
  address: { limit: 50, baseLockMs: 0, maxLockMs: 0, windowMs: 60_000 },
};

/**
 * An attempt is counted before its secret is checked, in one atomic step of the attempt counter (shared
 * by every replica), so attempts still in flight hold their place: however many arrive at once, at most
 * five are checked per pair before the lock. A success gives its attempt back.
 */
export class LoginThrottle {
  private readonly attempts: AttemptCounter;
  private readonly scope: string;
  private readonly now: () => number;
  private readonly rules: ThrottleRules;
  constructor(
    attempts: AttemptCounter,
    scope: string,
    now: () => number,
    rules: ThrottleRules = DEFAULT_RULES,
  ) {
    this.attempts = attempts;
    this.scope = scope;
    this.now = now;
    this.rules = rules;
  }

  // The name is base64url-encoded: unambiguous after the address, and free of NUL bytes, which
  // PostgreSQL text (the read store of the distributed shape) cannot hold.
  private pairKey = (address: string, name: string) => `${this.scope}:pair:${address}|${Buffer.from(name.toLocaleLowerCase('en')).toString('base64url')}`;
  private addressKey = (address: string) => `${this.scope}:address:${address}`;

  /** Counts an attempt: 0 when it may go on to check its secret, else the seconds to wait. */
  async admit(address: string, name: string): Promise<number> {
    const now = this.now();
    const ip = await this.attempts.admit(this.addressKey(address), this.rules.address, now);
    if (!ip.admitted) return Math.max(1, Math.ceil(ip.retryAfterMs / 1000));
    const pair = await this.attempts.admit(this.pairKey(address, name), this.rules.pair, now);
    if (pair.admitted) return 0;
    await this.attempts.settle(this.addressKey(address), this.rules.address, 'refund');
    return Math.max(1, Math.ceil(pair.retryAfterMs / 1000));
  }

  /** A success ends its pair's streak; the address ceiling counts failures only. */
  async succeed(address: string, name: string): Promise<void> {
    await Promise.all([
      this.attempts.settle(this.pairKey(address, name), this.rules.pair, 'forget'),
      this.attempts.settle(this.addressKey(address), this.rules.address, 'refund'),
    ]);
  }
}
