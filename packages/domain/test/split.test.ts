import t from 'tap';
import fc from 'fast-check';
import { splitEvenly } from '../src/index.js';

t.test('even split: shares differ by at most one cent and sum exactly (property)', async (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 10_000_000_00 }), fc.integer({ min: 1, max: 200 }), (amount, parts) => {
      const shares = splitEvenly(amount, parts);
      if (shares.length !== parts) return false;
      if (shares.reduce((a, b) => a + b, 0) !== amount) return false;
      if (!shares.every(Number.isSafeInteger)) return false;
      return Math.max(...shares) - Math.min(...shares) <= 1 && shares.every((s, i) => i === 0 || s <= shares[i - 1]!);
    }),
    { numRuns: 2000 },
  );
  t.same(splitEvenly(10000, 3), [3334, 3333, 3333], 'the first guest carries the odd cent');
  t.same(splitEvenly(2, 3), [1, 1, 0]);
  t.throws(() => splitEvenly(100, 0), RangeError);
  t.throws(() => splitEvenly(1.5, 2), RangeError);
  t.throws(() => splitEvenly(-1, 2), RangeError);
});
