import { conflict, validationFailed } from '../errors.js';
import { type Approval, approve } from '../staff/approval.js';
import { PAYMENT_METHODS } from './payment-methods.js';
import { refundableCents } from './ticket-lightning-decide.js';
import { type ReopenTicket, TICKET_STATUS, type Ticket, type TicketEvent, type TicketIssue, type TicketStatus } from './ticket-types.js';

export type { ReopenTicket } from './ticket-types.js';

/**
 * Reopening a paid check (issue 59) keeps the rule that bills are never reopened: it is that rule done
 * in one step. Every payment left on the bill is refunded and the bill cancelled, in one append, with
 * a manager's approval and the reason; its lines are then billable again (the workflow releases them)
 * and the new bill is paid as any other. The printed bill's history stays as it was printed.
 */
export function reopenTicket(t: Ticket & { issue: TicketIssue; status: TicketStatus }, command: ReopenTicket): TicketEvent[] {
  if (t.status === TICKET_STATUS.cancelled) throw conflict('The ticket is already cancelled');
  if (t.status !== TICKET_STATUS.paid) throw conflict('Only a paid ticket is reopened; cancel one still to be paid');
  const reason = command.reason.trim();
  if (!reason) throw validationFailed([{ field: 'reason', message: 'is required' }]);
  const approval: Approval = approve('reopening a paid bill', { ...command.authority, reason });
  const left = Object.values(t.payments).map((p) => ({ p, cents: refundableCents(t, p) })).filter(({ cents }) => cents > 0);
  // A Lightning payment goes back through the node (POST /tickets/{id}/lightning/refunds), never by a record alone.
  if (left.some(({ p }) => p.method === 'lightning')) throw conflict('A Lightning payment is refunded through the wallet first; then reopen');
  if (left.some(({ p }) => PAYMENT_METHODS[p.method].drawer) && command.shiftId === null) throw conflict('No open shift', { reason: 'cash must be counted: open a shift first' });
  const by = command.authority.userId;
  const refunds: TicketEvent[] = left.map(({ p, cents }) => ({
    type: 'PaymentRefunded',
    data: { refundId: command.refundIds[p.paymentId] ?? `${p.paymentId}:reopened`, paymentId: p.paymentId, method: p.method, amountCents: cents, reason: `reopened: ${reason}`, shiftId: command.shiftId, by, at: command.at },
  }));
  return [...refunds, { type: 'TicketCancelled', data: { reason: `reopened: ${reason}`, by, at: command.at, reopened: approval } }];
}
