import type { ReplayedEvent } from '@comanda/event-store';
import { type BillLedger, type TicketEvent, billTaxes, keptTaxes, ledgerAfter, lineTotal, openLedger, refundOfBill } from '@comanda/domain';
import { streamId } from './report.js';

/** The ticket events a bill's ledger follows. */
export const BILL_EVENTS = ['TicketIssued', 'PaymentTaken', 'TicketPaid', 'PaymentRefunded', 'TicketLineVoided', 'TicketCancelled'] as const;

export interface BillChange { ticketId: string; before: BillLedger | undefined; after: BillLedger | undefined }

/**
 * Moves a ticket's ledger on by one of its events (`ledgerAfter`, the domain's rule): issued, it
 * opens; cancelled, it is forgotten (a cancelled bill took no money). A paid bill is kept: a void or
 * a refund may come days later and must take off what it declared.
 */
export function followBill(ledgers: Map<string, BillLedger>, event: ReplayedEvent): BillChange {
  const ticketId = streamId(event.stream);
  const e = event as unknown as TicketEvent;
  const before = ledgers.get(ticketId);
  let after: BillLedger | undefined;
  if (e.type === 'TicketIssued') after = openLedger(e.data);
  else if (e.type === 'TicketCancelled') after = undefined;
  else after = before && ledgerAfter(before, e);
  if (after) ledgers.set(ticketId, after);
  else ledgers.delete(ticketId);
  return { ticketId, before, after };
}

const inclusive = (l: BillLedger): boolean => l.bill.pricesIncludeTax ?? true;

/** A bill's value on the basis of menu prices (with tax when they include it, without when not). */
export function billValue(l: BillLedger): number {
  const { dueCents, netCents } = billTaxes(l.bill, new Set(l.voided));
  return inclusive(l) ? dueCents : netCents;
}

/** A voided line's value on the basis of menu prices: its total less its discount, as the sale counted it. */
export function voidValue(l: BillLedger | undefined, lineId: string, amountCents: number): number {
  const line = l?.bill.lines.find((x) => x.lineId === lineId);
  return line ? lineTotal(line) - (line.discountCents ?? 0) : amountCents;
}

/**
 * What a refund takes off sales, on the basis of menu prices: the part of it that gave back the
 * bill's money (a refunded tip is no sale), less the tax it took back when prices exclude tax.
 */
export function refundValue(change: BillChange, paymentId: string, amountCents: number): number {
  const { before, after } = change;
  if (!before || !after) return amountCents;
  const ofBill = refundOfBill(before, paymentId, amountCents);
  if (inclusive(before)) return ofBill;
  const tax = (l: BillLedger) => keptTaxes(l).reduce((sum, x) => sum + x.amountCents, 0);
  return ofBill - (tax(before) - tax(after));
}
