import t from 'tap';
import { randomUUID } from 'node:crypto';
import type { AttemptCounter } from '../src/index.js';

/**
 * The AttemptCounter contract, run against every adapter. `open` may be called more than once: each
 * call is another replica's counter over the same store (the same object where there is no sharing).
 * Keys are unique per run, so a shared server can be used.
 */
export function attemptCounterContract(name: string, open: () => Promise<AttemptCounter>): void {
  t.test(`AttemptCounter contract: ${name}`, async (t) => {
    const counter = await open();
    t.teardown(() => counter.close());
    const streak = { limit: 5, baseLockMs: 60_000, maxLockMs: 3_600_000 };

    t.test('a burst is admitted up to the limit at once, however many arrive together', async (t) => {
      const key = `pair:${randomUUID()}`;
      const now = 1_000_000;
      const burst = await Promise.all(Array.from({ length: 100 }, () => counter.admit(key, streak, now)));
      const admitted = burst.filter((a) => a.admitted);
      t.equal(admitted.length, 5, 'five admitted, the rest refused while those are in flight');
      t.same(admitted.map((a) => (a.admitted ? a.count : 0)).sort(), [1, 2, 3, 4, 5]);
      t.ok(burst.every((a) => a.admitted || a.retryAfterMs === 60_000), 'the refused wait out the lock set by the fifth');
      t.match(await counter.admit(key, streak, now + 60_000), { admitted: true, count: 6 }, 'after the lock, one more');
      t.same(await counter.admit(key, streak, now + 60_001), { admitted: false, retryAfterMs: 119_999 }, 'and the lock doubles');
      await counter.settle(key, streak, 'forget');
      t.match(await counter.admit(key, streak, now + 60_002), { admitted: true, count: 1 }, 'a success starts the streak again');
      const long = `pair:${randomUUID()}`;
      for (let i = 0; i < 40; i++) await counter.admit(long, streak, now + i * 4_000_000);
      t.same(await counter.admit(long, streak, now + 39 * 4_000_000 + 1), { admitted: false, retryAfterMs: 3_599_999 }, 'locks stop at their cap');
    });

    t.test('a windowed count starts again with its window, and a refund unlocks', async (t) => {
      const key = `address:${randomUUID()}`;
      const window = { limit: 3, baseLockMs: 0, maxLockMs: 0, windowMs: 60_000 };
      const now = 5_000_000;
      for (let i = 1; i <= 3; i++) t.match(await counter.admit(key, window, now + i), { admitted: true, count: i });
      t.same(await counter.admit(key, window, now + 10), { admitted: false, retryAfterMs: 59_991 }, 'locked until the window, begun by the first, ends');
      await counter.settle(key, window, 'refund');
      t.match(await counter.admit(key, window, now + 11), { admitted: true, count: 3 }, 'a refunded attempt frees its place');
      t.match(await counter.admit(key, window, now + 60_001), { admitted: true, count: 1 }, 'a new window');
      await counter.settle(`address:${randomUUID()}`, window, 'refund');
      await counter.settle(`address:${randomUUID()}`, window, 'forget');
    });

    t.test('replicas share the counters: a burst spread over them is still admitted up to the limit only', async (t) => {
      const other = await open();
      t.teardown(() => (other === counter ? undefined : other.close()));
      const key = `pair:${randomUUID()}`;
      const burst = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? other : counter).admit(key, streak, 7_000_000)));
      t.equal(burst.filter((a) => a.admitted).length, 5);
      t.match(await other.admit(key, streak, 7_000_001), { admitted: false }, 'locked for one replica');
      await counter.settle(key, streak, 'forget');
      t.match(await other.admit(key, streak, 7_000_002), { admitted: true, count: 1 }, 'and a success on another clears it for all');
      await counter.ping();
    });
  });
}
