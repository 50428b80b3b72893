import { type Counter, admit, refund } from './rule.js';
import type { Admission, AttemptCounter, AttemptRule } from './types.js';

/** Counters of one process (the standalone with memory read models, and the tests): gone at a restart. */
export class MemoryAttemptCounter implements AttemptCounter {
  private readonly counters = new Map<string, Counter>();

  // One synchronous step each: nothing else runs between the read and the write.
  async admit(key: string, rule: AttemptRule, now: number): Promise<Admission> {
    const { admission, next } = admit(this.counters.get(key) ?? null, rule, now);
    if (next) this.counters.set(key, next);
    return admission;
  }

  async settle(key: string, rule: AttemptRule, how: 'forget' | 'refund'): Promise<void> {
    const next = how === 'forget' ? null : refund(this.counters.get(key) ?? null, rule);
    if (next) this.counters.set(key, next);
    else this.counters.delete(key);
  }

  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}
