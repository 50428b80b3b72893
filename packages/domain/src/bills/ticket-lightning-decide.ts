import { conflict, validationFailed } from '../errors.js';
import { fromCents } from '../money.js';
import { live, payable, settles, ticketFigures } from './ticket-figures.js';
import {
  claimedLine, liveInvoice, splitPayment, valueOfPayment, type LightningCommand, type LightningFlag, type LightningInvoice, type LightningRefund, type TicketLightning,
} from './ticket-lightning.js';
import { TICKET_STATUS, type Ticket, type TicketEvent, type TicketPayment } from './ticket-types.js';

/** Lightning refunds requested and not settled either way hold their amount. */
export function reservedCents(l: TicketLightning, paymentId: string): number {
  let reserved = 0;
  for (const r of Object.values(l.refunds)) if (r.paymentId === paymentId && r.status === 'requested') reserved += r.amountCents;
  return reserved;
}

export function refundableCents(t: Ticket, payment: TicketPayment & { refundedCents: number }): number {
  return payment.amountCents + payment.tipCents + payment.overpaidCents - payment.refundedCents - reservedCents(t.lightning, payment.paymentId);
}

function settle(t: Ticket, c: Extract<LightningCommand, { type: 'settleLightningPayment' }>): TicketEvent[] {
  const { paymentHash, amountSat, receivedAt } = c;
  if (t.lightning.received[paymentHash]) return [];
  const invoice = t.lightning.invoices[paymentHash];
  // An invoice checkout did not make (its externalId named this ticket): no locked rate to value it
  // at, so it is recorded in sats for a manager, never guessed into the bill.
  if (!invoice) return [{ type: 'LightningPaymentFlagged', data: { paymentHash, amountSat, reason: 'unknown_invoice', receivedAt } }];
  const pending = t.status === TICKET_STATUS.pending;
  const value = valueOfPayment(invoice, amountSat);
  const split = splitPayment(invoice, value, ticketFigures(t).due, pending);
  let flag: LightningFlag | undefined;
  if (t.status === TICKET_STATUS.paid) flag = 'ticket_already_paid';
  else if (t.status === TICKET_STATUS.cancelled) flag = 'ticket_cancelled';
  else if (receivedAt > invoice.expiresAt) flag = 'paid_after_expiry';
  else if (split.overpaidCents > 0) flag = 'overpaid';
  const payment: TicketPayment = {
    paymentId: c.paymentId, method: 'lightning', ...split,
    details: { method: 'lightning', sats: amountSat, rate: invoice.rate, paymentHash, ...(flag ? { flag } : {}), ...(invoice.byGuest ? { byGuest: true } : {}) },
    shiftId: c.shiftId, takenBy: null, takenAt: receivedAt,
  };
  const events: TicketEvent[] = [{ type: 'PaymentTaken', data: payment }];
  if (split.amountCents > 0) events.push(...settles(t as Ticket & { issue: NonNullable<Ticket['issue']> }, split.amountCents, receivedAt));
  if (flag) events.push({ type: 'LightningPaymentFlagged', data: { paymentHash, amountSat, reason: flag, receivedAt } });
  return events;
}

function requestRefund(t: Ticket, refund: LightningRefund): TicketEvent[] {
  const existing = t.lightning.refunds[refund.refundId];
  if (existing) return [];
  const payment = t.payments[refund.paymentId];
  if (!payment) throw validationFailed([{ field: 'payment_id', message: 'must name a payment of this ticket' }]);
  if (payment.method !== 'lightning') throw validationFailed([{ field: 'payment_id', message: 'must name a Lightning payment (refund others with POST /tickets/{id}/refunds)' }]);
  if (!refund.reason.trim()) throw validationFailed([{ field: 'reason', message: 'is required' }]);
  if (!Number.isSafeInteger(refund.amountCents) || refund.amountCents < 1) throw validationFailed([{ field: 'amount', message: 'must be more than 0' }]);
  if (!Number.isSafeInteger(refund.sats) || refund.sats < 1) throw validationFailed([{ field: 'amount', message: 'is worth less than one sat' }]);
  const refundable = refundableCents(t, payment);
  if (refund.amountCents > refundable) {
    throw conflict(`A refund cannot exceed what is left of that payment (${fromCents(refundable).toFixed(2)})`, { refundable: fromCents(refundable) });
  }
  return [{ type: 'LightningRefundRequested', data: { ...refund, reason: refund.reason.trim() } }];
}

export function decideLightning(command: LightningCommand, state: Ticket): TicketEvent[] {
  const t = live(state);
  switch (command.type) {
    case 'recordLightningInvoice': {
      payable(t);
      const { invoice } = command;
      if (t.lightning.invoices[invoice.paymentHash]) return [];
      if (invoice.lineIds && claimedLine(t.lightning, invoice.lineIds, command.at)) {
        throw conflict('Some of these items are already paid, or being paid by another guest');
      }
      if (!invoice.lineIds && liveInvoice(t.lightning, invoice.billCents, invoice.tipCents, command.at)) return [];
      return [{ type: 'LightningInvoiceCreated', data: invoice }];
    }
    case 'settleLightningPayment':
      return settle(t, command);
    case 'requestLightningRefund':
      return requestRefund(t, command.refund);
    case 'recordLightningRefundSent': {
      const r = t.lightning.refunds[command.refundId];
      if (!r || r.status !== 'requested') return [];
      const { refundId, feesSat, shiftId, at } = command;
      return [
        { type: 'LightningRefundSent', data: { refundId, feesSat, at } },
        { type: 'PaymentRefunded', data: { refundId, paymentId: r.paymentId, method: 'lightning', amountCents: r.amountCents, reason: r.reason, shiftId, by: r.by, at } },
      ];
    }
    case 'recordLightningRefundFailed': {
      const r = t.lightning.refunds[command.refundId];
      if (!r || r.status !== 'requested') return [];
      return [{ type: 'LightningRefundFailed', data: { refundId: command.refundId, reason: command.reason, at: command.at } }];
    }
  }
}

export function evolveLightning(l: TicketLightning, event: TicketEvent): TicketLightning {
  switch (event.type) {
    case 'LightningInvoiceCreated':
      return { ...l, invoices: { ...l.invoices, [event.data.paymentHash]: event.data }, current: event.data.paymentHash };
    case 'LightningPaymentFlagged':
      return { ...l, received: { ...l.received, [event.data.paymentHash]: true } };
    case 'LightningRefundRequested':
      return { ...l, refunds: { ...l.refunds, [event.data.refundId]: { ...event.data, status: 'requested', failure: null } } };
    case 'LightningRefundSent': {
      const r = l.refunds[event.data.refundId]!;
      return { ...l, refunds: { ...l.refunds, [r.refundId]: { ...r, status: 'sent', feesSat: event.data.feesSat } } };
    }
    case 'LightningRefundFailed': {
      const r = l.refunds[event.data.refundId]!;
      return { ...l, refunds: { ...l.refunds, [r.refundId]: { ...r, status: 'failed', failure: event.data.reason } } };
    }
    default:
      return l;
  }
}
