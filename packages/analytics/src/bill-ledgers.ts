import { type ReplayedEvent, isOneOf } from '@comanda/event-store';
import { type BillLedger, type TicketEvent, billTaxes, keptCents, keptCharge, keptTaxes, ledgerAfter, lineTotal, openLedger, refundOfBill } from '@comanda/domain';
import { streamId } from './report.js';

/** The ticket events a bill's ledger follows. */
export const BILL_EVENTS = ['TicketIssued', 'PaymentTaken', 'TicketPaid', 'PaymentRefunded', 'TicketLineVoided', 'TicketCancelled', 'ServiceChargeRemoved'] as const;

export interface BillChange { ticketId: string; before: BillLedger | undefined; after: BillLedger | undefined }

/**
 * Moves a ticket's ledger on by one of its events (`ledgerAfter`, the domain's rule): issued, it
 * opens; cancelled, it is forgotten (a cancelled bill took no money). A paid bill is kept: a void or
 * a refund may come days later and must take off what it declared.
 */
export function followBill(ledgers: Map<string, BillLedger>, event: ReplayedEvent): BillChange {
  const ticketId = streamId(event.stream);
  const before = ledgers.get(ticketId);
  // Another event of the ticket moves nothing (as `ledgerAfter` answers for any it does not read).
  if (!isOneOf<TicketEvent>(event, BILL_EVENTS)) return { ticketId, before, after: before };
  let after: BillLedger | undefined;
  if (event.type === 'TicketIssued') after = openLedger(event.data);
  else if (event.type === 'TicketCancelled') after = undefined;
  else after = before && ledgerAfter(before, event);
  if (after) ledgers.set(ticketId, after);
  else ledgers.delete(ticketId);
  return { ticketId, before, after };
}

const inclusive = (l: BillLedger): boolean => l.bill.pricesIncludeTax ?? true;

/** A bill's value on the basis of menu prices (with tax when they include it, without when not): its lines, without its service charge. */
export function billValue(l: BillLedger): number {
  const { dueCents, netCents } = billTaxes({ ...l.bill, serviceCharge: null }, new Set(l.voided));
  return inclusive(l) ? dueCents : netCents;
}

const taxKept = (l: BillLedger): number => keptTaxes(l).reduce((sum, x) => sum + x.amountCents, 0);

/**
 * A paid bill's sales as its money stands, on the basis of menu prices: what its payments kept, up to
 * what it asks (a void's refund may come out of a tip), without the service charge kept (no sale: the
 * sales report counts it apart) and without the tax kept when prices exclude tax.
 */
function keptValue(l: BillLedger): number {
  const kept = Math.min(keptCents(l), billTaxes(l.bill, new Set(l.voided)).dueCents) - keptCharge(l);
  return inclusive(l) ? kept : kept - taxKept(l);
}

/**
 * What a void takes off sales, on the basis of menu prices. Before its bill is paid: its line's value,
 * its total less its discount, as the sale counted it. Once paid: what the bill's sales as its money
 * stands lost, with its own refund's part (`voidRefundValue`). That is the line's value, unless a
 * refund came first: it may have given back part of the line already, or (prices excluding tax) taken
 * tax back at rates the bill no longer has; the line's whole value then took off more or less than the
 * bill lost, and sales no longer came to what the bill kept (below zero, a refund and a void counting
 * the same money twice).
 */
export function voidValue(change: BillChange, lineId: string, amountCents: number): number {
  const { before, after } = change;
  if (before?.paid && after) return keptValue(before) - keptValue(after);
  const line = before?.bill.lines.find((x) => x.lineId === lineId);
  return line ? lineTotal(line) - (line.discountCents ?? 0) : amountCents;
}

/** What a void's own refund ("void: …") takes off a paid bill's sales: the rest of the void (`voidValue`); before payment, nothing. */
export function voidRefundValue(change: BillChange): number {
  const { before, after } = change;
  return before?.paid && after ? keptValue(before) - keptValue(after) : 0;
}

/**
 * What a refund takes off sales, on the basis of menu prices: the part of it that gave back the
 * bill's money (a refunded tip is no sale), less the service charge it gave back (no sale either: the
 * sales report counts it apart), less the tax it took back when prices exclude tax. On a paid bill
 * that is what the bill's sales as its money stands lost: the same, unless a void's refund came out of
 * a tip and left the bill holding more than it asks (the refund gives that back first).
 */
export function refundValue(change: BillChange, paymentId: string, amountCents: number): number {
  const { before, after } = change;
  if (!before || !after) return amountCents;
  if (before.paid) return keptValue(before) - keptValue(after);
  const ofBill = refundOfBill(before, paymentId, amountCents) - (keptCharge(before) - keptCharge(after));
  if (inclusive(before)) return ofBill;
  return ofBill - (taxKept(before) - taxKept(after));
}
