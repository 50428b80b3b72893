import type { Cents } from '../money.js';
import type { RecordedLine } from '../order/lines.js';
import type { PaymentDetails, PaymentMethod, TillMethod } from './payment-methods.js';
import type { ServiceCharge } from './service-charge.js';
import type { LineShare } from './split.js';
import type { Approval, Authority } from '../staff/approval.js';
import type { IssuedRate } from './taxes.js';
import type { LightningCommand, LightningEvent, TicketLightning } from './ticket-lightning.js';

// A ticket's state, events and commands, apart from its decider (ticket.ts, which re-exports them): a
// leaf of the ticket's modules, which all import it and which it imports none of (issue 58).

/** The seed's numeric states. */
export const TICKET_STATUS = { pending: 1, paid: 2, cancelled: 3 } as const;
export type TicketStatus = (typeof TICKET_STATUS)[keyof typeof TICKET_STATUS];
export const TICKET_STATUS_NAMES: Record<TicketStatus, keyof typeof TICKET_STATUS> = { 1: 'pending', 2: 'paid', 3: 'cancelled' };

/**
 * A ticket carries its order's lines as they were billed (tickets issued before quantities read as one
 * portion), each with the tax rate it was billed at (absent before taxes: untaxed) and its discount
 * (its own and its share of the order's; absent: none). `share`: an item split between checks, this
 * check's part of it (split.ts: `billedLineCents`); absent: the line whole.
 */
export type TicketLine = RecordedLine & { taxRateId?: string | null; discountCents?: Cents; share?: LineShare };

export interface TicketPayment {
  paymentId: string;
  method: PaymentMethod;
  /** What went to the bill (never more than was due). */
  amountCents: Cents;
  tipCents: Cents;
  /** Money received beyond the due and the tip that was not given back (a late or over-paid Lightning payment). */
  overpaidCents: Cents;
  details: PaymentDetails;
  /** The shift open when it was taken; null for a card or Lightning payment with no shift open. */
  shiftId: string | null;
  takenBy: string | null;
  takenAt: number;
}

export interface TicketRefund {
  refundId: string; paymentId: string; method: PaymentMethod; amountCents: Cents; reason: string;
  shiftId: string | null; by: string | null; at: number;
  /** The manager who approved a waiter's refund with name and PIN (issue 60); absent: `by` decided it on their own authority. */
  approvedBy?: string;
}

export interface TicketIssue {
  ticketId: string;
  orderId: string;
  /** The tickets issued together for the same lines share a bill (see order/billing.ts). */
  billId: string;
  tableId: string | null;
  waiter: string;
  /** The order's number of its business day (absent for orders placed before numbers). */
  orderNumber?: number;
  currencyId: string;
  lines: TicketLine[];
  /** Part i of n of an even split; null when the ticket carries its lines whole. */
  share: { part: number; parts: number } | null;
  /** On a split by seats: the seat this bill is for, null for the table's shared lines; absent on any other bill. */
  forSeat?: number | null;
  /** What the ticket asks before tips: its lines (or share), and with exclusive prices their taxes too (`billTaxes`). */
  subtotalCents: Cents;
  /** The rates its lines are taxed at, as they were at issue; absent before taxes. */
  taxRates?: IssuedRate[];
  /** COMANDA_PRICES_INCLUDE_TAX at issue; absent: true. */
  pricesIncludeTax?: boolean;
  /** Its service charge as decided at issue (inside `subtotalCents`); absent or null: none. */
  serviceCharge?: ServiceCharge | null;
  issuedAt: number;
  issuedBy: string | null;
}

/** Who took a bill's service charge off, why and when, and what the bill asks less for it (ticket-service-charge.ts). */
export interface ServiceChargeRemoval {
  /** What the ticket's subtotal went down by: the charge, and its tax when taxes are added to the bill. */
  amountCents: Cents;
  /** The ticket's charge as it was (a part of an even split: its share). */
  chargeCents: Cents;
  reason: string;
  by: string | null;
  at: number;
}

export type RemoveServiceCharge = { type: 'removeServiceCharge'; reason: string; by: string | null; at: number };
export type ServiceChargeRemoved = { type: 'ServiceChargeRemoved'; data: ServiceChargeRemoval };

export interface Ticket {
  issue: TicketIssue | null;
  status: TicketStatus | null;
  payments: Record<string, TicketPayment & { refundedCents: Cents }>;
  refunds: TicketRefund[];
  voided: Record<string, { amountCents: Cents; reason: string }>;
  paidAt: number | null;
  cancelledAt: number | null;
  /** Checkout invoices and Lightning refunds (ticket-lightning.ts). */
  lightning: TicketLightning;
  /** Set once a manager took the service charge off (ticket-service-charge.ts). */
  serviceChargeRemoved?: ServiceChargeRemoval;
  version: number;
}

export type TicketEvent =
  | { type: 'TicketIssued'; data: TicketIssue }
  | { type: 'PaymentTaken'; data: TicketPayment }
  | { type: 'TicketPaid'; data: { at: number } }
  | { type: 'PaymentRefunded'; data: TicketRefund }
  /** `reopened`: cancelled to bill its lines again, its payments refunded in the same append (ticket-reopen.ts), with who approved and why. */
  | { type: 'TicketCancelled'; data: { reason: string; by: string | null; at: number; reopened?: Approval } }
  | { type: 'TicketLineVoided'; data: { lineId: string; amountCents: Cents; reason: string; by: string | null; at: number } }
  | ServiceChargeRemoved
  | LightningEvent;

export type TicketCommand =
  | { type: 'issueTicket'; issue: TicketIssue }
  | {
      type: 'takePayment'; paymentId: string; method: TillMethod; amountCents: Cents; tipCents: Cents;
      tenderedCents?: Cents; shiftId: string | null; by: string | null; at: number;
    }
  /** Money that has already arrived (issue 13's Lightning): recorded whatever the ticket's state. */
  | { type: 'recordReceivedPayment'; paymentId: string; amountCents: Cents; details: PaymentDetails; shiftId: string | null; by: string | null; at: number }
  /** `authority`: who asks and who approved (a waiter needs a manager's); absent: `by` is a manager acting on their own (tools, demo data). */
  | { type: 'refundPayment'; refundId: string; paymentId: string; amountCents: Cents; reason: string; shiftId: string | null; by: string | null; at: number; authority?: Authority }
  | { type: 'cancelTicket'; reason: string; by: string | null; at: number }
  /** Takes a line off the bill; what was paid beyond the new subtotal is refunded from `paymentId` in the same append. */
  | { type: 'voidLine'; lineId: string; reason: string; refundId: string; paymentId?: string; shiftId: string | null; by: string | null; at: number }
  | RemoveServiceCharge
  | ReopenTicket
  | LightningCommand;

/** Reopen a paid bill: refund what is left of each payment (`refundIds`: the refund's id per payment) and cancel it (ticket-reopen.ts). */
export type ReopenTicket = { type: 'reopenTicket'; reason: string; refundIds: Record<string, string>; shiftId: string | null; authority: Authority; at: number };
