import t from 'tap';
import type { RecordedEvent } from '@comanda/event-store';
import { ALL_REPORTS, ReportFold } from '../src/index.js';

/**
 * Found by reports-equal-bills.property.test.ts: refunds and voids on a paid bill whose figures, each
 * counted whole, took more or less off sales than the bill lost. A line voided after a refund: the
 * refund had already given back part of the bill's money. A refund after a void whose own refund came
 * out of a tip: the bill kept more than it now asks, and the refund gives that back first.
 */
function lunch(pricesIncludeTax: boolean, moves: (add: (type: string, data: object) => void) => void): RecordedEvent[] {
  const log: RecordedEvent[] = [];
  const add = (stream: string, type: string, data: object) => {
    const at = Date.parse('2026-05-04T13:00:00Z') + log.length * 60_000;
    log.push({ id: `e${log.length}`, stream, revision: 0, position: BigInt(log.length + 1), type, data: { ...data, ...('at' in data ? { at } : {}) }, metadata: { occurredAt: at, schemaVersion: 1 }, recordedAt: at });
  };
  const rates = [{ taxRateId: 'iva', name: 'IVA', ratePpm: 160_000 }, { taxRateId: 'reduced', name: 'Reduced', ratePpm: 80_000 }];
  const tacos = { lineId: 'a', dishId: 'tacos', priceCents: 10_000, notes: '', quantity: 1, taxRateId: 'iva' };
  const agua = { lineId: 'b', dishId: 'agua', priceCents: pricesIncludeTax ? 3_000 : 10_000, notes: '', quantity: 1, taxRateId: pricesIncludeTax ? 'iva' : 'reduced' };
  add('order-o1', 'OrderPlaced', { orderId: 'o1', userId: 'u1', tableId: null, waiter: 'Ana', placedAt: 0 });
  add('order-o1', 'DishesAdded', { lines: [tacos, agua] });
  add('order-o1', 'OrderStatusChanged', { from: 'ready', to: 'completed', at: 0 });
  add('ticket-k1', 'TicketIssued', {
    ticketId: 'k1', orderId: 'o1', billId: 'b1', tableId: null, waiter: 'Ana', currencyId: 'mxn', share: null, issuedBy: null, issuedAt: 0,
    lines: [tacos, agua], subtotalCents: pricesIncludeTax ? 13_000 : 22_400, taxRates: rates, pricesIncludeTax,
  });
  moves((type, data) => add('ticket-k1', type, data));
  return log;
}

const reports = (log: RecordedEvent[]) => {
  const fold = new ReportFold(ALL_REPORTS, 'UTC');
  fold.apply(log);
  return (name: string) => fold.report(name)!.result({}).sections;
};

t.test('prices including tax: given a paid bill mostly refunded, when a line is voided, then sales come to what the bill kept, never below zero', async (t) => {
  // Tacos 100.00 and agua 30.00 paid with a 10.00 tip; 110.00 given back for a cold meal (the bill keeps
  // 20.00); then the agua is voided and its 30.00 refunded: 20.00 of the bill's money and 10.00 of the tip.
  const report = reports(lunch(true, (add) => {
    add('PaymentTaken', { paymentId: 'p1', method: 'credit_card', amountCents: 13_000, tipCents: 1_000, overpaidCents: 0, details: { method: 'credit_card' }, shiftId: null, takenBy: null, takenAt: Date.parse('2026-05-04T13:05:00Z') });
    add('TicketPaid', { at: 0 });
    add('PaymentRefunded', { refundId: 'r1', paymentId: 'p1', method: 'credit_card', amountCents: 11_000, reason: 'cold meal', shiftId: null, by: 'm', at: 0 });
    add('TicketLineVoided', { lineId: 'b', amountCents: 3_000, reason: 'wrong drink', by: 'm', at: 0 });
    add('PaymentRefunded', { refundId: 'r2', paymentId: 'p1', method: 'credit_card', amountCents: 3_000, reason: 'void: wrong drink', shiftId: null, by: 'm', at: 0 });
  }));
  t.match(report('sales').totals![0], { gross: 130, refunds: 110, voids: 20, net: 0 }, 'the void took the 20.00 the bill still kept');
  t.match(report('waiters').by_waiter, [{ waiter_id: 'u1', sales: 0 }]);
  t.same(report('cancellations').by_reason, [
    { kind: 'void', reason: 'wrong drink', count: 1, amount: 20 },
    { kind: 'refund', reason: 'cold meal', count: 1, amount: 110 },
  ]);
  t.same(report('sales').tax_by_rate, [], 'nothing kept, no tax');
});

t.test('prices without tax: given a paid bill partly refunded, when a line of another rate is voided, then net sales are the base the bill declares', async (t) => {
  // Tacos 100.00 at 16 % and agua 100.00 at 8 %: 224.00 paid, 22.40 given back (20.00 and 2.40 of tax).
  // The agua leaves with 108.00; the bill keeps 93.60 of 116.00, IVA 16.00 × 93.60 / 116.00 = 12.91 on 80.69.
  const report = reports(lunch(false, (add) => {
    add('PaymentTaken', { paymentId: 'p1', method: 'credit_card', amountCents: 22_400, tipCents: 0, overpaidCents: 0, details: { method: 'credit_card' }, shiftId: null, takenBy: null, takenAt: Date.parse('2026-05-04T13:05:00Z') });
    add('TicketPaid', { at: 0 });
    add('PaymentRefunded', { refundId: 'r1', paymentId: 'p1', method: 'credit_card', amountCents: 2_240, reason: 'cold tacos', shiftId: null, by: 'm', at: 0 });
    add('TicketLineVoided', { lineId: 'b', amountCents: 10_800, reason: 'wrong drink', by: 'm', at: 0 });
    add('PaymentRefunded', { refundId: 'r2', paymentId: 'p1', method: 'credit_card', amountCents: 10_800, reason: 'void: wrong drink', shiftId: null, by: 'm', at: 0 });
  }));
  t.same(report('sales').tax_by_rate, [{ tax_rate_id: 'iva', tax_rate: 'IVA', rate: 16, base: 80.69, tax: 12.91 }]);
  // The refund took back 2.40 of tax when the agua was on the bill; with the tacos alone its share is 3.31.
  t.match(report('sales').totals![0], { gross: 200, refunds: 20, voids: 99.31, net: 80.69 });
  t.match(report('waiters').by_waiter, [{ waiter_id: 'u1', sales: 80.69 }]);
});

t.test('prices including tax: given a void refunded out of a tip, when another payment is refunded, then sales stay at what the bill asks and declares', async (t) => {
  // Tacos 100.00 and agua 30.00, paid 30.00 with a 90.00 tip and 100.00 by a second card. The tacos are
  // voided, their 100.00 given back from the first card: 30.00 of its amount and 70.00 of its tip. The
  // bill asks 30.00 and still holds 100.00 of the second card; 10.00 of it given back leaves it 90.00.
  const report = reports(lunch(true, (add) => {
    const card = { method: 'credit_card', overpaidCents: 0, details: { method: 'credit_card' }, shiftId: null, takenBy: null, takenAt: Date.parse('2026-05-04T13:05:00Z') };
    add('PaymentTaken', { paymentId: 'p1', amountCents: 3_000, tipCents: 9_000, ...card });
    add('PaymentTaken', { paymentId: 'p2', amountCents: 10_000, tipCents: 0, ...card });
    add('TicketPaid', { at: 0 });
    add('TicketLineVoided', { lineId: 'a', amountCents: 10_000, reason: 'wrong dish', by: 'm', at: 0 });
    add('PaymentRefunded', { refundId: 'r1', paymentId: 'p1', method: 'credit_card', amountCents: 10_000, reason: 'void: wrong dish', shiftId: null, by: 'm', at: 0 });
    add('PaymentRefunded', { refundId: 'r2', paymentId: 'p2', method: 'credit_card', amountCents: 1_000, reason: 'slow service', shiftId: null, by: 'm', at: 0 });
  }));
  t.same(report('sales').tax_by_rate, [{ tax_rate_id: 'iva', tax_rate: 'IVA', rate: 16, base: 25.86, tax: 4.14 }], 'the agua, kept whole');
  t.match(report('sales').totals![0], { gross: 130, voids: 100, refunds: 0, net: 30 }, 'the refund gave back what the bill held beyond the agua');
  t.match(report('waiters').by_waiter, [{ waiter_id: 'u1', sales: 30 }]);
});
