import { centsForSats } from './sats.js';

/**
 * Lightning on a ticket (issue 13): the invoices checkout created for it, each with the rate it
 * locked, and the refunds sent back over Lightning. Kept in the ticket's own stream, so a payment is
 * valued against exactly the invoice it paid, and a refund is reserved against exactly what is left
 * of its payment, in the same append as the check.
 */
export interface LightningInvoice {
  paymentHash: string;
  /** BOLT11, as the node made it. */
  invoice: string;
  amountSat: number;
  /** What the invoice asks, in the ticket's currency: the bill part and the tip on top. */
  billCents: number;
  tipCents: number;
  /** Fiat per BTC, locked for the invoice's life; its source and the quote's time. */
  rate: string;
  rateSource: string;
  rateAt: number;
  createdAt: number;
  expiresAt: number;
  /** What sats beyond the invoice become (COMANDA_LIGHTNING_EXCESS when it was made). */
  excess: 'tip' | 'refund';
  /** A guest's "my items" (issue 63): the lines of the bill it pays; absent for any other invoice. */
  lineIds?: string[];
  /** Asked through the bill's guest link (issue 63), not by staff. */
  byGuest?: boolean;
}

/** Why a Lightning payment on a ticket is on the manager's list (the money is recorded either way). */
export type LightningFlag = 'unknown_invoice' | 'paid_after_expiry' | 'ticket_already_paid' | 'ticket_cancelled' | 'overpaid';

export interface LightningRefund {
  refundId: string;
  paymentId: string;
  amountCents: number;
  sats: number;
  rate: string;
  valuation: 'then' | 'now';
  /** What the customer gave (an invoice or a Lightning address) and the invoice actually paid. */
  destination: string;
  invoice: string;
  paymentHash: string;
  reason: string;
  by: string | null;
  at: number;
}

export interface TicketLightning {
  invoices: Record<string, LightningInvoice>;
  /** The invoice checkout hands out while it is live and unpaid. */
  current: string | null;
  /** Payment hashes recorded on this ticket (exactly once each). */
  received: Record<string, true>;
  refunds: Record<string, LightningRefund & { status: 'requested' | 'sent' | 'failed'; failure: string | null; feesSat?: number }>;
}

export const emptyLightning = (): TicketLightning => ({ invoices: {}, current: null, received: {}, refunds: {} });

/**
 * The lines of this ticket a guest's "my items" invoice claims at `now` (issue 63): `paid` once such an
 * invoice is paid, `paying` while one is unexpired and unpaid; a line no live or paid invoice names is absent.
 */
export function lineClaims(l: TicketLightning, now: number): Record<string, 'paid' | 'paying'> {
  const claims: Record<string, 'paid' | 'paying'> = {};
  for (const invoice of Object.values(l.invoices)) {
    const paid = l.received[invoice.paymentHash] === true;
    if (!invoice.lineIds || (!paid && now >= invoice.expiresAt)) continue;
    for (const id of invoice.lineIds) if (claims[id] !== 'paid') claims[id] = paid ? 'paid' : 'paying';
  }
  return claims;
}

/** The first of these lines already paid, or being paid by another guest's unexpired invoice; null when none is. */
export function claimedLine(l: TicketLightning, lineIds: readonly string[], now: number): string | null {
  const claims = lineClaims(l, now);
  return lineIds.find((id) => claims[id]) ?? null;
}

/** The invoice checkout may hand out again at `now` for this bill and tip, if any. */
export function liveInvoice(l: TicketLightning, billCents: number, tipCents: number, now: number): LightningInvoice | null {
  const current = l.current ? l.invoices[l.current] : undefined;
  if (!current || l.received[current.paymentHash] || now >= current.expiresAt) return null;
  return current.billCents === billCents && current.tipCents === tipCents ? current : null;
}

/**
 * What a received payment is worth at its invoice's locked rate, in cents. Paid in full, the invoice's
 * own figures count (the sats were rounded up from them) plus whatever came beyond; short, the sats
 * at the rate, rounded down.
 */
export function valueOfPayment(invoice: LightningInvoice, amountSat: number): number {
  if (amountSat >= invoice.amountSat) return invoice.billCents + invoice.tipCents + centsForSats(amountSat - invoice.amountSat, invoice.rate);
  return centsForSats(amountSat, invoice.rate);
}

/**
 * Splits a payment's value over the ticket: the bill first (never more than is due, nor than the
 * invoice's part of it: a guest's share with a tip leaves the rest due), then the tip the invoice asked, then the excess: a tip or an over-payment to refund, as the invoice says. A ticket
 * that is no longer pending takes nothing: all of it is held for a refund.
 */
export function splitPayment(invoice: LightningInvoice, valueCents: number, dueCents: number, pending: boolean) {
  if (!pending) return { amountCents: 0, tipCents: 0, overpaidCents: valueCents };
  const amountCents = Math.min(valueCents, dueCents, invoice.billCents);
  const rest = valueCents - amountCents;
  const askedTip = Math.min(rest, invoice.tipCents);
  const extra = rest - askedTip;
  return invoice.excess === 'tip'
    ? { amountCents, tipCents: askedTip + extra, overpaidCents: 0 }
    : { amountCents, tipCents: askedTip, overpaidCents: extra };
}

export type LightningEvent =
  | { type: 'LightningInvoiceCreated'; data: LightningInvoice }
  /** For the manager's list; beside the PaymentTaken that records the money, or alone when no invoice of ours was paid. */
  | { type: 'LightningPaymentFlagged'; data: { paymentHash: string; amountSat: number; reason: LightningFlag; receivedAt: number } }
  | { type: 'LightningRefundRequested'; data: LightningRefund }
  | { type: 'LightningRefundSent'; data: { refundId: string; feesSat: number; at: number } }
  | { type: 'LightningRefundFailed'; data: { refundId: string; reason: string; at: number } };

export const LIGHTNING_EVENTS: ReadonlyArray<LightningEvent['type']> = [
  'LightningInvoiceCreated', 'LightningPaymentFlagged', 'LightningRefundRequested', 'LightningRefundSent', 'LightningRefundFailed',
];

export type LightningCommand =
  /** Checkout made an invoice at the node; recorded unless a live one for the same bill and tip won the race. */
  | { type: 'recordLightningInvoice'; invoice: LightningInvoice; at: number }
  /** Sats arrived for this ticket (the bridge, exactly once by payment hash). */
  | { type: 'settleLightningPayment'; paymentId: string; paymentHash: string; amountSat: number; receivedAt: number; shiftId: string | null }
  /** Recorded BEFORE the node is asked to pay, reserving the amount: a retry reconciles instead of paying again. */
  | { type: 'requestLightningRefund'; refund: LightningRefund }
  | { type: 'recordLightningRefundSent'; refundId: string; feesSat: number; shiftId: string | null; at: number }
  | { type: 'recordLightningRefundFailed'; refundId: string; reason: string; at: number };
