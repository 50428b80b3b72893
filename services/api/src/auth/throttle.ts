import type { Collection, ReadStore } from '@comanda/read-store';

/** Counters live in this read-store collection: MongoDB in the distributed shape, so every replica sees them. */
export const THROTTLE_COLLECTION = 'login_throttle';

type Counter = { _id: string; count: number; lockedUntil: number; windowStart: number };

export interface ThrottleRules {
  /** Consecutive failures of one (address, name) pair before it is locked. */
  freeAttempts: number;
  baseLockMs: number;
  maxLockMs: number;
  /** Failures from one address, whatever the names, allowed per window. */
  addressCeiling: number;
  addressWindowMs: number;
}

/**
 * The seed's rule, kept per (client address, name) so one waiter's typos never lock the rest of the
 * restaurant (who share one address behind the restaurant's router): five consecutive failures lock
 * the pair for 1 minute, doubling with each further failure (cap 1 h); a success clears the pair.
 * Against a brute force that spreads over many names, an address has a much higher ceiling of
 * failures per minute (50). Unknown names count like known ones.
 */
export const DEFAULT_RULES: ThrottleRules = { freeAttempts: 5, baseLockMs: 60_000, maxLockMs: 3_600_000, addressCeiling: 50, addressWindowMs: 60_000 };

export class LoginThrottle {
  private readonly counters: Collection<Counter>;

  constructor(
    readStore: ReadStore,
    private readonly scope: string,
    private readonly now: () => number,
    private readonly rules: ThrottleRules = DEFAULT_RULES,
  ) {
    this.counters = readStore.collection<Counter>(THROTTLE_COLLECTION);
  }

  // The name is base64url-encoded: unambiguous after the address, and free of NUL bytes, which
  // PostgreSQL text (the read store of the distributed shape) cannot hold.
  private pairKey = (address: string, name: string) => `${this.scope}:pair:${address}|${Buffer.from(name.toLocaleLowerCase('en')).toString('base64url')}`;
  private addressKey = (address: string) => `${this.scope}:address:${address}`;

  /** Seconds to wait before this pair may try again, or 0 when an attempt is allowed. */
  async retryAfter(address: string, name: string): Promise<number> {
    const now = this.now();
    const [pair, ip] = await Promise.all([this.counters.get(this.pairKey(address, name)), this.counters.get(this.addressKey(address))]);
    const until = Math.max(pair?.lockedUntil ?? 0, ip?.lockedUntil ?? 0);
    return until > now ? Math.ceil((until - now) / 1000) : 0;
  }

  async fail(address: string, name: string): Promise<void> {
    const now = this.now();
    const { freeAttempts, baseLockMs, maxLockMs, addressCeiling, addressWindowMs } = this.rules;
    const pairId = this.pairKey(address, name);
    const pair = (await this.counters.get(pairId)) ?? { _id: pairId, count: 0, lockedUntil: 0, windowStart: now };
    const count = pair.count + 1;
    const lockedUntil = count >= freeAttempts ? now + Math.min(maxLockMs, baseLockMs * 2 ** (count - freeAttempts)) : 0;
    const ipId = this.addressKey(address);
    const stored = await this.counters.get(ipId);
    const ip = stored && now - stored.windowStart < addressWindowMs ? stored : { _id: ipId, count: 0, lockedUntil: 0, windowStart: now };
    const ipCount = ip.count + 1;
    await Promise.all([
      this.counters.upsert({ ...pair, count, lockedUntil }),
      this.counters.upsert({ ...ip, count: ipCount, lockedUntil: ipCount >= addressCeiling ? ip.windowStart + addressWindowMs : 0 }),
    ]);
  }

  /** A success clears its own pair only: the address ceiling still counts the minute's failures. */
  async succeed(address: string, name: string): Promise<void> {
    await this.counters.delete(this.pairKey(address, name));
  }
}
