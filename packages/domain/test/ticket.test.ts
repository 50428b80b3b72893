import t from 'tap';
import fc from 'fast-check';
import { TICKET_STATUS, fold, ticket, ticketFigures, type TicketEvent, type TicketIssue, type TicketPayment } from '../src/index.js';
import { given } from './given.js';

const issue: TicketIssue = {
  ticketId: 'k1', orderId: 'o1', billId: 'b1', tableId: 't1', waiter: 'Ana', currencyId: 'mxn',
  lines: [{ lineId: 'l1', dishId: 'd1', priceCents: 6000, notes: '' }, { lineId: 'l2', dishId: 'd2', priceCents: 4000, notes: '' }],
  share: null, subtotalCents: 10000, issuedAt: 1, issuedBy: 'u1',
};
const issued: TicketEvent = { type: 'TicketIssued', data: issue };
const pay = (over: Partial<{ paymentId: string; method: 'cash' | 'credit_card' | 'debit_card'; amountCents: number; tipCents: number; tenderedCents: number; shiftId: string | null }> = {}) => ({
  type: 'takePayment' as const, paymentId: 'p1', method: 'credit_card' as const, amountCents: 10000, tipCents: 0, shiftId: 's1', by: 'u2', at: 5, ...over,
});
const card = (amountCents: number, tipCents = 0, paymentId = 'p1'): TicketPayment => ({
  paymentId, method: 'credit_card', amountCents, tipCents, overpaidCents: 0, details: { method: 'credit_card' }, shiftId: 's1', takenBy: 'u2', takenAt: 5,
});

t.test('issuing: once; re-issuing for the same bill changes nothing', async (t) => {
  t.same(given(ticket, []).when({ type: 'issueTicket', issue }), { events: [issued] });
  t.same(given(ticket, [issued]).when({ type: 'issueTicket', issue }), { events: [] });
  t.match(given(ticket, [issued]).when({ type: 'issueTicket', issue: { ...issue, billId: 'b2' } }), { error: { kind: 'conflict' } });
  t.match(given(ticket, []).when(pay()), { error: { kind: 'not_found' } });
});

t.test('a bill that owes nothing (every line comped) is issued settled: no payment, nothing to pay', async (t) => {
  const comped: TicketIssue = { ...issue, lines: [{ ...issue.lines[0]!, discountCents: 6000 }], subtotalCents: 0 };
  const g = given(ticket, []);
  t.same(g.when({ type: 'issueTicket', issue: comped }), { events: [{ type: 'TicketIssued', data: comped }, { type: 'TicketPaid', data: { at: 1 } }] });
  const settled = fold(ticket, [{ type: 'TicketIssued', data: comped }, { type: 'TicketPaid', data: { at: 1 } }]);
  t.equal(settled.status, TICKET_STATUS.paid);
  t.same(ticketFigures(settled), { subtotal: 0, tip: 0, total: 0, paid: 0, refunded: 0, due: 0 });
  t.match(given(ticket, [{ type: 'TicketIssued', data: comped }, { type: 'TicketPaid', data: { at: 1 } }]).when(pay({ amountCents: 1 })), { error: { kind: 'conflict', message: 'The ticket is already paid' } });
  t.same(given(ticket, [{ type: 'TicketIssued', data: comped }, { type: 'TicketPaid', data: { at: 1 } }]).when({ type: 'issueTicket', issue: comped }), { events: [] }, 're-issued after a crash: nothing more');
});

t.test('card payment in full: paid; partial: still pending with the rest due', async (t) => {
  t.same(given(ticket, [issued]).when(pay({ tipCents: 1500 })), {
    events: [{ type: 'PaymentTaken', data: card(10000, 1500) }, { type: 'TicketPaid', data: { at: 5 } }],
  });
  const half = given(ticket, [issued, { type: 'PaymentTaken', data: card(4000) }]);
  t.equal(ticketFigures(half.state).due, 6000);
  t.same(half.when(pay({ paymentId: 'p2', amountCents: 6000, method: 'debit_card' })), {
    events: [{ type: 'PaymentTaken', data: { ...card(6000, 0, 'p2'), method: 'debit_card', details: { method: 'debit_card' } } }, { type: 'TicketPaid', data: { at: 5 } }],
  });
  t.same(half.when(pay({ paymentId: 'p2', amountCents: 6001 })), { error: { kind: 'conflict', message: 'The amount exceeds the amount due (60.00)', details: { due: 60 } } }, 'a card never pays more than is due');
  t.same(half.when(pay({ paymentId: 'p1' })), { events: [] }, 'the same payment id is taken once');
});

t.test('cash: change from the amount over the due and from what was tendered; needs an open shift', async (t) => {
  const g = given(ticket, [issued]);
  t.same(g.when(pay({ method: 'cash', amountCents: 12000 })), {
    events: [
      { type: 'PaymentTaken', data: { ...card(10000), method: 'cash', details: { method: 'cash', tenderedCents: 12000, changeCents: 2000 } } },
      { type: 'TicketPaid', data: { at: 5 } },
    ],
  });
  t.match(g.when(pay({ method: 'cash', amountCents: 10000, tipCents: 1000, tenderedCents: 20000 })), {
    events: [{ data: { amountCents: 10000, tipCents: 1000, details: { tenderedCents: 20000, changeCents: 9000 } } }, { type: 'TicketPaid' }],
  });
  t.same(g.when(pay({ method: 'cash', shiftId: null })), { error: { kind: 'conflict', message: 'No open shift', details: { reason: 'cash must be counted: open a shift first' } } });
  t.match(g.when(pay({ method: 'cash', tenderedCents: 9999 })), { error: { kind: 'validation', details: { errors: [{ field: 'tendered' }] } } });
  t.match(g.when(pay({ tenderedCents: 20000 })), { error: { kind: 'validation', details: { errors: [{ field: 'tendered', message: 'is only for cash' }] } } });
  t.match(g.when(pay({ shiftId: null })), { events: [{ data: { shiftId: null } }, { type: 'TicketPaid' }] }, 'a card needs no shift');
  t.match(g.when(pay({ amountCents: 0 })), { error: { kind: 'validation' } });
  t.match(g.when(pay({ tipCents: -1 })), { error: { kind: 'validation' } });
});

t.test('no payment on a paid or cancelled ticket: a second cashier gets 409', async (t) => {
  const paid = [issued, { type: 'PaymentTaken', data: card(10000) }, { type: 'TicketPaid', data: { at: 5 } }] as TicketEvent[];
  t.same(given(ticket, paid).when(pay({ paymentId: 'p2' })), { error: { kind: 'conflict', message: 'The ticket is already paid' } });
  const cancelled = [issued, { type: 'TicketCancelled', data: { reason: 'r', by: 'm', at: 2 } }] as TicketEvent[];
  t.same(given(ticket, cancelled).when(pay()), { error: { kind: 'conflict', message: 'The ticket is cancelled' } });
});

t.test('refunds: bounded by the payment, with a reason, cash needs a shift; the ticket stays paid', async (t) => {
  const paid = [issued, { type: 'PaymentTaken', data: card(10000, 500) }, { type: 'TicketPaid', data: { at: 5 } }] as TicketEvent[];
  const refund = (amountCents: number, refundId = 'r1') => ({ type: 'refundPayment' as const, refundId, paymentId: 'p1', amountCents, reason: 'cold soup', shiftId: 's1', by: 'm', at: 9 });
  t.same(given(ticket, paid).when(refund(10500)), { events: [{ type: 'PaymentRefunded', data: { refundId: 'r1', paymentId: 'p1', method: 'credit_card', amountCents: 10500, reason: 'cold soup', shiftId: 's1', by: 'm', at: 9 } }] });
  t.same(given(ticket, paid).when(refund(10501)), { error: { kind: 'conflict', message: 'A refund cannot exceed what is left of that payment (105.00)', details: { refundable: 105 } } });
  const once = given(ticket, [...paid, ...given(ticket, paid).when(refund(10000)).events as TicketEvent[]]);
  t.match(once.when(refund(501, 'r2')), { error: { kind: 'conflict' } }, 'what was refunded counts');
  t.match(once.when(refund(500, 'r2')), { events: [{ type: 'PaymentRefunded' }] });
  t.equal(once.state.status, TICKET_STATUS.paid);
  t.same(ticketFigures(once.state), { subtotal: 10000, tip: 500, total: 10500, paid: 500, refunded: 10000, due: 0 });
  t.match(given(ticket, paid).when({ ...refund(1), reason: '  ' }), { error: { kind: 'validation', details: { errors: [{ field: 'reason' }] } } });
  t.match(given(ticket, paid).when({ ...refund(1), paymentId: 'nope' }), { error: { kind: 'validation', details: { errors: [{ field: 'payment_id' }] } } });
  const cash = [issued, { type: 'PaymentTaken', data: { ...card(10000), method: 'cash', details: { method: 'cash', tenderedCents: 10000, changeCents: 0 } } }] as TicketEvent[];
  t.same(given(ticket, cash).when({ ...refund(100), shiftId: null }), { error: { kind: 'conflict', message: 'No open shift', details: { reason: 'cash must be counted: open a shift first' } } });
});

t.test("a waiter's refund needs a manager's approval; the refund records who asked and who approved", async (t) => {
  const paid = [issued, { type: 'PaymentTaken', data: card(10000) }, { type: 'TicketPaid', data: { at: 5 } }] as TicketEvent[];
  const waiter = { userId: 'w1', role: 'waiter' as const, approvedBy: null, reason: 'cold soup' };
  const refund = (authority: typeof waiter | { userId: string; role: 'manager'; approvedBy: null; reason: string }) => ({
    type: 'refundPayment' as const, refundId: 'r1', paymentId: 'p1', amountCents: 1250, reason: 'cold soup', shiftId: 's1', by: authority.userId, at: 9, authority,
  });
  t.same(given(ticket, paid).when(refund(waiter)), { error: { kind: 'forbidden', message: "Needs a manager's approval: refunding a payment" } });
  t.same(given(ticket, paid).when(refund({ ...waiter, approvedBy: 'm1' } as never)), {
    events: [{ type: 'PaymentRefunded', data: { refundId: 'r1', paymentId: 'p1', method: 'credit_card', amountCents: 1250, reason: 'cold soup', shiftId: 's1', by: 'w1', at: 9, approvedBy: 'm1' } }],
  });
  t.same(given(ticket, paid).when(refund({ userId: 'm1', role: 'manager', approvedBy: null, reason: 'cold soup' })), {
    events: [{ type: 'PaymentRefunded', data: { refundId: 'r1', paymentId: 'p1', method: 'credit_card', amountCents: 1250, reason: 'cold soup', shiftId: 's1', by: 'm1', at: 9 } }],
  }, "a manager's own refund: they approve it themselves, as before");
});

t.test('refunds never exceed the payment, whatever the sequence (property)', async (t) => {
  fc.assert(fc.property(fc.integer({ min: 1, max: 100000 }), fc.array(fc.integer({ min: 1, max: 50000 }), { maxLength: 12 }), (amount, asks) => {
    let events: TicketEvent[] = [{ type: 'TicketIssued', data: { ...issue, subtotalCents: amount } }, { type: 'PaymentTaken', data: card(amount) }];
    asks.forEach((ask, i) => {
      const outcome = given(ticket, events).when({ type: 'refundPayment', refundId: `r${i}`, paymentId: 'p1', amountCents: ask, reason: 'x', shiftId: 's', by: 'm', at: 1 });
      if ('events' in outcome) events = [...events, ...outcome.events];
    });
    const state = fold(ticket, events);
    return ticketFigures(state).refunded <= amount && state.payments.p1!.refundedCents === ticketFigures(state).refunded;
  }), { numRuns: 500 });
});

t.test('cancel: only with no payments left', async (t) => {
  const cancel = { type: 'cancelTicket' as const, reason: 'wrong table', by: 'm', at: 3 };
  t.same(given(ticket, [issued]).when(cancel), { events: [{ type: 'TicketCancelled', data: { reason: 'wrong table', by: 'm', at: 3 } }] });
  const paid = [issued, { type: 'PaymentTaken', data: card(4000) }] as TicketEvent[];
  t.same(given(ticket, paid).when(cancel), { error: { kind: 'conflict', message: 'A ticket with payments cannot be cancelled; refund them first' } });
  const refunded = [...paid, { type: 'PaymentRefunded', data: { refundId: 'r', paymentId: 'p1', method: 'credit_card', amountCents: 4000, reason: 'x', shiftId: null, by: 'm', at: 4 } }] as TicketEvent[];
  t.match(given(ticket, refunded).when(cancel), { events: [{ type: 'TicketCancelled' }] }, 'fully refunded: may be cancelled');
  t.match(given(ticket, [issued, { type: 'TicketCancelled', data: cancel }]).when(cancel), { error: { kind: 'conflict', message: 'The ticket is already cancelled' } });
});

t.test('money already received (the Lightning extension point) is recorded, over-payment kept', async (t) => {
  const received = (amountCents: number, paymentId = 'ln1') => ({ type: 'recordReceivedPayment' as const, paymentId, amountCents, details: { method: 'lightning' as const, sats: 1000, rate: '1700000.00', paymentHash: 'h' }, shiftId: null, by: null, at: 7 });
  t.match(given(ticket, [issued]).when(received(12000)), { events: [{ type: 'PaymentTaken', data: { method: 'lightning', amountCents: 10000, overpaidCents: 2000 } }, { type: 'TicketPaid' }] });
  t.match(given(ticket, [issued]).when(received(3000)), { events: [{ type: 'PaymentTaken', data: { amountCents: 3000, overpaidCents: 0 } }] });
  const cancelled = [issued, { type: 'TicketCancelled', data: { reason: 'r', by: 'm', at: 2 } }] as TicketEvent[];
  t.match(given(ticket, cancelled).when(received(500)), { events: [{ type: 'PaymentTaken', data: { amountCents: 0, overpaidCents: 500 } }] }, 'late money is kept, for a refund');
});

t.test('voids: a pending line leaves the subtotal; a paid line is a refund plus the line cancellation', async (t) => {
  const v = (over: Partial<{ lineId: string; paymentId: string; reason: string; shiftId: string | null }> = {}) => ({
    type: 'voidLine' as const, lineId: 'l2', reason: 'wrong dish', refundId: 'r1', shiftId: 's1', by: 'm', at: 9, ...over,
  });
  const pending = given(ticket, [issued]);
  t.same(pending.when(v()), { events: [{ type: 'TicketLineVoided', data: { lineId: 'l2', amountCents: 4000, reason: 'wrong dish', by: 'm', at: 9 } }] });
  const after = given(ticket, [issued, ...(pending.when(v()) as { events: TicketEvent[] }).events]);
  t.same(ticketFigures(after.state), { subtotal: 6000, tip: 0, total: 6000, paid: 0, refunded: 0, due: 6000 });
  t.same(after.when(v()), { error: { kind: 'conflict', message: 'The line is already voided' } });
  t.same(after.when(v({ lineId: 'l1' })), { error: { kind: 'conflict', message: 'The last line of a ticket cannot be voided; refund and cancel the ticket instead' } });
  t.match(pending.when(v({ lineId: 'zz' })), { error: { kind: 'validation', details: { errors: [{ field: 'line_id' }] } } });

  const partly = given(ticket, [issued, { type: 'PaymentTaken', data: card(7000) }]);
  t.match(partly.when(v()), { error: { kind: 'validation', details: { errors: [{ field: 'payment_id', message: 'is required: 10.00 was paid for this line' }] } } });
  t.same(partly.when(v({ paymentId: 'p1' })), {
    events: [
      { type: 'TicketLineVoided', data: { lineId: 'l2', amountCents: 4000, reason: 'wrong dish', by: 'm', at: 9 } },
      { type: 'PaymentRefunded', data: { refundId: 'r1', paymentId: 'p1', method: 'credit_card', amountCents: 1000, reason: 'void: wrong dish', shiftId: 's1', by: 'm', at: 9 } },
      { type: 'TicketPaid', data: { at: 9 } },
    ],
  }, 'paid 70 of 100, the 40 line voided: 10 back and the ticket is settled');
  const paid = [issued, { type: 'PaymentTaken', data: card(10000) }, { type: 'TicketPaid', data: { at: 5 } }] as TicketEvent[];
  const voided = given(ticket, paid).when(v({ paymentId: 'p1' })) as { events: TicketEvent[] };
  t.match(voided, { events: [{ type: 'TicketLineVoided' }, { type: 'PaymentRefunded', data: { amountCents: 4000 } }] });
  t.same(ticketFigures(fold(ticket, [...paid, ...voided.events])), { subtotal: 6000, tip: 0, total: 6000, paid: 6000, refunded: 4000, due: 0 });
  const split = given(ticket, [{ type: 'TicketIssued', data: { ...issue, share: { part: 1, parts: 2 }, subtotalCents: 5000 } }]);
  t.match(split.when(v()), { error: { kind: 'conflict', message: 'A line shared by an even split cannot be voided; cancel the split and bill again' } });
});
