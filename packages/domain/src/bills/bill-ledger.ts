import type { Cents } from '../money.js';
import { type BillRate, type BillTax, type TaxedBill, billTaxes } from './taxes.js';
import { paymentCharge, ticketCharge } from './service-charge.js';
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
  bill: {
    lines: bill.lines, share: bill.share, ...(bill.taxRates ? { taxRates: bill.taxRates } : {}), ...(bill.pricesIncludeTax === undefined ? {} : { pricesIncludeTax: bill.pricesIncludeTax }),
    ...(bill.serviceCharge ? { serviceCharge: bill.serviceCharge } : {}),
  },
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
    case 'ServiceChargeRemoved':
      // The bill asks its charge (and the charge's tax) less from then on.
      return { ...l, bill: { ...l.bill, serviceCharge: null } };
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
 * Shares of `total` in proportion to `weights` (which add up to `of`), in whole cents that add up to
 * it: each its floor, and the cents left over to the largest remainders (ties to the earlier), as
 * an order's discount is spread over its lines.
 */
function shares(weights: Cents[], total: Cents, of: Cents): Cents[] {
  const exact = weights.map((w) => BigInt(w) * BigInt(total));
  const floors = exact.map((x) => Number(x / BigInt(of)));
  let left = total - floors.reduce((sum, x) => sum + x, 0);
  const byRemainder = exact.map((x, i) => ({ i, r: x % BigInt(of) })).sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of byRemainder) {
    if (left <= 0) break;
    floors[i]! += 1;
    left -= 1;
  }
  return floors;
}

/**
 * Each rate's base and tax in what the bill kept. The rule, per bill: the bill as it stands
 * (`billTaxes` without its voided lines) in proportion to the money kept, up to what it asks. Each
 * rate's gross (base + tax) takes its share of the money kept, cents by largest remainder with the
 * untaxed lines' share beside them, so the rates declare what the bill kept to the cent (rounded half
 * up each, two rates' 50.005 came to 100.02 of 100.01 kept); tax = round half up of (rate's tax ×
 * kept / bill), never more than its rate's share; the base is the rest of the share. A bill whose
 * payments cover it and were never refunded declares exactly its taxes; one refunded in full
 * declares nothing; a void takes its line's tax off.
 */
export function keptTaxes(l: BillLedger): BillTax[] {
  const { taxes, dueCents } = billTaxes(l.bill, new Set(l.voided));
  const kept = Math.max(0, Math.min(keptCents(l), dueCents));
  if (kept === dueCents) return taxes;
  const grosses = taxes.map((x) => x.baseCents + x.amountCents);
  const gross = shares([...grosses, dueCents - grosses.reduce((sum, g) => sum + g, 0)], kept, dueCents);
  return taxes.map((x, i) => {
    const amountCents = Math.min(roundHalfUp(BigInt(x.amountCents) * BigInt(kept), BigInt(dueCents)), gross[i]!);
    return { ...x, baseCents: gross[i]! - amountCents, amountCents };
  });
}

/**
 * The service charge in what the bill kept, by the rule of `keptTaxes`: the bill's charge as it stands
 * (`ticketCharge`, less voided lines' share, none once taken off) in proportion to the money kept, up
 * to what the bill asks, rounded half up; so a payment adds its share, a refund or a void takes its
 * share back, and the payments that settle a bill carry its charge to the cent.
 */
export function keptCharge(l: BillLedger): Cents {
  const voided = new Set(l.voided);
  const charge = ticketCharge(l.bill, voided);
  if (charge === 0) return 0;
  const { dueCents } = billTaxes(l.bill, voided);
  return paymentCharge(charge, dueCents, 0, Math.max(0, keptCents(l)));
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
