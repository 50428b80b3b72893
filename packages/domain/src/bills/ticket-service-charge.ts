import { conflict, validationFailed } from '../errors.js';
import type { Cents } from '../money.js';
import { billTaxes } from './taxes.js';
import { ticketCharge } from './service-charge.js';
import { type RemoveServiceCharge, TICKET_STATUS, type Ticket, type TicketEvent, type TicketIssue } from './ticket-types.js';

export type { RemoveServiceCharge, ServiceChargeRemoval, ServiceChargeRemoved } from './ticket-types.js';

/** The bill as it is now: without its service charge once a manager has taken it off. */
export const chargedIssue = (t: Pick<Ticket, 'serviceChargeRemoved'> & { issue: TicketIssue }): TicketIssue =>
  (t.serviceChargeRemoved ? { ...t.issue, serviceCharge: null } : t.issue);

/**
 * A manager takes the charge off a bill still to be paid (decision: off a paid bill it would be a
 * refund, which `refundPayment` already records with who and why). What was paid toward the bill must
 * not exceed what it then asks (409: refund first); a bill the payments now cover is paid.
 */
export function removeServiceCharge(
  t: Ticket & { issue: TicketIssue }, command: RemoveServiceCharge, applied: Cents, subtotal: Cents,
): TicketEvent[] {
  if (t.status !== TICKET_STATUS.pending) throw conflict(`Only a bill still to be paid loses its service charge; this one is ${t.status === TICKET_STATUS.paid ? 'paid (refund instead)' : 'cancelled'}`);
  const reason = command.reason.trim();
  if (!reason) throw validationFailed([{ field: 'reason', message: 'is required' }]);
  const voided = new Set(Object.keys(t.voided));
  const chargeCents = t.serviceChargeRemoved ? 0 : ticketCharge(t.issue, voided);
  if (chargeCents === 0) throw conflict('This bill has no service charge');
  const amountCents = billTaxes(t.issue, voided).dueCents - billTaxes({ ...t.issue, serviceCharge: null }, voided).dueCents;
  if (applied > subtotal - amountCents) throw conflict('More was paid than the bill would ask without its service charge: refund first');
  const { by, at } = command;
  const removed: TicketEvent = { type: 'ServiceChargeRemoved', data: { amountCents, chargeCents, reason, by, at } };
  return applied > 0 && applied === subtotal - amountCents ? [removed, { type: 'TicketPaid', data: { at } }] : [removed];
}
