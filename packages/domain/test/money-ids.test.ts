import t from 'tap';
import { fromCents, idFromKey, isUuid, newId, sumCents, toCents } from '../src/index.js';

t.test('decimal amounts convert to exact cents', async (t) => {
  t.equal(toCents(12.5), 1250);
  t.equal(toCents(0.1 + 0.2), 30, 'binary noise is tolerated');
  t.equal(toCents(19.99), 1999);
  t.equal(toCents(1e6 + 0.01), 100000001);
  t.equal(toCents(1.005), null, 'a third decimal is refused');
  t.equal(toCents(1000000.005), null, 'a third decimal is refused at any magnitude');
  t.equal(toCents(9999999.99), 999999999, 'the cap itself is exact');
  t.equal(toCents(9999999.995), null);
  t.equal(toCents(10_000_000), null, 'above the cap');
  t.equal(toCents(-0.01), -1);
  t.equal(toCents(true as unknown as number), null, 'a boolean is not an amount');
  t.equal(toCents(Number.NaN), null);
  t.equal(toCents(Number.POSITIVE_INFINITY), null);
  t.equal(fromCents(1999), 19.99);
  t.equal(sumCents([1999, 1, 5000]), 7000);
});

t.test('ids are UUID v4; ids from keys are stable and distinct', async (t) => {
  t.ok(isUuid(newId()));
  t.notOk(isUuid('not-a-uuid'));
  t.notOk(isUuid(42));
  const a = idFromKey('user-1', 'key-1');
  t.ok(isUuid(a));
  t.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  t.equal(idFromKey('user-1', 'key-1'), a);
  t.not(idFromKey('user-2', 'key-1'), a);
  t.not(idFromKey('user-1key-1'), a, 'parts are separated, not concatenated');
});
