import t from 'tap';
import fc from 'fast-check';
import { RATE_SCALE, centsForSats, formatRate, parseRate, satsForCents } from '../src/bills/sats.js';

const rate = fc.tuple(fc.integer({ min: 1, max: 100_000_000 }), fc.integer({ min: 0, max: 99_999_999 }))
  .map(([whole, fraction]) => `${whole}.${String(fraction).padStart(8, '0')}`);
const cents = fc.integer({ min: 1, max: 999_999_999 });

t.test('a bill is charged rounded up, in the restaurant\'s favour by less than one sat', async (t) => {
  fc.assert(fc.property(cents, rate, (c, r) => {
    const sats = satsForCents(c, r);
    const scaled = parseRate(r)!;
    // The value of the sats in cents, exactly: sats × rate / 10^6 (units → cents, sat → BTC).
    const valueTimes = BigInt(sats) * scaled; // cents × 10^14
    const due = BigInt(c) * 10n ** 14n;
    return valueTimes >= due && valueTimes - scaled < due;
  }), { numRuns: 5000 });
});

t.test('received sats are credited rounded down, by less than a cent', async (t) => {
  fc.assert(fc.property(fc.integer({ min: 0, max: 2_100_000_000_000 }), rate, (sats, r) => {
    const credited = centsForSats(sats, r);
    const exact = BigInt(sats) * parseRate(r)!; // cents × 10^14
    return BigInt(credited) * 10n ** 14n <= exact && BigInt(credited + 1) * 10n ** 14n > exact;
  }), { numRuns: 5000 });
});

t.test('paying exactly the invoice credits at least the bill', async (t) => {
  fc.assert(fc.property(cents, rate, (c, r) => centsForSats(satsForCents(c, r), r) >= c), { numRuns: 5000 });
});

t.test('examples', async (t) => {
  t.equal(satsForCents(100, '97000.00'), 1031, '1.00 USD at 97,000 USD/BTC: 1030.9 sat → 1031');
  t.equal(satsForCents(12_345, '1750000.00'), 7055, '123.45 MXN at 1,750,000 MXN/BTC: 7054.3 sat → 7055');
  t.equal(satsForCents(9700, '97000'), 100_000, 'an exact amount is not rounded');
  t.equal(centsForSats(100_000, '97000.00'), 9700);
  t.equal(centsForSats(1, '97000.00'), 0, 'one sat is worth less than a cent');
  t.equal(parseRate('0'), null, 'a zero rate is no rate');
  t.equal(parseRate('-1'), null);
  t.equal(parseRate('1e5'), null);
  t.equal(parseRate('97000.123456789'), 97000_12345678n, 'decimals beyond 8 are cut');
  t.equal(parseRate('1'), RATE_SCALE);
  t.equal(formatRate(parseRate('97000.5')!), '97000.50');
  t.equal(formatRate(parseRate('0.00000001')!), '0.00000001');
  t.throws(() => satsForCents(100, 'x'));
  t.throws(() => satsForCents(-1, '1'));
});
