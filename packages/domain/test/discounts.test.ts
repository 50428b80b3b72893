import t from 'tap';
import fc from 'fast-check';
import { type Discount, type OrderEvent, type RecordedLine, fold, lineDiscounts, order, orderTotal } from '../src/index.js';
import { MANAGER, WAITER, given } from './given.js';

const placed: OrderEvent = { type: 'OrderPlaced', data: { orderId: 'o1', userId: 'u1', tableId: 't1', waiter: 'Ana', placedAt: 1000 } };
const line = (lineId: string, priceCents: number, quantity = 1): RecordedLine => ({ lineId, dishId: 'd', priceCents, notes: '', quantity });
const added: OrderEvent = { type: 'DishesAdded', data: { lines: [line('a', 1000, 2), line('b', 500), line('c', 333)] } };
/** A manager's discount (u1 acting as a manager), unless a waiter's limit is given: then u1 is a waiter. */
const give = ({ limitBp, ...over }: Partial<{ discountId: string; lineId: string | null; kind: 'percent' | 'amount'; value: number; reason: string; limitBp: number }> = {}) => ({
  type: 'giveDiscount' as const, discountId: 'x1', lineId: null, kind: 'percent' as const, value: 1000, reason: 'regular', at: 5,
  limitBp: limitBp ?? 1000, authority: limitBp === undefined ? { ...MANAGER, userId: 'u1' } : WAITER, ...over,
});
const given1 = (d: Partial<Discount>): OrderEvent => ({
  type: 'DiscountGiven', data: { discountId: 'x1', lineId: null, kind: 'percent', value: 1000, amountCents: 283, reason: 'regular', by: 'u1', approvedBy: 'u1', at: 5, ...d },
});

t.test('a discount is worked out in cents when given: percent half up, or an amount', async (t) => {
  const g = given(order, [placed, added]);
  t.same(g.when(give()), { events: [given1({})] }, '10 % of 28.33 = 2.833 → 2.83');
  t.match(g.when(give({ kind: 'amount', value: 500, lineId: 'b' })), { events: [{ type: 'DiscountGiven', data: { amountCents: 500, lineId: 'b' } }] });
  t.match(g.when(give({ lineId: 'a', value: 10_000, reason: ' comp: birthday ' })), { events: [{ data: { amountCents: 2000, reason: 'comp: birthday' } }] }, 'a comp');
  const after = given(order, [placed, added, given1({})]);
  t.equal(orderTotal(after.state), 2833 - 283);
  t.equal(orderTotal(given(order, [placed, added, given1({}), { type: 'DiscountRemoved', data: { discountId: 'x1' } }]).state), 2833);
  t.same(after.when(give()), { events: [] }, 'the same discount again: nothing more');
});

t.test('never below zero, a reason 1–200, a line of the order, a waiter within the limit', async (t) => {
  const g = given(order, [placed, added]);
  t.match(g.when(give({ discountId: 'x2', kind: 'amount', value: 501, lineId: 'b' })), { error: { kind: 'validation', details: { errors: [{ field: 'value', message: /below zero/ }] } } });
  t.match(g.when(give({ discountId: 'x2', kind: 'amount', value: 2834 })), { error: { kind: 'validation' } });
  t.match(g.when(give({ kind: 'percent', value: 10_001 })), { error: { kind: 'validation', details: { errors: [{ field: 'value' }] } } });
  t.match(g.when(give({ reason: '  ' })), { error: { kind: 'validation', details: { errors: [{ field: 'reason' }] } } });
  t.match(g.when(give({ reason: 'x'.repeat(201) })), { error: { kind: 'validation' } });
  t.match(g.when(give({ lineId: 'zz' })), { error: { kind: 'validation', details: { errors: [{ field: 'line_id' }] } } });
  t.match(g.when(give({ limitBp: 1000 })), { events: [{ type: 'DiscountGiven' }] }, '10 % is within a 10 % limit');
  t.match(g.when(give({ limitBp: 1000, value: 1001 })), { error: { kind: 'forbidden' } });
  t.match(g.when(give({ limitBp: 1000, value: 1001, lineId: 'c' })), { error: { kind: 'forbidden' } }, 'a percent over the limit, even where it rounds to the same cents');
  t.match(g.when(give({ limitBp: 1000, kind: 'amount', value: 284 })), { error: { kind: 'forbidden' } }, 'by amount too: 2.84 is over 10 % of 28.33');
  t.match(g.when(give({ limitBp: 1000, kind: 'amount', value: 283 })), { events: [{ type: 'DiscountGiven' }] });
  const line100 = given(order, [placed, added, given1({ lineId: 'b', kind: 'amount', value: 500, amountCents: 500 })]);
  t.match(line100.when(give({ discountId: 'x2', lineId: 'b', kind: 'amount', value: 1 })), { error: { kind: 'validation' } }, 'a comped line takes no more');
  // Found by the property test through ticket issuing: an order discount first, then a comp of the line it was spread on.
  const one = given(order, [placed, { type: 'DishesAdded', data: { lines: [line('a', 1000)] } }, given1({ kind: 'amount', value: 100, amountCents: 100 })]);
  t.match(one.when(give({ discountId: 'x2', lineId: 'a', value: 10_000 })), { error: { kind: 'validation', details: { errors: [{ field: 'value', message: /order below zero \(at most 9.00\)/ }] } } }, 'a comp after an order discount: the order would owe -1.00');
  t.match(one.when(give({ discountId: 'x2', lineId: 'a', value: 9_000 })), { events: [{ type: 'DiscountGiven', data: { amountCents: 900 } }] }, 'up to what the order has left');
});

t.test('billed lines: a discount touching one is 409; discounted lines keep price and quantity', async (t) => {
  const billed: OrderEvent = { type: 'OrderBilled', data: { billId: 'b1', ticketIds: ['k1'], lineIds: ['b'] } };
  const g = given(order, [placed, added, billed]);
  t.match(g.when(give({ lineId: 'b' })), { error: { kind: 'conflict', message: /already on a ticket/ } });
  t.match(g.when(give()), { error: { kind: 'conflict' } }, 'an order discount touches every line');
  t.match(g.when(give({ lineId: 'a' })), { events: [{ type: 'DiscountGiven' }] });
  const d = given(order, [placed, added, given1({ lineId: 'a', amountCents: 200 })]);
  t.match(d.when({ type: 'updateLine', lineId: 'a', quantity: 3, authority: WAITER }), { error: { kind: 'conflict', message: /remove the discount first/ } });
  t.match(d.when({ type: 'removeLine', lineId: 'a', authority: WAITER }), { error: { kind: 'conflict' } });
  t.match(d.when({ type: 'updateLine', lineId: 'a', notes: 'bien dorado', authority: WAITER }), { events: [{ type: 'OrderLineUpdated' }] });
  const whole = given(order, [placed, added, given1({ amountCents: 2500, kind: 'amount', value: 2500 })]);
  t.match(whole.when({ type: 'removeLine', lineId: 'a', authority: WAITER }), { error: { kind: 'conflict', message: /exceed/ } }, 'the order discount would exceed what is left');
  t.match(whole.when({ type: 'removeLine', lineId: 'c', authority: WAITER }), { events: [{ type: 'OrderLineRemoved' }] });
  t.match(given(order, [placed, added, { type: 'OrderStatusChanged', data: { from: 'pending', to: 'cancelled', at: 2 } }]).when(give()), { error: { kind: 'conflict' } });
});

t.test('an order discount is spread over the lines in proportion, cents by largest remainder', async (t) => {
  const state = fold(order, [placed, added, given1({ amountCents: 100 }), given1({ discountId: 'x2', lineId: 'b', amountCents: 50 })]);
  // After own discounts: a 2000, b 450, c 333 (2783); 100 × each / 2783 = 71.86, 16.17, 11.96 → 71, 16, 11 + 2 by remainder (a, c).
  t.same([...lineDiscounts(state.lines, state.discounts)], [['a', 72], ['b', 66], ['c', 12]]);
  fc.assert(fc.property(
    fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 1, maxLength: 20 }), fc.integer({ min: 0, max: 10_000 }),
    (prices, bp) => {
      const lines = Object.fromEntries(prices.map((p, i) => [`l${i}`, { lineId: `l${i}`, dishId: 'd', priceCents: p, notes: '', quantity: 1, course: 1, seat: null, modifiers: [] }]));
      const total = prices.reduce((s, p) => s + p, 0);
      const amountCents = Math.floor((total * bp) / 10_000);
      const shares = lineDiscounts(lines, { x: { discountId: 'x', lineId: null, kind: 'percent', value: bp, amountCents, reason: 'r', by: null, at: 0 } });
      const sum = [...shares.values()].reduce((s, x) => s + x, 0);
      return sum === amountCents && prices.every((p, i) => shares.get(`l${i}`)! <= p && shares.get(`l${i}`)! >= 0);
    },
  ), { numRuns: 300 });
  t.pass('shares add up exactly and never exceed a line');
});
