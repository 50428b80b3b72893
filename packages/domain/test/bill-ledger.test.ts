import t from 'tap';
import { type BillLedger, type TicketEvent, keptCents, keptTaxes, ledgerAfter, openLedger, refundOfBill, taxesMoved } from '../src/index.js';

const IVA = { taxRateId: 'iva', name: 'IVA', ratePpm: 160_000 };
const REDUCED = { taxRateId: 'reduced', name: 'Reduced', ratePpm: 80_000 };
const line = (lineId: string, priceCents: number, taxRateId: string) => ({ lineId, dishId: 'd', priceCents, notes: '', quantity: 1, taxRateId });
/** Tacos 116.00 at IVA 16 % and an agua 108.00 at 8 %, prices including tax: 16.00 and 8.00 of tax. */
const bill = (pricesIncludeTax = true) => ({ lines: [line('tacos', 11_600, 'iva'), line('agua', 10_800, 'reduced')], share: null, taxRates: [IVA, REDUCED], pricesIncludeTax });

const paid = (amountCents: number, tipCents = 0): TicketEvent[] => [
  { type: 'PaymentTaken', data: { paymentId: 'p', method: 'cash', amountCents, tipCents, overpaidCents: 0, details: { method: 'cash', tenderedCents: amountCents + tipCents, changeCents: 0 }, shiftId: 's', takenBy: null, takenAt: 1 } },
  { type: 'TicketPaid', data: { at: 1 } },
];
const refunded = (amountCents: number, reason = 'cold'): TicketEvent => ({ type: 'PaymentRefunded', data: { refundId: `r${amountCents}`, paymentId: 'p', method: 'cash', amountCents, reason, shiftId: 's', by: null, at: 2 } });
const voided = (lineId: string, amountCents: number): TicketEvent => ({ type: 'TicketLineVoided', data: { lineId, amountCents, reason: 'wrong', by: null, at: 2 } });
const given = (events: TicketEvent[], pricesIncludeTax = true): BillLedger => events.reduce(ledgerAfter, openLedger(bill(pricesIncludeTax)));
const taxes = (l: BillLedger) => keptTaxes(l).map((x) => [x.taxRateId, x.baseCents, x.amountCents]);

t.test('a bill paid in full declares exactly its taxes; nothing before it is paid', async (t) => {
  t.same(taxes(given(paid(22_400))), [['reduced', 10_000, 800], ['iva', 10_000, 1600]]);
  t.same(keptCents(given([])), 0);
  t.same(taxes(given([])), [['reduced', 0, 0], ['iva', 0, 0]]);
});

t.test('issue 57: a refund takes back its share of each rate\'s base and tax', async (t) => {
  // given the bill paid, when 56.00 (a quarter) is refunded, then a quarter of each rate's tax goes back
  const after = given([...paid(22_400), refunded(5600)]);
  t.same(taxes(after), [['reduced', 7500, 600], ['iva', 7500, 1200]]);
  t.same(taxesMoved(keptTaxes(given(paid(22_400))), keptTaxes(after)).map((x) => [x.taxRateId, x.baseCents, x.amountCents]), [['reduced', -2500, -200], ['iva', -2500, -400]]);
  t.same(taxes(given([...paid(22_400), refunded(22_400)])), [['reduced', 0, 0], ['iva', 0, 0]], 'refunded in full: nothing declared');
});

t.test('issue 57: a refunded tip changes no tax; the bill\'s part of a refund comes off first', async (t) => {
  const withTip = given(paid(22_400, 1000));
  t.equal(refundOfBill(withTip, 'p', 23_000), 22_400, 'the bill\'s 224.00 of a 230.00 refund');
  const partly = given([...paid(22_400, 1000), refunded(22_000)]);
  t.equal(refundOfBill(partly, 'p', 1400), 400, 'then what is left of it, the rest is the tip');
  t.equal(refundOfBill(partly, 'unknown', 100), 0);
});

t.test('issue 57: a void of a paid line takes the line\'s tax off, once, whatever its refund', async (t) => {
  // given the bill paid, when the agua is voided and its 108.00 refunded, then only the tacos' IVA is declared
  const voidedAndRefunded = given([...paid(22_400), voided('agua', 10_800), refunded(10_800, 'void: wrong')]);
  t.same(taxes(voidedAndRefunded), [['iva', 10_000, 1600]]);
  t.same(taxes(given([...paid(22_400), voided('agua', 10_800)])), [['iva', 10_000, 1600]], 'kept beyond the bill: the bill as it stands');
  // prices without tax (251.20 asked): the agua's 108.00 + 8.64 leaves; 116.00 + 16.00 of IVA stay
  const exclusive = given([...paid(25_120), voided('agua', 11_664), refunded(11_664, 'void: wrong')], false);
  t.same(exclusive.bill.pricesIncludeTax, false);
  t.same(taxes(exclusive), [['iva', 11_600, 1856]]);
});

t.test('issue 57: the rates\' shares of the money kept add up to it, to the cent', async (t) => {
  // Found by the reports' property (packages/analytics/test/reports-equal-bills.property.test.ts).
  // given tacos 100.01 at IVA and an agua 100.01 at 8 %, paid (200.02), when 100.01 is refunded, then
  // each rate's share of the 100.01 kept is 50.005: rounded half up each, they came to 100.02.
  const halves = { lines: [line('tacos', 10_001, 'iva'), line('agua', 10_001, 'reduced')], share: null, taxRates: [IVA, REDUCED], pricesIncludeTax: true };
  const kept = [...paid(20_002), refunded(10_001)].reduce(ledgerAfter, openLedger(halves));
  const declared = keptTaxes(kept);
  t.equal(declared.reduce((sum, x) => sum + x.baseCents + x.amountCents, 0), 10_001, 'what the rates declare is what the bill kept');
  // The odd cent goes to the first rate (the bill's order of rates); each tax is half its rate's, half up.
  t.same(taxes(kept), [['reduced', 4630, 371], ['iva', 4310, 690]]);
});
