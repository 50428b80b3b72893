import t from 'tap';
import {
  type BillLedger, type ServiceCharge, type TicketEvent, type TicketIssue, billTaxes, chargeOn, fold, keptCharge, keptTaxes, ledgerAfter, openLedger, partySize, paymentCharge,
  serviceChargeFor, splitEvenly, ticket, ticketCharge, ticketFigures, zReport,
} from '../src/index.js';
import { given } from './given.js';

// A bill worked out by hand: tacos 100.00 at IVA 16 % with 10.00 off, and a water 50.05 untaxed.
// After discounts it comes to 140.05; 10 % of it is 14.005, rounded half up: 14.01.
const iva = { taxRateId: 'iva', name: 'IVA', ratePpm: 160_000 };
const lines = [
  { lineId: 'l1', dishId: 'tacos', priceCents: 10000, notes: '', taxRateId: 'iva', discountCents: 1000 },
  { lineId: 'l2', dishId: 'agua', priceCents: 5005, notes: '', taxRateId: null },
];
const charge = (over: Partial<ServiceCharge> = {}): ServiceCharge => ({ rateBp: 1000, taxable: false, reason: 'party', partySize: 6, creditedTo: 'u-marisol', amountCents: 1401, ...over });
const bill = (over: Partial<TicketIssue> = {}): TicketIssue => ({
  ticketId: 'k1', orderId: 'o1', billId: 'b1', tableId: 't1', waiter: 'Marisol', currencyId: 'mxn', lines, share: null,
  taxRates: [iva], pricesIncludeTax: true, serviceCharge: charge(), subtotalCents: 15406, issuedAt: 1, issuedBy: 'u1', ...over,
});

t.test('the charge: round half up of the bill after discounts, once per bill', async (t) => {
  t.equal(chargeOn(lines, 1000), 1401, '14.005 → 14.01');
  t.equal(chargeOn(lines, 1250), 1751, '17.50625 → 17.51');
  t.equal(chargeOn(lines, 1000, new Set(['l2'])), 900, 'a voided line carries none');
  t.equal(chargeOn([], 1000), 0);
});

t.test('which bills carry one: parties of the minimum or more (distinct seats), or by hand', async (t) => {
  t.equal(partySize([{ seat: 1 }, { seat: 2 }, { seat: 2 }, { seat: null }, {}]), 2, 'lines for the table add no guest');
  const settings = { rateBp: 1000, minParty: 6, taxable: true };
  t.same(serviceChargeFor(lines, 6, settings, null, 'u-marisol'), { rateBp: 1000, taxable: true, reason: 'party', partySize: 6, creditedTo: 'u-marisol', amountCents: 1401 });
  t.equal(serviceChargeFor(lines, 5, settings, null, 'u-marisol'), null, 'a party of five: none');
  t.equal(serviceChargeFor(lines, 9, { ...settings, rateBp: 0 }, null, 'u'), null, 'no automatic charge configured');
  t.equal(serviceChargeFor(lines, 9, null, null, 'u'), null);
  t.same(serviceChargeFor(lines, 2, settings, { rateBp: 1250, by: 'u-boss' }, 'u-marisol'), { rateBp: 1250, taxable: true, reason: 'staff', setBy: 'u-boss', creditedTo: 'u-marisol', amountCents: 1751 });
  t.same(serviceChargeFor(lines, 8, settings, { rateBp: 0, by: 'u-boss' }, 'u-marisol'), { rateBp: 0, taxable: true, reason: 'staff', setBy: 'u-boss', creditedTo: 'u-marisol', amountCents: 0 }, 'waived by hand, and who did it');
});

t.test('the bill counts it: untaxed, or taxed at the bill\'s rates by its rules (prices with tax or without)', async (t) => {
  // Untaxed, prices with tax: IVA on 90.00 = 12.41 (90 × 16 / 116 = 12.4138); the bill asks 90.00 + 50.05 + 14.01.
  t.same(billTaxes(bill()), { taxes: [{ ...iva, baseCents: 7759, amountCents: 1241 }], dueCents: 15406, netCents: 14165 });
  // Taxable: 14.01 spread over IVA's 90.00 and the untaxed 50.05 by largest remainder: 9.00 and 5.01;
  // IVA on 99.00 = 13.66 (13.6552), inside the same 154.06.
  t.same(billTaxes(bill({ serviceCharge: charge({ taxable: true }) })), { taxes: [{ ...iva, baseCents: 8534, amountCents: 1366 }], dueCents: 15406, netCents: 14040 });
  // Prices without tax: untaxed charge, IVA 16 % of 90.00 = 14.40 added; taxable, of 99.00 = 15.84.
  t.equal(billTaxes(bill({ pricesIncludeTax: false })).dueCents, 9000 + 1440 + 5005 + 1401);
  t.same(billTaxes(bill({ pricesIncludeTax: false, serviceCharge: charge({ taxable: true }) })), { taxes: [{ ...iva, baseCents: 9900, amountCents: 1584 }], dueCents: 9900 + 1584 + 5506, netCents: 15406 });
  t.equal(billTaxes(bill({ serviceCharge: null })).dueCents, 14005, 'no charge: the lines alone');
  t.equal(billTaxes(bill({ serviceCharge: charge({ rateBp: 0, amountCents: 0, reason: 'staff' }) })).dueCents, 14005, 'waived');
});

t.test('an even split: the parts\' charges and dues add up exactly to the whole\'s', async (t) => {
  for (const pricesIncludeTax of [true, false]) {
    for (const taxable of [true, false]) {
      for (const parts of [2, 3, 7]) {
        const whole = bill({ pricesIncludeTax, serviceCharge: charge({ taxable }) });
        const shares = Array.from({ length: parts }, (_, i) => ({ ...whole, share: { part: i + 1, parts } }));
        const label = `${parts} parts, ${pricesIncludeTax ? 'with' : 'without'} tax, ${taxable ? 'taxable' : 'untaxed'}`;
        t.equal(shares.reduce((sum, s) => sum + billTaxes(s).dueCents, 0), billTaxes(whole).dueCents, `dues: ${label}`);
        t.same(shares.map((s) => ticketCharge(s)), splitEvenly(1401, parts), `charges: ${label}`);
      }
    }
  }
});

t.test('the ticket: its subtotal holds the charge; a void takes the line\'s share of it off', async (t) => {
  const issued: TicketEvent = { type: 'TicketIssued', data: bill() };
  const g = given(ticket, [issued]);
  t.equal(ticketFigures(g.state).subtotal, 15406);
  // Voiding the water: 50.05 and its 10 % (the charge becomes 9.00): 154.06 − 99.00 = 55.06.
  t.match(g.when({ type: 'voidLine', lineId: 'l2', reason: 'never came', refundId: 'r1', shiftId: null, by: 'm', at: 2 }), { events: [{ type: 'TicketLineVoided', data: { amountCents: 5506 } }] });
});

t.test('a manager takes the charge off a bill still to be paid: who, why, and what the bill asks less', async (t) => {
  const issued: TicketEvent = { type: 'TicketIssued', data: bill() };
  const remove = { type: 'removeServiceCharge' as const, reason: 'slow service', by: 'u-boss', at: 3 };
  const g = given(ticket, [issued]);
  const removed: TicketEvent = { type: 'ServiceChargeRemoved', data: { amountCents: 1401, chargeCents: 1401, reason: 'slow service', by: 'u-boss', at: 3 } };
  t.same(g.when(remove), { events: [removed] });
  const after = fold(ticket, [issued, removed]);
  t.equal(ticketFigures(after).subtotal, 14005);
  t.same(given(ticket, [issued, removed]).when(remove), { error: { kind: 'conflict', message: 'This bill has no service charge' } });
  t.match(given(ticket, [issued, removed]).when({ type: 'voidLine', lineId: 'l2', reason: 'x', refundId: 'r', shiftId: null, by: 'm', at: 4 }), { events: [{ data: { amountCents: 5005 } }] }, 'a void after: the line alone');
  t.match(g.when({ ...remove, reason: ' ' }), { error: { kind: 'validation' } });
  // Taxes added to the bill and a taxable charge: its tax goes with it (1401 + 16 % of 9.00 = 1.44).
  const exclusive = bill({ pricesIncludeTax: false, serviceCharge: charge({ taxable: true }), subtotalCents: 16990 });
  t.match(given(ticket, [{ type: 'TicketIssued', data: exclusive }]).when(remove), { events: [{ data: { amountCents: 1545, chargeCents: 1401 } }] });

  const card = (amountCents: number): TicketEvent => ({ type: 'PaymentTaken', data: { paymentId: 'p1', method: 'credit_card', amountCents, tipCents: 0, overpaidCents: 0, details: { method: 'credit_card' }, shiftId: null, takenBy: 'u', takenAt: 2 } });
  t.same(given(ticket, [issued, card(14005)]).when(remove), { events: [removed, { type: 'TicketPaid', data: { at: 3 } }] }, 'the payments now cover it: paid');
  t.match(given(ticket, [issued, card(14006)]).when(remove), { error: { kind: 'conflict', message: /refund first/ } });
  t.match(given(ticket, [issued, card(15406), { type: 'TicketPaid', data: { at: 2 } }]).when(remove), { error: { kind: 'conflict', message: /paid/ } });
  t.match(given(ticket, [{ type: 'TicketIssued', data: bill({ serviceCharge: null, subtotalCents: 14005 }) }]).when(remove), { error: { kind: 'conflict' } });
});

t.test('the Z report: each payment carries its bill\'s charge in proportion, to the cent; credited by user id', async (t) => {
  // 154.06 paid in three goes (50.00, 50.00, 54.06): the charge 14.01 goes 4.55, 4.54, 4.92 (cumulative half up).
  const shares = [[0, 5000], [5000, 5000], [10000, 5406]].map(([before, amount]) => paymentCharge(1401, 15406, before!, amount!));
  t.same(shares, [455, 454, 492]);
  t.equal(shares.reduce((a, b) => a + b, 0), 1401);
  t.equal(paymentCharge(0, 15406, 0, 15406), 0);
  const pay = (id: string, amountCents: number, serviceChargeCents: number, serviceChargeTo: string | null) =>
    ({ id, method: 'cash' as const, amountCents, tipCents: 0, overpaidCents: 0, waiter: 'Marisol', serviceChargeCents, serviceChargeTo });
  const z = zReport({ cashFloatCents: 0, countedCashCents: 0, openCents: 0, refunds: [], payments: [pay('p1', 5000, 455, 'u-marisol'), pay('p2', 10406, 946, 'u-marisol'), pay('p3', 1000, 100, 'u-luis')] });
  t.same([z.salesCents, z.serviceChargeCents, z.serviceChargeByStaff], [16406, 1501, { 'u-marisol': 1401, 'u-luis': 100 }]);
});

t.test('a bill\'s ledger keeps its charge as its money keeps it: payments add their share, refunds, voids and a removal take theirs back', async (t) => {
  const pay = (paymentId: string, amountCents: number): TicketEvent => ({
    type: 'PaymentTaken', data: { paymentId, method: 'cash', amountCents, tipCents: 0, overpaidCents: 0, details: { method: 'cash', tenderedCents: amountCents, changeCents: 0 }, shiftId: 's', takenBy: null, takenAt: 2 },
  });
  const after = (events: TicketEvent[], issue = bill({ serviceCharge: charge({ taxable: true }) })): BillLedger => events.reduce(ledgerAfter, openLedger(issue));
  t.equal(keptCharge(after([])), 0, 'nothing kept before a payment');
  // 50.00 of 154.06: 14.01 × 5000 / 15406 = 4.547 → 4.55; the rest settles it to the cent.
  t.equal(keptCharge(after([pay('p1', 5000)])), 455);
  const settled = after([pay('p1', 5000), pay('p2', 10406), { type: 'TicketPaid', data: { at: 2 } }]);
  t.equal(keptCharge(settled), 1401);
  t.same(keptTaxes(settled), billTaxes(bill({ serviceCharge: charge({ taxable: true }) })).taxes, 'a taxable charge\'s tax is declared with the bill\'s');
  // Half of it refunded: 14.01 × ½ = 7.005 → 7.01 kept.
  t.equal(keptCharge(ledgerAfter(settled, { type: 'PaymentRefunded', data: { refundId: 'r1', paymentId: 'p2', method: 'cash', amountCents: 7703, reason: 'x', shiftId: 's', by: null, at: 3 } })), 701);
  // The water voided after payment: the charge on 90.00 alone is 9.00, all of it kept.
  t.equal(keptCharge(ledgerAfter(settled, { type: 'TicketLineVoided', data: { lineId: 'l2', amountCents: 5506, reason: 'x', by: null, at: 3 } })), 900);
  const removed = ledgerAfter(after([pay('p1', 5000)]), { type: 'ServiceChargeRemoved', data: { amountCents: 1401, chargeCents: 1401, reason: 'slow', by: 'u-boss', at: 3 } });
  t.equal(keptCharge(removed), 0, 'taken off: nothing');
  t.same(keptTaxes(removed), keptTaxes(after([pay('p1', 5000)], bill({ serviceCharge: null }))), 'and its tax went with it');
  t.equal(keptCharge(after([pay('p1', 15406)], bill({ serviceCharge: null }))), 0, 'a bill without a charge keeps none');
});

t.test('the Z report: refunds and voids take their share of the charge back, by the staff member credited', async (t) => {
  const pay = { id: 'p1', method: 'cash' as const, amountCents: 15406, tipCents: 0, overpaidCents: 0, waiter: 'Marisol', serviceChargeCents: 1401, serviceChargeTo: 'u-marisol' };
  const refund = { id: 'r1', method: 'cash' as const, amountCents: 7703, serviceChargeCents: -701, serviceChargeTo: 'u-marisol' };
  const z = zReport({ cashFloatCents: 0, countedCashCents: 0, openCents: 0, payments: [pay], refunds: [refund], voidCharges: [{ serviceChargeCents: -200, serviceChargeTo: 'u-marisol' }] });
  t.same([z.serviceChargeCents, z.serviceChargeByStaff], [500, { 'u-marisol': 500 }]);
  const none = zReport({ cashFloatCents: 0, countedCashCents: 0, openCents: 0, payments: [pay], refunds: [{ ...refund, amountCents: 15406, serviceChargeCents: -1401 }] });
  t.same([none.serviceChargeCents, none.serviceChargeByStaff], [0, {}], 'a charge given back in full leaves no entry');
});
