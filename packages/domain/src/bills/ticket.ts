import type { Decider } from '../decider.js';
import { conflict, validationFailed } from '../errors.js';
import { versionAfter } from '../versions.js';
import { REASON_MAX, approve } from '../staff/approval.js';
import { billTaxes } from './taxes.js';
import { type Cents, fromCents } from '../money.js';
import { PAYMENT_METHODS, type PaymentDetails } from './payment-methods.js';
import { emptyLightning, type LightningFlag, type LightningInvoice, type LightningRefund } from './ticket-lightning.js';
import { decideLightning, evolveLightning, refundableCents } from './ticket-lightning-decide.js';
import { chargedIssue, removeServiceCharge } from './ticket-service-charge.js';
import { reopenTicket } from './ticket-reopen.js';
import { live, payable, settles, sum, ticketFigures } from './ticket-figures.js';
import { TICKET_STATUS, type Ticket, type TicketCommand, type TicketEvent, type TicketIssue, type TicketPayment, type TicketStatus } from './ticket-types.js';

export type { Ticket, TicketCommand, TicketEvent, TicketIssue, TicketLine, TicketPayment, TicketRefund, TicketStatus } from './ticket-types.js';
export { TICKET_STATUS, TICKET_STATUS_NAMES } from './ticket-types.js';
export { live, payable, settles, ticketFigures } from './ticket-figures.js';
export type { LightningFlag, LightningInvoice, LightningRefund };

/**
 * One ticket (the bill a guest pays, `ticket-<id>`): its lines or its share of an even split, its
 * payments and refunds. Everything about money on a ticket is decided here, so two cashiers paying the
 * same ticket append with the same expected revision: the second is decided again on the paid ticket.
 */
export const ticketStream = (ticketId: string) => `ticket-${ticketId}`;

const money = (cents: Cents) => fromCents(cents).toFixed(2);

const noOpenShift = () => conflict('No open shift', { reason: 'cash must be counted: open a shift first' });

function voidLine(t: Ticket & { issue: TicketIssue; status: TicketStatus }, command: Extract<TicketCommand, { type: 'voidLine' }>): TicketEvent[] {
  if (t.status === TICKET_STATUS.cancelled) throw conflict('The ticket is cancelled');
  if (t.issue.share) throw conflict('A line shared by an even split cannot be voided; cancel the split and bill again');
  const line = t.issue.lines.find((l) => l.lineId === command.lineId);
  if (!line) throw validationFailed([{ field: 'line_id', message: 'must name a line of this ticket' }]);
  if (line.share) throw conflict('An item split between checks cannot be voided on one of them; cancel the checks and bill again');
  if (t.voided[line.lineId]) throw conflict('The line is already voided');
  if (!command.reason.trim()) throw validationFailed([{ field: 'reason', message: 'is required' }]);
  const live = t.issue.lines.filter((l) => !t.voided[l.lineId]);
  if (live.length === 1) throw conflict('The last line of a ticket cannot be voided; refund and cancel the ticket instead');
  const { subtotal } = ticketFigures(t);
  // The line leaves with its tax: the bill's taxes are worked out again without it.
  const before = new Set(Object.keys(t.voided));
  const amountCents = billTaxes(chargedIssue(t), before).dueCents - billTaxes(chargedIssue(t), new Set([...before, line.lineId])).dueCents;
  const newSubtotal = subtotal - amountCents;
  const applied = sum(Object.values(t.payments), (p) => p.amountCents);
  // What was paid beyond what the bill now asks is given back, from the payment the manager names
  // (refunds made before, e.g. a goodwill gesture, stand apart from the void).
  const refundDue = Math.max(0, applied - newSubtotal);
  const { by, at } = command;
  const reason = command.reason.trim();
  const events: TicketEvent[] = [{ type: 'TicketLineVoided', data: { lineId: line.lineId, amountCents, reason, by, at } }];
  if (refundDue > 0) {
    if (!command.paymentId) throw validationFailed([{ field: 'payment_id', message: `is required: ${money(refundDue)} was paid for this line` }]);
    const payment = t.payments[command.paymentId];
    if (!payment) throw validationFailed([{ field: 'payment_id', message: 'must name a payment of this ticket' }]);
    const refundable = payment.amountCents + payment.tipCents + payment.overpaidCents - payment.refundedCents;
    if (refundDue > refundable) throw conflict(`A refund cannot exceed what is left of that payment (${money(refundable)})`, { refundable: fromCents(refundable) });
    if (PAYMENT_METHODS[payment.method].drawer && command.shiftId === null) throw noOpenShift();
    events.push({ type: 'PaymentRefunded', data: { refundId: command.refundId, paymentId: payment.paymentId, method: payment.method, amountCents: refundDue, reason: `void: ${reason}`, shiftId: command.shiftId, by, at } });
  }
  if (t.status === TICKET_STATUS.pending && applied >= newSubtotal && applied > 0) events.push({ type: 'TicketPaid', data: { at } });
  return events;
}

export const ticket: Decider<TicketCommand, TicketEvent, Ticket> = {
  initialState: () => ({ issue: null, status: null, payments: {}, refunds: [], voided: {}, paidAt: null, cancelledAt: null, lightning: emptyLightning(), version: 0 }),

  decide(command, state) {
    switch (command.type) {
      case 'issueTicket': {
        // Re-issuing the same ticket of the same bill completes an interrupted issue; anything else is a clash.
        if (state.issue) {
          if (state.issue.billId === command.issue.billId) return [];
          throw conflict('This ticket already exists');
        }
        // A bill that owes nothing (a seat whose every line is comped) needs no payment: it is issued
        // settled, so it never waits as a pending 0.00, the order can be completed, and the comped lines
        // still reach the reports that count paid bills. No payment is recorded: the Z report is unchanged.
        const settled: TicketEvent[] = command.issue.subtotalCents === 0 ? [{ type: 'TicketPaid', data: { at: command.issue.issuedAt } }] : [];
        return [{ type: 'TicketIssued', data: command.issue }, ...settled];
      }
      case 'takePayment': {
        const t = live(state);
        if (t.payments[command.paymentId]) return [];
        payable(t);
        const rules = PAYMENT_METHODS[command.method];
        if (rules.drawer && command.shiftId === null) throw noOpenShift();
        if (!Number.isSafeInteger(command.amountCents) || command.amountCents < 1) throw validationFailed([{ field: 'amount', message: 'must be more than 0' }]);
        if (!Number.isSafeInteger(command.tipCents) || command.tipCents < 0) throw validationFailed([{ field: 'tip', message: 'must not be negative' }]);
        if (command.tenderedCents !== undefined && !rules.changeGiven) throw validationFailed([{ field: 'tendered', message: 'is only for cash' }]);
        const { due } = ticketFigures(t);
        if (command.amountCents > due && !rules.changeGiven) {
          throw conflict(`The amount exceeds the amount due (${money(due)})`, { due: fromCents(due) });
        }
        const applied = Math.min(command.amountCents, due);
        let details: PaymentDetails = { method: command.method as 'credit_card' | 'debit_card' };
        if (command.method === 'cash') {
          const tendered = command.tenderedCents ?? command.amountCents + command.tipCents;
          if (tendered < command.amountCents + command.tipCents) throw validationFailed([{ field: 'tendered', message: 'must cover the amount and the tip' }]);
          details = { method: 'cash', tenderedCents: tendered, changeCents: tendered - applied - command.tipCents };
        }
        const payment: TicketPayment = {
          paymentId: command.paymentId, method: command.method, amountCents: applied, tipCents: command.tipCents, overpaidCents: 0,
          details, shiftId: command.shiftId, takenBy: command.by, takenAt: command.at,
        };
        return [{ type: 'PaymentTaken', data: payment }, ...settles(t, applied, command.at)];
      }
      case 'recordReceivedPayment': {
        const t = live(state);
        if (t.payments[command.paymentId]) return [];
        const { due } = ticketFigures(t);
        const applied = Math.min(command.amountCents, due);
        const payment: TicketPayment = {
          paymentId: command.paymentId, method: command.details.method, amountCents: applied, tipCents: 0,
          overpaidCents: command.amountCents - applied, details: command.details, shiftId: command.shiftId, takenBy: command.by, takenAt: command.at,
        };
        return [{ type: 'PaymentTaken', data: payment }, ...(applied > 0 ? settles(t, applied, command.at) : [])];
      }
      case 'refundPayment': {
        const t = live(state);
        const payment = t.payments[command.paymentId];
        if (!payment) throw validationFailed([{ field: 'payment_id', message: 'must name a payment of this ticket' }]);
        if (!command.reason.trim()) throw validationFailed([{ field: 'reason', message: 'is required' }]);
        if (!Number.isSafeInteger(command.amountCents) || command.amountCents < 1) throw validationFailed([{ field: 'amount', message: 'must be more than 0' }]);
        if (t.refunds.some((r) => r.refundId === command.refundId)) return [];
        const refundable = refundableCents(t, payment);
        if (command.amountCents > refundable) {
          throw conflict(`A refund cannot exceed what is left of that payment (${money(refundable)})`, { refundable: fromCents(refundable) });
        }
        if (PAYMENT_METHODS[payment.method].drawer && command.shiftId === null) throw noOpenShift();
        const { refundId, paymentId, amountCents, shiftId, at } = command;
        const reason = command.reason.trim();
        // Money going back is a manager's call: a waiter's refund carries the approving manager. The reason
        // (up to 500 characters here) is recorded whole in the event; the approval only needs one said.
        const approval = command.authority ? approve('refunding a payment', { ...command.authority, reason: reason.slice(0, REASON_MAX) }) : null;
        const by = approval ? approval.by : command.by;
        const approvedBy = approval && approval.approvedBy !== approval.by ? { approvedBy: approval.approvedBy } : {};
        return [{ type: 'PaymentRefunded', data: { refundId, paymentId, method: payment.method, amountCents, reason, shiftId, by, at, ...approvedBy } }];
      }
      case 'voidLine':
        return voidLine(live(state), command);
      case 'removeServiceCharge': {
        const t = live(state);
        return removeServiceCharge(t, command, sum(Object.values(t.payments), (p) => p.amountCents), ticketFigures(t).subtotal);
      }
      case 'recordLightningInvoice':
      case 'settleLightningPayment':
      case 'requestLightningRefund':
      case 'recordLightningRefundSent':
      case 'recordLightningRefundFailed':
        return decideLightning(command, state);
      case 'reopenTicket':
        return reopenTicket(live(state), command);
      case 'cancelTicket': {
        const t = live(state);
        if (t.status === TICKET_STATUS.cancelled) throw conflict('The ticket is already cancelled');
        if (ticketFigures(t).paid > 0) throw conflict('A ticket with payments cannot be cancelled; refund them first');
        return [{ type: 'TicketCancelled', data: { reason: command.reason, by: command.by, at: command.at } }];
      }
    }
  },

  evolve(state, event) {
    // Every event of the ticket moves its version on (the tickets read model counts the same way).
    const version = versionAfter(state);
    switch (event.type) {
      case 'TicketIssued':
        return { ...state, issue: event.data, status: TICKET_STATUS.pending, version };
      case 'PaymentTaken': {
        const payments = { ...state.payments, [event.data.paymentId]: { ...event.data, refundedCents: 0 } };
        const d = event.data.details;
        // A Lightning payment is known by its hash from now on: recorded once, its invoice used up.
        const lightning = d.method === 'lightning' ? { ...state.lightning, received: { ...state.lightning.received, [d.paymentHash]: true as const } } : state.lightning;
        return { ...state, payments, lightning, version };
      }
      case 'TicketPaid':
        return { ...state, status: TICKET_STATUS.paid, paidAt: event.data.at, version };
      case 'PaymentRefunded': {
        const p = state.payments[event.data.paymentId]!;
        const payments = { ...state.payments, [p.paymentId]: { ...p, refundedCents: p.refundedCents + event.data.amountCents } };
        return { ...state, payments, refunds: [...state.refunds, event.data], version };
      }
      case 'TicketCancelled':
        return { ...state, status: TICKET_STATUS.cancelled, cancelledAt: event.data.at, version };
      case 'TicketLineVoided': {
        const { lineId, amountCents, reason } = event.data;
        return { ...state, voided: { ...state.voided, [lineId]: { amountCents, reason } }, version };
      }
      case 'ServiceChargeRemoved':
        return { ...state, serviceChargeRemoved: event.data, version };
      default:
        return { ...state, lightning: evolveLightning(state.lightning, event), version };
    }
  },
};
