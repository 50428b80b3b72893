import t from 'tap';
import { ALL_REPORTS, ReportFold } from '../src/index.js';
import { TZ, at } from './restaurant-day.js';

const rec = (n: number, stream: string, type: string, data: unknown, iso: string) => ({
  id: `x${n}`, stream, revision: n, position: BigInt(n + 1), type, data, metadata: { occurredAt: at(iso), schemaVersion: 1 }, recordedAt: at(iso),
});
const iva = { taxRateId: 'iva', name: 'IVA', rateBp: 1600 };
const line = (lineId: string, priceCents: number) => ({ lineId, dishId: 'd1', priceCents, notes: '', quantity: 1, taxRateId: 'iva' });
/** A bill issued with a taxable 10 % charge credited to the order's user. */
const issued = (ticket: string, lines: ReturnType<typeof line>[], amountCents: number, creditedTo: string, share: { part: number; parts: number } | null = null) => ({
  ticketId: ticket, orderId: 'o', billId: `b-${ticket}`, tableId: null, waiter: 'Ana', currencyId: 'mxn', lines, share, taxRates: [iva], pricesIncludeTax: true,
  serviceCharge: { rateBp: 1000, taxable: true, reason: 'party', partySize: 6, creditedTo, amountCents }, subtotalCents: 0, issuedAt: at('2026-03-28T12:00:00Z'), issuedBy: null,
});

const paid = (ticket: string, amountCents: number, iso: string): Array<[string, string, unknown, string]> => [
  [`ticket-${ticket}`, 'PaymentTaken', { paymentId: `p-${ticket}`, method: 'credit_card', amountCents, tipCents: 0, overpaidCents: 0, details: { method: 'credit_card' }, shiftId: null, takenBy: null, takenAt: at(iso) }, iso],
  [`ticket-${ticket}`, 'TicketPaid', { at: at(iso) }, iso],
];
const log = (events: Array<[string, string, unknown, string]>) => events.map(([stream, type, data, iso], n) => rec(n, stream, type, data, iso));

t.test('the sales report: service charges of paid bills by day and by the staff member\'s id; taxed with the bill', async (t) => {
  const fold = new ReportFold(ALL_REPORTS, TZ);
  // Each bill is paid in full (a bill declares its charge, as its taxes, as its money keeps them).
  fold.apply(log([
    // Ana's (u-ana) bill: 100.00 + 10.00 charge, both at IVA: 110.00 × 16 / 116 = 15.17.
    ['ticket-k1', 'TicketIssued', issued('k1', [line('a', 10000)], 1000, 'u-ana'), '2026-03-28T12:00:00Z'],
    ...paid('k1', 11000, '2026-03-28T12:05:00Z'),
    // An even split of 50.05 (charge 5.01) into two parts, paid after local midnight: 2.51 + 2.50.
    ['ticket-k2', 'TicketIssued', issued('k2', [line('b', 5005)], 501, 'u-ben', { part: 1, parts: 2 }), '2026-03-28T22:00:00Z'],
    ['ticket-k3', 'TicketIssued', issued('k3', [line('b', 5005)], 501, 'u-ben', { part: 2, parts: 2 }), '2026-03-28T22:00:00Z'],
    ...paid('k2', 2753, '2026-03-28T23:10:00Z'),
    ...paid('k3', 2753, '2026-03-28T23:20:00Z'),
    // Taken off by a manager, then paid: nothing. A voided line takes its share off: 30.00 of 40.00 left, 3.00.
    ['ticket-k4', 'TicketIssued', issued('k4', [line('c', 2000)], 200, 'u-ana'), '2026-03-28T12:00:00Z'],
    ['ticket-k4', 'ServiceChargeRemoved', { amountCents: 200, chargeCents: 200, reason: 'slow', by: 'u-boss', at: at('2026-03-28T12:01:00Z') }, '2026-03-28T12:01:00Z'],
    ...paid('k4', 2000, '2026-03-28T12:06:00Z'),
    ['ticket-k5', 'TicketIssued', issued('k5', [line('d', 3000), line('e', 1000)], 400, 'u-ana'), '2026-03-28T12:00:00Z'],
    ['ticket-k5', 'TicketLineVoided', { lineId: 'e', amountCents: 1100, reason: 'cold', by: 'u-boss', at: at('2026-03-28T12:02:00Z') }, '2026-03-28T12:02:00Z'],
    ...paid('k5', 3300, '2026-03-28T12:07:00Z'),
    // Cancelled: nothing.
    ['ticket-k6', 'TicketIssued', issued('k6', [line('f', 1000)], 100, 'u-ana'), '2026-03-28T12:00:00Z'],
    ['ticket-k6', 'TicketCancelled', { reason: 'wrong table', by: null, at: at('2026-03-28T12:08:00Z') }, '2026-03-28T12:08:00Z'],
  ]));
  const sales = fold.report('sales')!.result({}).sections;
  t.same(sales.service_charge, [{ day: '2026-03-28', bills: 2, service_charge: 13 }, { day: '2026-03-29', bills: 2, service_charge: 5.01 }]);
  t.same(sales.service_charge_by_staff, [{ user_id: 'u-ana', bills: 2, service_charge: 13 }, { user_id: 'u-ben', bills: 2, service_charge: 5.01 }], 'by user id, never by name');
  t.same(fold.report('sales')!.result({ from: '2026-03-29' }).sections.service_charge_by_staff, [{ user_id: 'u-ben', bills: 2, service_charge: 5.01 }], 'on the day paid');
  // IVA, each bill with its charge: k1 110.00 → 15.17 (base 94.83); k2 and k3 share the whole's 55.06 → 7.59
  // (base 47.47; the parts of an even split add up to the whole bill's tax: 3.80 + 3.79);
  // k4 20.00 without its charge → 2.76 (17.24); k5 30.00 + 3.00 → 4.55 (28.45).
  t.same(sales.tax_by_rate, [{ tax_rate_id: 'iva', tax_rate: 'IVA', rate: 16, base: 187.99, tax: 30.07 }]);
});

t.test('a refund after payment takes back its share of the charge and of its tax on its own day; the sales count it without the charge', async (t) => {
  const fold = new ReportFold(ALL_REPORTS, TZ);
  fold.apply(log([
    // 100.00 + 10.00 charge at IVA, paid on the 28th: 15.17 of tax, 10.00 of charge.
    ['ticket-k1', 'TicketIssued', issued('k1', [line('a', 10000)], 1000, 'u-ana'), '2026-03-28T12:00:00Z'],
    ...paid('k1', 11000, '2026-03-28T12:05:00Z'),
    // Half of it back on the 30th (55.00): the charge kept is 5.00, the tax kept 15.17 × ½ → 7.59 (7.585, half up),
    // its base 55.00 − 7.59 = 47.41 (the charge is taxable: its base is in it).
    ['ticket-k1', 'PaymentRefunded', { refundId: 'r1', paymentId: 'p-k1', method: 'credit_card', amountCents: 5500, reason: 'cold', shiftId: null, by: 'u-boss', at: at('2026-03-30T12:00:00Z') }, '2026-03-30T12:00:00Z'],
  ]));
  const sales = fold.report('sales')!.result({}).sections;
  t.same(sales.service_charge, [{ day: '2026-03-28', bills: 1, service_charge: 10 }, { day: '2026-03-30', bills: 0, service_charge: -5 }]);
  t.same(sales.service_charge_by_staff, [{ user_id: 'u-ana', bills: 1, service_charge: 5 }]);
  t.same(sales.tax_by_rate, [{ tax_rate_id: 'iva', tax_rate: 'IVA', rate: 16, base: 47.41, tax: 7.59 }]);
  // The refund gave back 55.00, of it 5.00 of charge: 50.00 off the sales (prices include tax).
  t.match(sales.by_day, [{ day: '2026-03-30', refunds: 50 }]);
});

t.test('the reports agree on a charged bill refunded in part: the charge is no sale, in both tax modes', async (t) => {
  for (const pricesIncludeTax of [true, false]) {
    // Tacos 100.00 at IVA, a taxable 10 % charge (10.00): 110.00 with tax inside, or 110.00 + 17.60 added.
    const due = pricesIncludeTax ? 11_000 : 12_760;
    const fold = new ReportFold(ALL_REPORTS, TZ);
    fold.apply(log([
      ['order-o1', 'OrderPlaced', { orderId: 'o1', userId: 'u-ana', tableId: null, waiter: 'Ana', placedAt: at('2026-03-28T11:00:00Z') }, '2026-03-28T11:00:00Z'],
      ['order-o1', 'DishesAdded', { lines: [{ lineId: 'a', dishId: 'd1', priceCents: 10_000, notes: '', quantity: 1 }] }, '2026-03-28T11:01:00Z'],
      ['order-o1', 'OrderStatusChanged', { from: 'ready', to: 'completed', at: at('2026-03-28T11:30:00Z') }, '2026-03-28T11:30:00Z'],
      ['ticket-k1', 'TicketIssued', { ...issued('k1', [line('a', 10_000)], 1000, 'u-ana'), orderId: 'o1', pricesIncludeTax, subtotalCents: due }, '2026-03-28T11:31:00Z'],
      ...paid('k1', due, '2026-03-28T11:32:00Z'),
      // A fifth given back: 2.00 of it was the charge (and, without tax in the prices, 3.52 the tax).
      ['ticket-k1', 'PaymentRefunded', { refundId: 'r1', paymentId: 'p-k1', method: 'credit_card', amountCents: due / 5, reason: 'cold', shiftId: null, by: 'u-boss', at: at('2026-03-28T11:40:00Z') }, '2026-03-28T11:40:00Z'],
    ]));
    const report = (name: string) => fold.report(name)!.result({}).sections;
    const mode = pricesIncludeTax ? 'prices with tax' : 'prices without tax';
    t.match(report('sales').totals![0], { gross: 100, refunds: 20, net: 80 }, `sales: ${mode}`);
    t.same(report('sales').service_charge, [{ day: '2026-03-28', bills: 1, service_charge: 8 }], `the charge kept: ${mode}`);
    // IVA kept four fifths: 15.17 → 12.14 with tax inside; 17.60 → 14.08 added.
    t.match(report('sales').tax_by_rate, [{ tax: pricesIncludeTax ? 12.14 : 14.08 }]);
    t.match(report('waiters').by_waiter, [{ waiter_id: 'u-ana', sales: 80, unpaid: 0 }], `waiters: ${mode}`);
    t.same(report('cancellations').by_reason, [{ kind: 'refund', reason: 'cold', count: 1, amount: 20 }], `cancellations: ${mode}`);
  }
});
