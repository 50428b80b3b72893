import t from 'tap';
import { TICKET_STATUS, fold, lineClaims, satsForCents, ticket, ticketFigures, type LightningInvoice, type TicketEvent, type TicketIssue } from '../src/index.js';
import { given } from './given.js';

const issue: TicketIssue = {
  ticketId: 'k1', orderId: 'o1', billId: 'b1', tableId: 't1', waiter: 'Ana', currencyId: 'usd',
  lines: [{ lineId: 'l1', dishId: 'd1', priceCents: 10000, notes: '' }], share: null, subtotalCents: 10000, issuedAt: 1, issuedBy: 'u1',
};
const issued: TicketEvent = { type: 'TicketIssued', data: issue };
const RATE = '97000.00';
const invoice = (over: Partial<LightningInvoice> = {}): LightningInvoice => {
  const billCents = over.billCents ?? 10000;
  const tipCents = over.tipCents ?? 0;
  return {
    paymentHash: 'h1', invoice: 'lnbc1…', amountSat: satsForCents(billCents + tipCents, over.rate ?? RATE), billCents, tipCents,
    rate: RATE, rateSource: 'fixed', rateAt: 10, createdAt: 10, expiresAt: 610, excess: 'tip', ...over,
  };
};
const created = (inv = invoice()): TicketEvent => ({ type: 'LightningInvoiceCreated', data: inv });
const arrives = (amountSat: number, over: Partial<{ paymentHash: string; receivedAt: number; paymentId: string }> = {}) => ({
  type: 'settleLightningPayment' as const, paymentId: 'p1', paymentHash: 'h1', amountSat, receivedAt: 100, shiftId: null, ...over,
});
const after = (events: TicketEvent[], ...more: Array<{ events: TicketEvent[] } | { error: unknown }>) =>
  fold(ticket, [...events, ...more.flatMap((m) => ('events' in m ? m.events : []))]);

t.test('one live invoice: the same bill and tip while unexpired; a new one after expiry or for another amount', async (t) => {
  t.same(given(ticket, [issued]).when({ type: 'recordLightningInvoice', invoice: invoice(), at: 10 }), { events: [created()] });
  const g = given(ticket, [issued, created()]);
  t.same(g.when({ type: 'recordLightningInvoice', invoice: invoice({ paymentHash: 'h2' }), at: 20 }), { events: [] }, 'a racing second invoice is not recorded');
  t.equal(g.when({ type: 'recordLightningInvoice', invoice: invoice({ paymentHash: 'h2', createdAt: 700, expiresAt: 1300 }), at: 700 }).events?.length, 1, 'after expiry');
  t.equal(g.when({ type: 'recordLightningInvoice', invoice: invoice({ paymentHash: 'h2', tipCents: 500 }), at: 20 }).events?.length, 1, 'another tip');
  t.match(given(ticket, [issued, { type: 'TicketCancelled', data: { reason: 'x', by: null, at: 2 } }]).when({ type: 'recordLightningInvoice', invoice: invoice(), at: 10 }), { error: { kind: 'conflict' } });
});

t.test('paid in full: a Lightning payment in fiat at the locked rate, sats and rate recorded, the ticket paid', async (t) => {
  const inv = invoice();
  const r = given(ticket, [issued, created(inv)]).when(arrives(inv.amountSat));
  t.same(r, { events: [
    { type: 'PaymentTaken', data: { paymentId: 'p1', method: 'lightning', amountCents: 10000, tipCents: 0, overpaidCents: 0, details: { method: 'lightning', sats: inv.amountSat, rate: RATE, paymentHash: 'h1' }, shiftId: null, takenBy: null, takenAt: 100 } },
    { type: 'TicketPaid', data: { at: 100 } },
  ] });
  const state = after([issued, created(inv)], r);
  t.equal(state.status, TICKET_STATUS.paid);
  t.same(given(ticket, [issued, created(inv), ...('events' in r ? r.events : [])]).when(arrives(inv.amountSat)), { events: [] }, 'the same payment hash again: nothing');
});

t.test('under-paid: recorded, the rest still due', async (t) => {
  const inv = invoice();
  const r = given(ticket, [issued, created(inv)]).when(arrives(Math.floor(inv.amountSat / 2)));
  const state = after([issued, created(inv)], r);
  t.equal(state.status, TICKET_STATUS.pending);
  const { due } = ticketFigures(state);
  t.ok(due > 4900 && due <= 5001, `due ${due}`);
  t.same(state.lightning.received, { h1: true });
});

t.test('over-paid: the excess is a tip, or an over-payment to refund (flagged), as the invoice says', async (t) => {
  const inv = invoice({ tipCents: 1000 });
  const extra = satsForCents(500, RATE);
  const asTip = given(ticket, [issued, created(inv)]).when(arrives(inv.amountSat + extra));
  t.match(asTip, { events: [{ type: 'PaymentTaken', data: { amountCents: 10000, tipCents: 1500, overpaidCents: 0 } }, { type: 'TicketPaid' }] });
  const refundInv = invoice({ tipCents: 1000, excess: 'refund' });
  const held = given(ticket, [issued, created(refundInv)]).when(arrives(refundInv.amountSat + extra));
  t.match(held, { events: [
    { type: 'PaymentTaken', data: { amountCents: 10000, tipCents: 1000, overpaidCents: 500, details: { flag: 'overpaid' } } },
    { type: 'TicketPaid' },
    { type: 'LightningPaymentFlagged', data: { reason: 'overpaid' } },
  ] });
});

t.test('late or odd payments are recorded and flagged, never dropped', async (t) => {
  const inv = invoice();
  const late = given(ticket, [issued, created(inv)]).when(arrives(inv.amountSat, { receivedAt: 700 }));
  t.match(late, { events: [{ type: 'PaymentTaken', data: { amountCents: 10000 } }, { type: 'TicketPaid' }, { type: 'LightningPaymentFlagged', data: { reason: 'paid_after_expiry' } }] });
  const cashPaid: TicketEvent[] = [
    { type: 'PaymentTaken', data: { paymentId: 'c1', method: 'cash', amountCents: 10000, tipCents: 0, overpaidCents: 0, details: { method: 'cash', tenderedCents: 10000, changeCents: 0 }, shiftId: 's', takenBy: 'u', takenAt: 50 } },
    { type: 'TicketPaid', data: { at: 50 } },
  ];
  const settled = given(ticket, [issued, created(inv), ...cashPaid]).when(arrives(inv.amountSat));
  t.match(settled, { events: [{ type: 'PaymentTaken', data: { amountCents: 0, overpaidCents: 10000 } }, { type: 'LightningPaymentFlagged', data: { reason: 'ticket_already_paid' } }] });
  const unknown = given(ticket, [issued]).when(arrives(1234, { paymentHash: 'hx' }));
  t.same(unknown, { events: [{ type: 'LightningPaymentFlagged', data: { paymentHash: 'hx', amountSat: 1234, reason: 'unknown_invoice', receivedAt: 100 } }] });
  t.same(given(ticket, [issued, ...('events' in unknown ? unknown.events : [])]).when(arrives(1234, { paymentHash: 'hx' })), { events: [] }, 'recorded once');
});

t.test('refunds: reserved when requested, bounded by the payment, settled once', async (t) => {
  const inv = invoice();
  const paid = given(ticket, [issued, created(inv)]).when(arrives(inv.amountSat));
  const past = [issued, created(inv), ...('events' in paid ? paid.events : [])];
  const refund = { refundId: 'r1', paymentId: 'p1', amountCents: 6000, sats: 6186, rate: RATE, valuation: 'then' as const, destination: 'lnbc…', invoice: 'lnbc…', paymentHash: 'rh', reason: 'cold soup', by: 'm', at: 200 };
  const requested = given(ticket, past).when({ type: 'requestLightningRefund', refund });
  t.match(requested, { events: [{ type: 'LightningRefundRequested' }] });
  const past2 = [...past, ...('events' in requested ? requested.events : [])];
  t.same(given(ticket, past2).when({ type: 'requestLightningRefund', refund }), { events: [] }, 'the same refund id: nothing new');
  t.match(given(ticket, past2).when({ type: 'requestLightningRefund', refund: { ...refund, refundId: 'r2', amountCents: 5000 } }), { error: { kind: 'conflict' } }, 'the pending refund holds its amount');
  const sent = given(ticket, past2).when({ type: 'recordLightningRefundSent', refundId: 'r1', feesSat: 29, shiftId: null, at: 210 });
  t.match(sent, { events: [{ type: 'LightningRefundSent' }, { type: 'PaymentRefunded', data: { amountCents: 6000, method: 'lightning' } }] });
  const past3 = [...past2, ...('events' in sent ? sent.events : [])];
  t.same(given(ticket, past3).when({ type: 'recordLightningRefundSent', refundId: 'r1', feesSat: 29, shiftId: null, at: 220 }), { events: [] });
  t.equal(ticketFigures(fold(ticket, past3)).paid, 4000);
  const failed = given(ticket, past2).when({ type: 'recordLightningRefundFailed', refundId: 'r1', reason: 'no route', at: 210 });
  const past4 = [...past2, ...('events' in failed ? failed.events : [])];
  t.match(given(ticket, past4).when({ type: 'requestLightningRefund', refund: { ...refund, refundId: 'r2', amountCents: 10000 } }), { events: [{ type: 'LightningRefundRequested' }] }, 'a failed refund frees its amount');
});

t.test('a share with a tip (issue 63): the invoice\'s part goes to the bill, its tip stays a tip, the rest still due', async (t) => {
  const inv = invoice({ billCents: 4000, tipCents: 400 });
  const r = given(ticket, [issued, created(inv)]).when(arrives(inv.amountSat));
  t.match(r, { events: [{ type: 'PaymentTaken', data: { amountCents: 4000, tipCents: 400, overpaidCents: 0 } }] });
  t.equal(ticketFigures(after([issued, created(inv)], r)).due, 6000);
});

t.test('"my items" (issue 63): a line paid or being paid by another guest is refused; an expired claim frees it; a guest\'s payment says so', async (t) => {
  const mine = invoice({ paymentHash: 'g1', billCents: 4000, lineIds: ['l1'], byGuest: true });
  const g = given(ticket, [issued, created(mine)]);
  t.match(g.when({ type: 'recordLightningInvoice', invoice: invoice({ paymentHash: 'g2', billCents: 4000, tipCents: 100, lineIds: ['l1'], byGuest: true }), at: 20 }), { error: { kind: 'conflict', message: /already paid, or being paid by another guest/ } });
  t.equal(g.when({ type: 'recordLightningInvoice', invoice: invoice({ paymentHash: 'g2', billCents: 4000, lineIds: ['l1'], createdAt: 700, expiresAt: 1300 }), at: 700 }).events?.length, 1, 'the first claim expired unpaid');
  const paid = g.when({ ...arrives(mine.amountSat), paymentHash: 'g1' });
  t.match(paid, { events: [{ type: 'PaymentTaken', data: { amountCents: 4000, details: { byGuest: true } } }] });
  const after1 = given(ticket, [issued, created(mine), ...('events' in paid ? paid.events : [])]);
  t.match(after1.when({ type: 'recordLightningInvoice', invoice: invoice({ paymentHash: 'g3', billCents: 4000, lineIds: ['l1'], createdAt: 700, expiresAt: 1300 }), at: 700 }), { error: { kind: 'conflict' } }, 'paid: never again');
});

t.test('"my items" claims (issue 63): a line is paying while a guest\'s invoice for it is live, paid once one is, free again when it expired unpaid', async (t) => {
  const a = invoice({ paymentHash: 'g1', billCents: 4000, lineIds: ['l1', 'l2'], byGuest: true });
  const b = invoice({ paymentHash: 'g2', billCents: 1000, lineIds: ['l3'], createdAt: 700, expiresAt: 1300, byGuest: true });
  const lightning = (events: TicketEvent[]) => fold(ticket, [issued, ...events]).lightning;
  t.same(lineClaims(lightning([created(a), created(b)]), 20), { l1: 'paying', l2: 'paying', l3: 'paying' });
  t.same(lineClaims(lightning([created(a), created(b)]), 700), { l3: 'paying' }, 'the first expired unpaid: its lines are free');
  const paid = given(ticket, [issued, created(a)]).when({ ...arrives(a.amountSat), paymentHash: 'g1' });
  const events = [created(a), ...('events' in paid ? paid.events : [])];
  t.same(lineClaims(lightning(events), 5000), { l1: 'paid', l2: 'paid' }, 'paid lines stay paid');
  t.same(lineClaims(lightning([created(invoice())]), 20), {}, 'an invoice of the whole bill claims no line');
});
