import t from 'tap';
import { ALL_REPORTS, ReportFold } from '../src/index.js';
import { TZ, at } from './restaurant-day.js';

// Happy hour in the product mix (issue 60): two tacos at the level's 7.00 (regular 10.00) with
// guacamole (+1.60), one at the regular price; the menu's price changes after; a void the next day.
const rec = (n: number, stream: string, type: string, data: unknown, iso: string) => ({
  id: `x${n}`, stream, revision: n, position: BigInt(n + 1), type, data, metadata: { occurredAt: at(iso), schemaVersion: 1 }, recordedAt: at(iso),
});
const guac = { groupId: 'g', optionId: 'guac', name: 'Guacamole', priceDeltaCents: 160 };
const happy = { lineId: 'a', dishId: 'd1', priceCents: 700, notes: '', quantity: 2, modifiers: [guac], priceLevel: 'Happy hour' };
const evening = () => [
  rec(0, 'menu', 'CategoryAdded', { categoryId: 'c1', name: 'Mains' }, '2026-03-01T00:00:00Z'),
  rec(1, 'menu', 'DishAdded', { dishId: 'd1', name: 'Tacos', price: 1000, categoryId: 'c1' }, '2026-03-01T00:00:00Z'),
  rec(2, 'order-o', 'OrderPlaced', { orderId: 'o', userId: 'u1', tableId: null, waiter: 'Ana', placedAt: at('2026-03-28T17:30:00Z'), number: 1 }, '2026-03-28T17:30:00Z'),
  rec(3, 'order-o', 'DishesAdded', { lines: [happy, { lineId: 'b', dishId: 'd1', priceCents: 1000, notes: '', quantity: 1 }] }, '2026-03-28T17:30:00Z'),
  // A later price of the dish changes nothing of what the level cost on lines already ordered.
  rec(4, 'menu', 'DishUpdated', { dishId: 'd1', name: 'Tacos', price: 1200, categoryId: 'c1' }, '2026-03-28T18:00:00Z'),
  // An order deleted with a happy-hour line counts nowhere.
  rec(5, 'order-p', 'OrderPlaced', { orderId: 'p', userId: 'u1', tableId: null, waiter: 'Ana', placedAt: at('2026-03-28T17:40:00Z'), number: 2 }, '2026-03-28T17:40:00Z'),
  rec(6, 'order-p', 'DishesAdded', { lines: [{ ...happy, lineId: 'c', quantity: 5 }] }, '2026-03-28T17:40:00Z'),
  rec(7, 'order-p', 'OrderDeleted', {}, '2026-03-28T17:41:00Z'),
  rec(8, 'ticket-k', 'TicketIssued', {
    ticketId: 'k', orderId: 'o', billId: 'b', tableId: null, waiter: 'Ana', currencyId: 'mxn', lines: [happy, { lineId: 'b', dishId: 'd1', priceCents: 1000, notes: '', quantity: 1 }], share: null, subtotalCents: 2720, issuedAt: at('2026-03-28T19:00:00Z'), issuedBy: null,
  }, '2026-03-28T19:00:00Z'),
  rec(9, 'order-o', 'OrderStatusChanged', { from: 'ready', to: 'completed', at: at('2026-03-28T19:10:00Z') }, '2026-03-28T19:10:00Z'),
];

t.test('the product mix by price level: portions, revenue, and what they come to at the regular price', async (t) => {
  const fold = new ReportFold(ALL_REPORTS, TZ);
  fold.apply(evening());
  const mix = fold.report('product-mix')!.result({}).sections;
  t.same(mix.by_price_level, [{ price_level: 'Happy hour', quantity: 2, revenue: 17.2, at_regular_prices: 23.2, below_regular: 6 }]);
  t.same(mix.by_dish!.map((d) => [d.dish_id, d.quantity, d.revenue]), [['d1', 3, 27.2]], 'inside the dish\'s revenue, as billed');

  fold.apply([rec(10, 'ticket-k', 'TicketLineVoided', { lineId: 'a', amountCents: 1720, reason: 'wrong dish', by: 'u9', at: at('2026-03-29T10:00:00Z') }, '2026-03-29T10:00:00Z')]);
  const report = fold.report('product-mix')!;
  t.same(report.result({}).sections.by_price_level, [{ price_level: 'Happy hour', quantity: 0, revenue: 0, at_regular_prices: 0, below_regular: 0 }], 'a void takes the level\'s portions off');
  t.same(report.result({ from: '2026-03-29' }).sections.by_price_level, [{ price_level: 'Happy hour', quantity: -2, revenue: -17.2, at_regular_prices: -23.2, below_regular: -6 }], 'on the day of the void');
  t.same(report.result({ to: '2026-03-28' }).sections.by_price_level, [{ price_level: 'Happy hour', quantity: 2, revenue: 17.2, at_regular_prices: 23.2, below_regular: 6 }]);
});

t.test('a menu without price levels has an empty section, last', async (t) => {
  const fold = new ReportFold(ALL_REPORTS, TZ);
  fold.apply(evening().map((e) => (e.type === 'DishesAdded' ? { ...e, data: { lines: (e.data as { lines: Array<Record<string, unknown>> }).lines.map(({ priceLevel: _, ...l }) => l) } } : e)));
  const sections = fold.report('product-mix')!.result({}).sections;
  t.same(Object.keys(sections), ['by_dish', 'by_category', 'by_modifier', 'by_price_level']);
  t.same(sections.by_price_level, []);
});
