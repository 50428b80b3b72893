import type { Cents } from '../money.js';
import { type BillRate, type BillTax, type TaxedBill, billTaxes } from './taxes.js';
import type { TicketEvent } from './ticket.js';

/**
 * What a bill's money has kept, and so the taxes it declares (issue 57). Every report that states
 * tax (the sales report, the Z report) folds a ticket's events through this one record, so they agree
 * with each other and with the bill to the cent. Plain data (arrays, records): a report's state
 * saves it as JSON.
 */
export interface BillLedger {
  bill: TaxedBill;
  voided: string[];
  /** Per payment: what went to the bill, and how much of that was refunded. */
  payments: Record<string, { amountCents: Cents; refundedCents: Cents }>;
  paid: boolean;
}

export const openLedger = (bill: TaxedBill): BillLedger => ({
  bill: { lines: bill.lines, share: bill.share, ...(bill.taxRates ? { taxRates: bill.taxRates } : {}), ...(bill.pricesIncludeTax === undefined ? {} : { pricesIncludeTax: bill.pricesIncludeTax }) },
  voided: [], payments: {}, paid: false,
});

/**
 * The part of a refund that gives back money the bill kept. A refund takes back the payment's part
 * that went to the bill first and only then its tip or overpayment: a tip is no sale, so giving it
 * back changes neither sales nor tax, while a guest refunded for a dish got back what paid for it.
 */
export function refundOfBill(l: BillLedger, paymentId: string, refundCents: Cents): Cents {
  const p = l.payments[paymentId];
  if (!p) return 0;
  return Math.min(p.amountCents, p.refundedCents + refundCents) - Math.min(p.amountCents, p.refundedCents);
}

/** The ledger after one of its ticket's events (events that move no money or line are ignored). */
export function ledgerAfter(l: BillLedger, event: TicketEvent): BillLedger {
  switch (event.type) {
    case 'PaymentTaken':
      return { ...l, payments: { ...l.payments, [event.data.paymentId]: { amountCents: event.data.amountCents, refundedCents: 0 } } };
    case 'PaymentRefunded': {
      const p = l.payments[event.data.paymentId];
      if (!p) return l;
      return { ...l, payments: { ...l.payments, [event.data.paymentId]: { ...p, refundedCents: p.refundedCents + event.data.amountCents } } };
    }
    case 'TicketLineVoided':
      return { ...l, voided: [...l.voided, event.data.lineId] };
    case 'TicketPaid':
      return { ...l, paid: true };
    default:
      return l;
  }
}

/** What the bill's payments kept: what went to the bill less what of it was refunded. */
export function keptCents(l: BillLedger): Cents {
  let kept = 0;
  for (const p of Object.values(l.payments)) kept += p.amountCents - Math.min(p.amountCents, p.refundedCents);
  return kept;
}

/** round half up of p / q for p ≥ 0 and q > 0, exact. */
const roundHalfUp = (p: bigint, q: bigint): Cents => Number((2n * p + q) / (2n * q));

/**
 * Each rate's base and tax in what the bill kept. The rule, per bill and rate: the bill as it
 * stands (`billTaxes` without its voided lines) in proportion to the money kept, up to what it asks:
 * tax = round half up of (rate's tax × kept / bill), base = round half up of ((rate's base + tax) ×
 * kept / bill) − that tax. A bill whose payments cover it and were never refunded declares exactly
 * its taxes; one refunded in full declares nothing; a void takes its line's tax off.
 */
export function keptTaxes(l: BillLedger): BillTax[] {
  const { taxes, dueCents } = billTaxes(l.bill, new Set(l.voided));
  const kept = Math.max(0, Math.min(keptCents(l), dueCents));
  if (kept === dueCents) return taxes;
  const scaled = (cents: Cents) => roundHalfUp(BigInt(cents) * BigInt(kept), BigInt(dueCents));
  return taxes.map((x) => {
    const amountCents = scaled(x.amountCents);
    return { ...x, baseCents: scaled(x.baseCents + x.amountCents) - amountCents, amountCents };
  });
}

/** What moved from one ledger's taxes to another's, per rate (negative: taken back). */
export function taxesMoved(before: readonly BillTax[], after: readonly BillTax[]): BillTax[] {
  const moved = new Map<string, BillTax>();
  const add = (x: BillTax, sign: 1 | -1) => {
    const m = moved.get(x.taxRateId) ?? { ...rateOf(x), baseCents: 0, amountCents: 0 };
    m.baseCents += sign * x.baseCents;
    m.amountCents += sign * x.amountCents;
    moved.set(x.taxRateId, m);
  };
  for (const x of after) add(x, 1);
  for (const x of before) add(x, -1);
  return [...moved.values()].filter((x) => x.baseCents !== 0 || x.amountCents !== 0);
}

const rateOf = (x: BillRate): BillRate => ({ taxRateId: x.taxRateId, name: x.name, ratePpm: x.ratePpm });
