import { conflict, notFound } from '../errors.js';
import type { Cents } from '../money.js';
import { TICKET_STATUS, type Ticket, type TicketEvent, type TicketIssue, type TicketStatus } from './ticket-types.js';

// What a ticket's decider (ticket.ts) and its Lightning part (ticket-lightning-decide.ts) both ask of a
// ticket: a leaf module, so neither imports the other's values (issue 58).

export const sum = <T>(items: Iterable<T>, f: (item: T) => number) => { let s = 0; for (const i of items) s += f(i); return s; };

/** The figures a ticket shows, all in cents. */
export function ticketFigures(t: Ticket) {
  const subtotal = (t.issue?.subtotalCents ?? 0) - sum(Object.values(t.voided), (v) => v.amountCents) - (t.serviceChargeRemoved?.amountCents ?? 0);
  const payments = Object.values(t.payments);
  const applied = sum(payments, (p) => p.amountCents);
  const tip = sum(payments, (p) => p.tipCents);
  const received = sum(payments, (p) => p.amountCents + p.tipCents + p.overpaidCents);
  const refunded = sum(t.refunds, (r) => r.amountCents);
  const due = t.status === TICKET_STATUS.pending ? Math.max(0, subtotal - applied) : 0;
  return { subtotal, tip, total: subtotal + tip, paid: received - refunded, refunded, due };
}

export function live(t: Ticket): Ticket & { issue: TicketIssue; status: TicketStatus } {
  if (!t.issue || !t.status) throw notFound();
  return t as Ticket & { issue: TicketIssue; status: TicketStatus };
}

export function payable(t: Ticket & { status: TicketStatus }): void {
  if (t.status === TICKET_STATUS.cancelled) throw conflict('The ticket is cancelled');
  if (t.status === TICKET_STATUS.paid) throw conflict('The ticket is already paid');
}

export function settles(t: Ticket & { issue: TicketIssue }, appliedCents: Cents, at: number): TicketEvent[] {
  const before = sum(Object.values(t.payments), (p) => p.amountCents);
  return t.status === TICKET_STATUS.pending && before + appliedCents >= ticketFigures(t).subtotal ? [{ type: 'TicketPaid', data: { at } }] : [];
}
