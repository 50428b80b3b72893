import t from 'tap';
import { fold, ticket, ticketFigures, TICKET_STATUS, type TicketEvent, type TicketIssue } from '../src/index.js';
import { MANAGER, WAITER, given } from './given.js';

// Issue 59: a paid check reopened is refunded and cancelled in one append, with a manager's name and why.

const issue: TicketIssue = {
  ticketId: 'k1', orderId: 'o1', billId: 'b1', tableId: 't1', waiter: 'Ana', currencyId: 'mxn',
  lines: [{ lineId: 'l1', dishId: 'd1', priceCents: 10000, notes: '' }], share: null, subtotalCents: 10000, issuedAt: 1, issuedBy: 'u1',
};
const cash = { paymentId: 'p1', method: 'cash' as const, amountCents: 6000, tipCents: 500, overpaidCents: 0, details: { method: 'cash' as const, tenderedCents: 7000, changeCents: 500 }, shiftId: 's1', takenBy: 'u1', takenAt: 2 };
const card = { paymentId: 'p2', method: 'credit_card' as const, amountCents: 4000, tipCents: 0, overpaidCents: 0, details: { method: 'credit_card' as const }, shiftId: 's1', takenBy: 'u1', takenAt: 3 };
const paid: TicketEvent[] = [
  { type: 'TicketIssued', data: issue }, { type: 'PaymentTaken', data: cash }, { type: 'PaymentTaken', data: card }, { type: 'TicketPaid', data: { at: 3 } },
  { type: 'PaymentRefunded', data: { refundId: 'r0', paymentId: 'p2', method: 'credit_card', amountCents: 1000, reason: 'cold soup', shiftId: 's1', by: 'm1', at: 4 } },
];
const reopen = (authority = MANAGER, reason = 'forgot the dessert', shiftId: string | null = 's1') => ({ type: 'reopenTicket' as const, reason, refundIds: { p1: 'r1', p2: 'r2' }, shiftId, authority, at: 9 });

t.test("given a paid check, when a manager reopens it: what is left of each payment refunded and the check cancelled, in one append, with who and why", async (t) => {
  const outcome = given(ticket, paid).when(reopen());
  t.same(outcome, {
    events: [
      { type: 'PaymentRefunded', data: { refundId: 'r1', paymentId: 'p1', method: 'cash', amountCents: 6500, reason: 'reopened: forgot the dessert', shiftId: 's1', by: 'm1', at: 9 } },
      { type: 'PaymentRefunded', data: { refundId: 'r2', paymentId: 'p2', method: 'credit_card', amountCents: 3000, reason: 'reopened: forgot the dessert', shiftId: 's1', by: 'm1', at: 9 } },
      { type: 'TicketCancelled', data: { reason: 'reopened: forgot the dessert', by: 'm1', at: 9, reopened: { by: 'm1', approvedBy: 'm1', reason: 'forgot the dessert' } } },
    ],
  });
  const after = fold(ticket, [...paid, ...(outcome as { events: TicketEvent[] }).events]);
  t.equal(after.status, TICKET_STATUS.cancelled);
  t.equal(ticketFigures(after).paid, 0, 'nothing kept: the new bill is paid again');
});

t.test('a waiter reopens only with a manager\'s approval and a reason; not a check still to pay, a cancelled one, cash with no shift, or a Lightning payment', async (t) => {
  t.same(given(ticket, paid).when(reopen(WAITER)), { error: { kind: 'forbidden', message: "Needs a manager's approval: reopening a paid bill" } });
  t.match(given(ticket, paid).when(reopen({ ...WAITER, approvedBy: 'm1' })), { events: [{}, {}, { data: { reopened: { by: 'u1', approvedBy: 'm1', reason: 'forgot the dessert' } } }] });
  t.match(given(ticket, paid).when(reopen(MANAGER, '  ')), { error: { kind: 'validation' } });
  t.match(given(ticket, paid).when(reopen(MANAGER, 'x', null)), { error: { kind: 'conflict', message: 'No open shift' } });
  t.match(given(ticket, paid.slice(0, 2)).when(reopen()), { error: { kind: 'conflict', message: 'Only a paid ticket is reopened; cancel one still to be paid' } });
  const lightning = { ...card, paymentId: 'p3', method: 'lightning' as const, details: { method: 'lightning' as const, paymentHash: 'h', amountSat: 100, rate: 1, invoice: 'lnbc' } };
  t.match(given(ticket, [{ type: 'TicketIssued', data: issue }, { type: 'PaymentTaken', data: { ...lightning, amountCents: 10000 } }, { type: 'TicketPaid', data: { at: 3 } }] as TicketEvent[]).when(reopen()), { error: { kind: 'conflict', message: /Lightning/ } });
});
