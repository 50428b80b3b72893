import t from 'tap';
import type { RecordedEvent } from '@comanda/event-store';
import { ALL_REPORTS, ReportFold } from '../src/index.js';

/**
 * Issue 57, one lunch in UTC, in both tax modes: Ana (u1) sells tacos (116.00, IVA 16 %) and an agua
 * (108.00, 8 %), paid with a 10.00 tip; the agua is voided after payment and refunded, and 11.60 is
 * given back for cold tacos. Another waiter also called Ana (u2) completes an order that is never
 * paid (a walk-out). Figures worked out by hand below.
 */
function lunch(pricesIncludeTax: boolean): RecordedEvent[] {
  const log: RecordedEvent[] = [];
  const add = (stream: string, type: string, data: unknown, minute: number) => {
    const at = Date.parse('2026-05-04T13:00:00Z') + minute * 60_000;
    log.push({ id: `e${log.length}`, stream, revision: 0, position: BigInt(log.length + 1), type, data: { ...(data as object), ...('at' in (data as object) ? { at } : {}) }, metadata: { occurredAt: at, schemaVersion: 1 }, recordedAt: at });
  };
  const rates = [{ taxRateId: 'iva', name: 'IVA', ratePpm: 160_000 }, { taxRateId: 'reduced', name: 'Reduced', ratePpm: 80_000 }];
  const tacos = { lineId: 'a', dishId: 'tacos', priceCents: 11_600, notes: '', quantity: 1 };
  const agua = { lineId: 'b', dishId: 'agua', priceCents: 10_800, notes: '', quantity: 1 };
  const due = pricesIncludeTax ? 22_400 : 25_120;
  const aguaOnBill = pricesIncludeTax ? 10_800 : 11_664;
  add('order-o1', 'OrderPlaced', { orderId: 'o1', userId: 'u1', tableId: null, waiter: 'Ana', placedAt: 0 }, 0);
  add('order-o1', 'DishesAdded', { lines: [tacos, agua] }, 1);
  add('order-o1', 'OrderStatusChanged', { from: 'ready', to: 'completed', at: 0 }, 30);
  add('ticket-k1', 'TicketIssued', {
    ticketId: 'k1', orderId: 'o1', billId: 'b1', tableId: null, waiter: 'Ana', currencyId: 'mxn', share: null, issuedBy: null, issuedAt: 0,
    lines: [{ ...tacos, taxRateId: 'iva' }, { ...agua, taxRateId: 'reduced' }], subtotalCents: due, taxRates: rates, pricesIncludeTax,
  }, 31);
  add('ticket-k1', 'PaymentTaken', { paymentId: 'p1', method: 'credit_card', amountCents: due, tipCents: 1000, overpaidCents: 0, details: { method: 'credit_card' }, shiftId: null, takenBy: null, takenAt: Date.parse('2026-05-04T13:32:00Z') }, 32);
  add('ticket-k1', 'TicketPaid', { at: 0 }, 32);
  add('ticket-k1', 'TicketLineVoided', { lineId: 'b', amountCents: aguaOnBill, reason: 'wrong drink', by: 'm', at: 0 }, 40);
  add('ticket-k1', 'PaymentRefunded', { refundId: 'r1', paymentId: 'p1', method: 'credit_card', amountCents: aguaOnBill, reason: 'void: wrong drink', shiftId: null, by: 'm', at: 0 }, 40);
  add('ticket-k1', 'PaymentRefunded', { refundId: 'r2', paymentId: 'p1', method: 'credit_card', amountCents: 1160, reason: 'cold tacos', shiftId: null, by: 'm', at: 0 }, 41);
  add('order-o2', 'OrderPlaced', { orderId: 'o2', userId: 'u2', tableId: null, waiter: 'Ana', placedAt: 0 }, 50);
  add('order-o2', 'DishesAdded', { lines: [{ ...tacos, lineId: 'c' }] }, 51);
  add('order-o2', 'OrderStatusChanged', { from: 'ready', to: 'completed', at: 0 }, 60);
  add('ticket-k2', 'TicketIssued', {
    ticketId: 'k2', orderId: 'o2', billId: 'b2', tableId: null, waiter: 'Ana', currencyId: 'mxn', share: null, issuedBy: null, issuedAt: 0,
    lines: [{ ...tacos, lineId: 'c', taxRateId: 'iva' }], subtotalCents: pricesIncludeTax ? 11_600 : 13_456, taxRates: rates, pricesIncludeTax,
  }, 61);
  return log;
}

const reports = (pricesIncludeTax: boolean) => {
  const fold = new ReportFold(ALL_REPORTS, 'UTC');
  fold.apply(lunch(pricesIncludeTax));
  return (name: string) => fold.report(name)!.result({}).sections;
};

t.test('issue 57, prices including tax: the sales report\'s tax is the bills\' as they stand, after the void and the refund', async (t) => {
  const report = reports(true);
  // The bill stands at the tacos' 116.00 (16.00 of IVA), of which 104.40 is kept: 14.40 of tax on 90.00.
  t.same(report('sales').tax_by_rate, [{ tax_rate_id: 'iva', tax_rate: 'IVA', rate: 16, base: 90, tax: 14.4 }]);
  t.match(report('sales').totals![0], { gross: 340, voids: 108, refunds: 11.6, net: 220.4 }, 'the void\'s refund is the void, counted once');
});

t.test('issue 57, prices without tax: voids and refunds come off net sales without their tax', async (t) => {
  const report = reports(false);
  // Bill 251.20 (IVA 18.56, Reduced 8.64); the agua leaves with 116.64; of 134.56 left, 11.60 is refunded:
  // kept 122.96 = 106 / 116 of it, IVA 18.56 × 106 / 116 = 16.96 on 106.00; the refund is 10.00 + 1.60 of tax.
  t.same(report('sales').tax_by_rate, [{ tax_rate_id: 'iva', tax_rate: 'IVA', rate: 16, base: 106, tax: 16.96 }]);
  t.match(report('sales').totals![0], { gross: 340, voids: 108, refunds: 10, net: 222 });
});

t.test('issue 57: the cancellations report counts a void\'s refund once, as the void', async (t) => {
  for (const inclusive of [true, false]) {
    const s = reports(inclusive)('cancellations');
    t.same(s.by_reason, [
      { kind: 'void', reason: 'wrong drink', count: 1, amount: 108 },
      { kind: 'refund', reason: 'cold tacos', count: 1, amount: inclusive ? 11.6 : 10 },
    ], inclusive ? 'prices including tax' : 'prices without tax: on the basis of the sales they reduce');
  }
});

t.test('issue 57: the waiters report is after voids and refunds, keyed by user id, the walk-out apart', async (t) => {
  t.same(reports(true)('waiters').by_waiter, [
    { waiter_id: 'u1', waiter: 'Ana', orders: 1, sales: 104.4, average_ticket: 104.4, tips: 10, unpaid_orders: 0, unpaid: 0, covers: 0, hours_worked: 0, break_hours: 0 },
    { waiter_id: 'u2', waiter: 'Ana', orders: 1, sales: 0, average_ticket: 0, tips: 0, unpaid_orders: 1, unpaid: 116, covers: 0, hours_worked: 0, break_hours: 0 },
  ]);
  t.match(reports(false)('waiters').by_waiter, [{ waiter_id: 'u1', sales: 106 }, { waiter_id: 'u2', sales: 0, unpaid: 116 }]);
});
