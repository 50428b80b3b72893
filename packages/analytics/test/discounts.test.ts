import t from 'tap';
import { ALL_REPORTS, ReportFold } from '../src/index.js';
import { TZ, at } from './restaurant-day.js';

// One dinner: three tacos with guacamole (+1.60), a second order's taco with guacamole and cheese,
// a manager's comp of the agua, a waiter's 10 % on the tacos, and a discount given then taken off.
const rec = (n: number, stream: string, type: string, data: unknown, iso: string, userId?: string) => ({
  id: `x${n}`, stream, revision: n, position: BigInt(n + 1), type, data, metadata: { occurredAt: at(iso), schemaVersion: 1, ...(userId ? { userId } : {}) }, recordedAt: at(iso),
});
const guac = { groupId: 'g', optionId: 'guac', name: 'Guacamole', priceDeltaCents: 160 };
const cheese = { groupId: 'g', optionId: 'cheese', name: 'Queso', priceDeltaCents: 50 };
const dinner = () => [
  rec(0, 'menu', 'CategoryAdded', { categoryId: 'c1', name: 'Mains' }, '2026-03-01T00:00:00Z'),
  rec(1, 'menu', 'DishAdded', { dishId: 'd1', name: 'Tacos', price: 1000, categoryId: 'c1' }, '2026-03-01T00:00:00Z'),
  rec(2, 'order-o', 'OrderPlaced', { orderId: 'o', userId: 'u1', tableId: null, waiter: 'Ana', placedAt: at('2026-03-28T11:00:00Z'), number: 1 }, '2026-03-28T11:00:00Z'),
  rec(3, 'order-o', 'DishesAdded', { lines: [
    { lineId: 'a', dishId: 'd1', priceCents: 1000, notes: '', quantity: 3, modifiers: [guac] },
    { lineId: 'b', dishId: 'd2', priceCents: 500, notes: '', quantity: 1 },
  ] }, '2026-03-28T11:00:00Z'),
  // The manager's comp carries no `by`: the giver is the metadata's user.
  rec(4, 'order-o', 'DiscountGiven', { discountId: 'c', lineId: 'b', kind: 'percent', value: 10_000, amountCents: 500, reason: 'cold', by: null, at: at('2026-03-28T11:50:00Z') }, '2026-03-28T11:50:00Z', 'u9'),
  rec(5, 'order-o', 'DiscountGiven', { discountId: 'w', lineId: 'a', kind: 'percent', value: 1000, amountCents: 348, reason: 'regular', by: 'u1', at: at('2026-03-28T11:51:00Z') }, '2026-03-28T11:51:00Z', 'u1'),
  rec(6, 'order-o', 'DiscountGiven', { discountId: 'x', lineId: null, kind: 'amount', value: 100, amountCents: 100, reason: 'regular', by: 'u1', at: at('2026-03-28T11:52:00Z') }, '2026-03-28T11:52:00Z', 'u1'),
  rec(7, 'order-o', 'DiscountRemoved', { discountId: 'x' }, '2026-03-28T11:53:00Z', 'u1'),
  rec(8, 'order-o', 'OrderStatusChanged', { from: 'ready', to: 'completed', at: at('2026-03-28T12:10:00Z') }, '2026-03-28T12:10:00Z'),
  rec(9, 'order-p', 'OrderPlaced', { orderId: 'p', userId: 'u2', tableId: null, waiter: 'Beto', placedAt: at('2026-03-29T11:00:00Z'), number: 1 }, '2026-03-29T11:00:00Z'),
  rec(10, 'order-p', 'DishesAdded', { lines: [{ lineId: 'c', dishId: 'd1', priceCents: 1000, notes: '', quantity: 1, modifiers: [guac, cheese] }] }, '2026-03-29T11:00:00Z'),
  rec(11, 'order-p', 'OrderStatusChanged', { from: 'ready', to: 'completed', at: at('2026-03-29T12:10:00Z') }, '2026-03-29T12:10:00Z'),
];
const report = (name: string, range = {}) => {
  const fold = new ReportFold(ALL_REPORTS, TZ);
  fold.apply(dinner());
  return fold.report(name)!.result(range).sections;
};

t.test('the product mix lists modifier options: portions that chose each, revenue of its price delta', async (t) => {
  const mix = report('product-mix');
  t.same(mix.by_modifier, [
    { option_id: 'guac', modifier: 'Guacamole', quantity: 4, revenue: 6.4 },
    { option_id: 'cheese', modifier: 'Queso', quantity: 1, revenue: 0.5 },
  ]);
  t.same(mix.by_dish!.map((d) => [d.dish_id, d.quantity, d.revenue]), [['d1', 4, 46.9], ['d2', 1, 5]], 'dishes as before: before discounts, modifiers inside');
  t.same(report('product-mix', { to: '2026-03-28' }).by_modifier, [{ option_id: 'guac', modifier: 'Guacamole', quantity: 3, revenue: 4.8 }], 'by the day the order completed');
});

t.test('a voided line takes its modifier options off, at the deltas its bill charged, on the day of the void', async (t) => {
  const fold = new ReportFold(ALL_REPORTS, TZ);
  const line = { lineId: 'c', dishId: 'd1', priceCents: 1000, notes: '', quantity: 1, modifiers: [guac, cheese] };
  fold.apply([...dinner(),
    rec(12, 'ticket-k', 'TicketIssued', { ticketId: 'k', orderId: 'p', billId: 'b', tableId: null, waiter: 'Beto', currencyId: 'mxn', lines: [line], share: null, subtotalCents: 1210, issuedAt: at('2026-03-29T12:20:00Z'), issuedBy: null }, '2026-03-29T12:20:00Z'),
    rec(13, 'ticket-k', 'TicketLineVoided', { lineId: 'c', amountCents: 1210, reason: 'wrong dish', by: 'u9', at: at('2026-03-30T10:00:00Z') }, '2026-03-30T10:00:00Z'),
  ]);
  const mix = fold.report('product-mix')!;
  t.same(mix.result({}).sections.by_modifier, [
    { option_id: 'guac', modifier: 'Guacamole', quantity: 3, revenue: 4.8 },
    { option_id: 'cheese', modifier: 'Queso', quantity: 0, revenue: 0 },
  ]);
  t.same(mix.result({ from: '2026-03-30' }).sections.by_modifier, [
    { option_id: 'cheese', modifier: 'Queso', quantity: -1, revenue: -0.5 },
    { option_id: 'guac', modifier: 'Guacamole', quantity: -1, revenue: -1.6 },
  ]);
});

t.test('the sales report: gross before discounts, discounts and comps apart, net after them', async (t) => {
  const [totals] = report('sales').totals!;
  t.match(totals, { orders: 2, gross: 51.9, discounts: 3.48, comps: 5, voids: 0, refunds: 0, net: 43.42, average_ticket: 21.71 });
  t.match(report('sales', { to: '2026-03-28' }).by_day, [{ day: '2026-03-28', gross: 39.8, discounts: 3.48, comps: 5, net: 31.32 }]);
});

t.test('the discounts report: by reason, by who gave them and by day; a discount taken off counts nothing', async (t) => {
  const s = report('discounts');
  t.same(s.by_reason, [
    { kind: 'comp', reason: 'cold', count: 1, amount: 5 },
    { kind: 'discount', reason: 'regular', count: 1, amount: 3.48 },
  ]);
  t.same(s.by_giver, [
    { user_id: 'u1', name: 'Ana', discounts: 1, discounts_amount: 3.48, comps: 0, comps_amount: 0, count: 1, amount: 3.48 },
    { user_id: 'u9', name: null, discounts: 0, discounts_amount: 0, comps: 1, comps_amount: 5, count: 1, amount: 5 },
  ]);
  t.same(s.by_day, [{ day: '2026-03-28', discounts: 1, discounts_amount: 3.48, comps: 1, comps_amount: 5, count: 2, amount: 8.48 }]);
  t.same(report('discounts', { from: '2026-03-29' }).by_reason, [], 'by the day given');
});
