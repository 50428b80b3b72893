import t from 'tap';
import { ALL_REPORTS, LocalClock, ReportFold, percentile } from '../src/index.js';
import { TZ, at, restaurantNight } from './restaurant-day.js';

const folded = (timeZone = TZ) => {
  const fold = new ReportFold(ALL_REPORTS, timeZone);
  fold.apply(restaurantNight());
  return fold;
};
const sections = (name: string, range = {}, timeZone = TZ) => folded(timeZone).report(name)!.result(range).sections;

t.test('the clock: local days, hours and weekdays across a daylight-saving change', async (t) => {
  const clock = new LocalClock(TZ);
  t.same(clock.place(at('2026-03-28T22:59:59Z')), { day: '2026-03-28', hour: 23, weekday: 5 });
  t.same(clock.place(at('2026-03-28T23:30:00Z')), { day: '2026-03-29', hour: 0, weekday: 6 }, 'after local midnight: Sunday, though still Saturday in UTC');
  t.same(clock.place(at('2026-03-29T00:59:59Z')), { day: '2026-03-29', hour: 1, weekday: 6 });
  t.same(clock.place(at('2026-03-29T01:00:00Z')), { day: '2026-03-29', hour: 3, weekday: 6 }, 'the clocks jump from 02:00 to 03:00');
  t.same(clock.place(at('2026-03-29T21:59:59Z')), { day: '2026-03-29', hour: 23, weekday: 6 }, 'the day lasts 23 hours');
  t.same(clock.place(at('2026-03-29T22:00:00Z')), { day: '2026-03-30', hour: 0, weekday: 0 });
  t.same(clock.place(at('2026-10-25T00:30:00Z')), { day: '2026-10-25', hour: 2, weekday: 6 }, 'autumn: the first 02:00–03:00 (CEST)');
  t.same(clock.place(at('2026-10-25T01:30:00Z')), { day: '2026-10-25', hour: 2, weekday: 6 }, 'and the second (CET)');
  t.same(clock.place(at('2026-10-25T22:59:59Z')), { day: '2026-10-25', hour: 23, weekday: 6 }, 'the day lasts 25 hours');
  t.equal(percentile([], 50), null);
  t.equal(percentile([1, 2, 3, 4], 50), 2);
  t.equal(percentile([1, 2, 3, 4], 90), 4);
});

t.test('sales by day, hour and weekday, net of voids and refunds, in Madrid time', async (t) => {
  const s = sections('sales');
  t.same(s.totals, [{ currency: 'MXN', days: 2, orders: 3, covers: 3, lines: 5, gross: 415, discounts: 0, comps: 0, voids: 25, refunds: 30, net: 360, average_ticket: 138.33, average_per_cover: 138.33, lines_per_order: 1.67 }]);
  t.same(s.by_day, [
    { day: '2026-03-28', weekday: 'Saturday', orders: 1, covers: 0, gross: 100, discounts: 0, comps: 0, voids: 0, refunds: 0, net: 100, average_ticket: 100, average_per_cover: 0, lines_per_order: 1 },
    { day: '2026-03-29', weekday: 'Sunday', orders: 2, covers: 3, gross: 315, discounts: 0, comps: 0, voids: 25, refunds: 30, net: 260, average_ticket: 157.5, average_per_cover: 105, lines_per_order: 2 },
  ]);
  const hours = Object.fromEntries(s.by_hour!.filter((h) => h.orders !== 0 || h.net !== 0).map((h) => [h.hour, [h.orders, h.net]]));
  t.same(hours, { 0: [1, 125], 1: [0, -25], 3: [1, 190], 4: [0, -30], 13: [1, 100] }, 'B completed at 01:30 UTC = 03:30 CEST');
  t.same(s.by_weekday!.filter((w) => w.days !== 0), [
    { weekday: 'Saturday', days: 1, orders: 1, net: 100, average_day: 100 },
    { weekday: 'Sunday', days: 1, orders: 2, net: 260, average_day: 260 },
  ]);
  t.same(sections('sales', { from: '2026-03-28', to: '2026-03-28' }).totals![0]!.net, 100, 'a range of one day');
  t.same(sections('sales', { from: '2026-03-29' }).totals![0]!.orders, 2);
  const utc = sections('sales', {}, 'UTC');
  t.same(utc.by_day!.map((d) => [d.day, d.orders, d.net]), [['2026-03-28', 2, 225], ['2026-03-29', 1, 135]], 'in UTC order A falls on the 28th');
});

t.test('product mix by dish and category; a voided line is taken off', async (t) => {
  const s = sections('product-mix');
  t.same(s.by_dish, [
    { dish_id: 'd1', dish: 'Tacos', category: 'Mains', quantity: 4, revenue: 390, revenue_share: 100 },
    { dish_id: 'd2', dish: 'Agua', category: 'Drinks', quantity: 0, revenue: 0, revenue_share: 0 },
  ]);
  t.same(s.by_category, [
    { category_id: 'c1', category: 'Mains', quantity: 4, revenue: 390, revenue_share: 100 },
    { category_id: 'c2', category: 'Drinks', quantity: 0, revenue: 0, revenue_share: 0 },
  ]);
  t.same(sections('product-mix', { to: '2026-03-28' }).by_dish, [{ dish_id: 'd1', dish: 'Tacos', category: 'Mains', quantity: 1, revenue: 100, revenue_share: 100 }]);
});

t.test('by waiter: orders, sales after voids and refunds (Luis 290 − 30 refunded, Ana 125 − 25 voided), average ticket, tips', async (t) => {
  t.same(sections('waiters').by_waiter, [
    { waiter_id: 'u2', waiter: 'Luis', orders: 2, sales: 260, average_ticket: 130, tips: 0, unpaid_orders: 0, unpaid: 0, covers: 0, hours_worked: 0, break_hours: 0 },
    { waiter_id: 'u1', waiter: 'Ana', orders: 1, sales: 100, average_ticket: 100, tips: 10, unpaid_orders: 0, unpaid: 0, covers: 3, hours_worked: 0, break_hours: 0 },
  ]);
});

t.test('payment-method mix, Lightning in sats and fiat', async (t) => {
  const s = sections('payments');
  t.same(s.by_method, [
    { method: 'credit_card', name: 'Credit card', payments: 1, amount: 190, share: 45.78, tips: 0, refunds: 30, net: 160, sats: 0 },
    { method: 'cash', name: 'Cash', payments: 1, amount: 125, share: 30.12, tips: 10, refunds: 25, net: 110, sats: 0 },
    { method: 'lightning', name: 'Lightning', payments: 1, amount: 100, share: 24.1, tips: 0, refunds: 0, net: 100, sats: 5000 },
  ]);
  t.same(s.by_day!.map((r) => [r.day, r.method]), [['2026-03-28', 'lightning'], ['2026-03-29', 'cash'], ['2026-03-29', 'credit_card']], 'the cash payment at 00:40 local is Sunday\'s');
});

t.test('table turns per table and space', async (t) => {
  const s = sections('tables');
  t.same(s.by_table, [{ table_id: 't1', table: 'T1', space: 'Terraza', turns: 1, average_minutes: 225, total_minutes: 225 }]);
  t.same(s.by_space, [{ space_id: 'sp1', space: 'Terraza', tables: 1, turns: 1, turns_per_table: 1, average_minutes: 225 }]);
});

t.test('kitchen: fired to done p50/p90 per station and dish, late tickets', async (t) => {
  const s = sections('kitchen');
  t.same(s.by_station, [{ station_id: 's1', station: 'Grill', tickets: 2, p50_seconds: 600, p90_seconds: 1500, late: 1 }], 'the all-cancelled ticket is not timed');
  t.same(s.by_dish, [
    { dish_id: 'd2', dish: 'Agua', lines: 1, p50_seconds: 300, p90_seconds: 300 },
    { dish_id: 'd1', dish: 'Tacos', lines: 3, p50_seconds: 600, p90_seconds: 1500 },
  ]);
  t.same(s.by_day, [
    { day: '2026-03-28', tickets: 1, p50_seconds: 1500, p90_seconds: 1500, late: 1 },
    { day: '2026-03-29', tickets: 1, p50_seconds: 600, p90_seconds: 600, late: 0 },
  ]);
});

t.test('cancellations, voids and refunds with reasons', async (t) => {
  const s = sections('cancellations');
  t.same(s.by_reason, [
    { kind: 'order_cancelled', reason: '(no reason recorded)', count: 1, amount: 25 },
    { kind: 'ticket_cancelled', reason: 'guest left', count: 1, amount: 25 },
    { kind: 'void', reason: 'wrong drink', count: 1, amount: 25 },
    { kind: 'refund', reason: 'cold food', count: 1, amount: 30 },
  ], "the void's own refund is the void, not listed again");
  t.same(s.by_day, [{
    day: '2026-03-29', order_cancelled: 1, order_cancelled_amount: 25, order_deleted: 0, order_deleted_amount: 0,
    ticket_cancelled: 1, ticket_cancelled_amount: 25, void: 1, void_amount: 25, refund: 1, refund_amount: 30,
  }]);
});

t.test('a restaurant with only orders still gets sales and product mix', async (t) => {
  const orderOnly = restaurantNight().filter((e) => e.stream.startsWith('order-') || e.stream === 'menu');
  const fold = new ReportFold(ALL_REPORTS, TZ);
  fold.apply(orderOnly);
  t.same(fold.report('sales')!.result({}).sections.totals![0]!.net, 415, 'no voids or refunds without bills');
  t.same(fold.report('product-mix')!.result({}).sections.by_dish!.map((d) => [d.dish, d.quantity]), [['Tacos', 4], ['Agua', 1]]);
  t.same(fold.report('kitchen')!.result({}).sections.by_station, []);
});

t.test('issue 44: sales show the tax by rate of the bills paid and are net of discounts; discounts and comps by reason and waiter; the product mix counts quantities and modifiers\' prices', async (t) => {
  const rec = (n: number, stream: string, type: string, data: unknown, iso: string) => ({
    id: `x${n}`, stream, revision: n, position: BigInt(n + 1), type, data, metadata: { occurredAt: at(iso), schemaVersion: 1 }, recordedAt: at(iso),
  });
  const iva = { taxRateId: 'iva', name: 'IVA', rateBp: 1600 };
  const lines = [
    { lineId: 'a', dishId: 'd1', priceCents: 1000, notes: '', quantity: 3, taxRateId: 'iva', modifiers: [{ groupId: 'g', optionId: 'o', name: 'Guac', priceDeltaCents: 160 }] },
    { lineId: 'b', dishId: 'd2', priceCents: 500, notes: '', quantity: 1, taxRateId: null },
  ];
  const issue = { ticketId: 'k', orderId: 'o', billId: 'b', tableId: null, waiter: 'Ana', currencyId: 'mxn', lines, share: null, subtotalCents: 3980, issuedAt: at('2026-03-28T12:00:00Z'), issuedBy: null, taxRates: [iva] };
  const fold = new ReportFold(ALL_REPORTS, TZ);
  fold.apply([
    rec(0, 'menu', 'CategoryAdded', { categoryId: 'c1', name: 'Mains' }, '2026-03-01T00:00:00Z'),
    rec(1, 'menu', 'DishAdded', { dishId: 'd1', name: 'Tacos', price: 1000, categoryId: 'c1' }, '2026-03-01T00:00:00Z'),
    rec(2, 'order-o', 'OrderPlaced', { orderId: 'o', userId: 'u1', tableId: null, waiter: 'Ana', placedAt: at('2026-03-28T11:00:00Z'), number: 1 }, '2026-03-28T11:00:00Z'),
    rec(3, 'order-o', 'DishesAdded', { lines: lines.map(({ taxRateId: _rate, ...l }) => l) }, '2026-03-28T11:00:00Z'),
    rec(4, 'order-o', 'DiscountGiven', { discountId: 'x1', lineId: 'b', kind: 'percent', value: 10_000, amountCents: 500, reason: 'comp: cold', by: 'u2', at: at('2026-03-28T11:50:00Z') }, '2026-03-28T11:50:00Z'),
    rec(5, 'order-o', 'DiscountGiven', { discountId: 'x2', lineId: null, kind: 'amount', value: 100, amountCents: 100, reason: 'regular', by: 'u1', at: at('2026-03-28T11:51:00Z') }, '2026-03-28T11:51:00Z'),
    rec(6, 'order-o', 'DiscountRemoved', { discountId: 'x2' }, '2026-03-28T11:52:00Z'),
    rec(7, 'ticket-k', 'TicketIssued', { ...issue, subtotalCents: 3480, lines: [lines[0], { ...lines[1], discountCents: 500 }] }, '2026-03-28T12:00:00Z'),
    rec(8, 'ticket-k', 'PaymentTaken', { paymentId: 'p', method: 'credit_card', amountCents: 3480, tipCents: 0, overpaidCents: 0, details: { method: 'credit_card' }, shiftId: null, takenBy: null, takenAt: at('2026-03-28T12:05:00Z') }, '2026-03-28T12:05:00Z'),
    rec(9, 'ticket-k', 'TicketPaid', { at: at('2026-03-28T12:05:00Z') }, '2026-03-28T12:05:00Z'),
    rec(10, 'order-o', 'OrderStatusChanged', { from: 'ready', to: 'completed', at: at('2026-03-28T12:10:00Z') }, '2026-03-28T12:10:00Z'),
  ]);
  const sales = fold.report('sales')!.result({}).sections;
  // IVA gross 3 × (10.00 + 1.60) = 34.80: tax 34.80 × 16 / 116 = 4.80, base 30.00; the agua is untaxed.
  t.same(sales.tax_by_rate, [{ tax_rate_id: 'iva', tax_rate: 'IVA', rate: 16, base: 30, tax: 4.8 }]);
  t.match(sales.totals![0], { gross: 39.8, comps: 5, discounts: 0, net: 34.8 }, 'the comp apart (the discount taken off again counts nothing)');
  const cancellations = fold.report('cancellations')!.result({}).sections;
  t.same(cancellations.discounts_by_reason, [{ kind: 'comp', reason: 'comp: cold', count: 1, amount: 5 }]);
  t.same(cancellations.discounts_by_waiter, [{ waiter: 'Ana', count: 1, comps: 1, amount: 5 }]);
  t.same(fold.report('cancellations')!.result({ from: '2026-03-29' }).sections.discounts_by_reason, [], 'by the day it was given');
  t.same(fold.report('product-mix')!.result({}).sections.by_dish!.map((d) => [d.dish_id, d.quantity, d.revenue]), [['d1', 3, 34.8], ['d2', 1, 5]]);
});
