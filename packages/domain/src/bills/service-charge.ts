import type { Cents } from '../money.js';
import type { RecordedLine } from '../order/lines.js';
import { type LineShare, billedLineCents, splitEvenly } from './split.js';

/**
 * A service charge (automatic gratuity) on a bill: a percent of the bill after discounts, decided when
 * the bill is issued and carried in its `TicketIssued`, so a later change of the settings
 * (COMANDA_SERVICE_CHARGE_*) never changes an issued bill.
 */
export interface ServiceCharge {
  /** Of the bill after discounts, in basis points: 12.5 % = 1250. 0: waived by hand. */
  rateBp: number;
  /** Taxed at the bill's own rates (in proportion to its lines), by the bill's rules (prices with tax or not). */
  taxable: boolean;
  /** `party`: applied automatically for a party of `partySize`; `staff`: set by hand by `setBy`. */
  reason: 'party' | 'staff';
  partySize?: number;
  setBy?: string | null;
  /** The member of staff credited with it: the order's user id, never a name. */
  creditedTo: string | null;
  /** The whole bill's charge as worked out at issue (a part of an even split: the whole's, not its share). */
  amountCents: Cents;
}

/** The settings a bill is issued with: the automatic charge for parties of `minParty` or more. */
export interface ServiceChargeSettings { rateBp: number; minParty: number; taxable: boolean }

type ChargedLine = Pick<RecordedLine, 'lineId' | 'priceCents' | 'quantity' | 'modifiers'> & { taxRateId?: string | null; discountCents?: Cents; share?: LineShare };

/** What the bill carries for the charge: its lines (a part: the whole's), its share and the charge. */
export interface ChargeableBill {
  lines: readonly ChargedLine[];
  share: { part: number; parts: number } | null;
  serviceCharge?: ServiceCharge | null;
}

/** round half up of p / q, for p ≥ 0 and q > 0, exact in BigInt (cents × basis points outgrow a double's integers). */
const roundHalfUp = (p: bigint, q: bigint): Cents => Number((2n * p + q) / (2n * q));

/** The charge on some lines after their discounts: round half up of (Σ line − discount) × rate, once per bill. */
export function chargeOn(lines: readonly ChargedLine[], rateBp: number, voided: ReadonlySet<string> = new Set()): Cents {
  let base = 0;
  for (const l of lines) if (!voided.has(l.lineId)) base += billedLineCents(l);
  return base > 0 ? roundHalfUp(BigInt(base) * BigInt(rateBp), 10_000n) : 0;
}

/**
 * The whole bill's charge now: worked out again from its rate when lines were voided (a line that never
 * came carries no charge), else exactly what was carried at issue.
 */
export function wholeCharge(bill: ChargeableBill, voided: ReadonlySet<string> = new Set()): Cents {
  const c = bill.serviceCharge;
  if (!c) return 0;
  return voided.size ? chargeOn(bill.lines, c.rateBp, voided) : c.amountCents;
}

/** This ticket's service charge: the whole's, or a part's even share of it (the parts add up to the whole). */
export function ticketCharge(bill: ChargeableBill, voided: ReadonlySet<string> = new Set()): Cents {
  const whole = wholeCharge(bill, voided);
  return bill.share ? splitEvenly(whole, bill.share.parts)[bill.share.part - 1]! : whole;
}

/**
 * The charge as lines of the bill, so `billTaxes` taxes it by the bill's own rules and splits it with
 * the lines: untaxed, one line; taxable, spread over the bill's rates in proportion to what each rate's
 * lines come to (largest remainder, ties by rate id), so each rate's tax is still rounded once per bill.
 */
export function serviceChargeLines(bill: ChargeableBill, voided: ReadonlySet<string> = new Set()): ChargedLine[] {
  const charge = wholeCharge(bill, voided);
  if (charge === 0) return [];
  const line = (rate: string | null, cents: Cents): ChargedLine => ({ lineId: `service-charge:${rate ?? 'untaxed'}`, priceCents: cents, quantity: 1, modifiers: [], taxRateId: rate });
  if (!bill.serviceCharge!.taxable) return [line(null, charge)];
  const byRate = new Map<string | null, Cents>();
  for (const l of bill.lines) {
    if (voided.has(l.lineId)) continue;
    byRate.set(l.taxRateId ?? null, (byRate.get(l.taxRateId ?? null) ?? 0) + billedLineCents(l));
  }
  const rates = [...byRate].sort(([a], [b]) => (a ?? '').localeCompare(b ?? ''));
  const total = rates.reduce((sum, [, cents]) => sum + cents, 0);
  // BigInt: a charge's cents × a rate's cents outgrow a double's integers.
  const exact = rates.map(([rate, cents]) => {
    const share = BigInt(charge) * BigInt(cents);
    return { rate, floor: Number(share / BigInt(total)), rest: share % BigInt(total) };
  });
  let left = charge - exact.reduce((sum, x) => sum + x.floor, 0);
  for (const x of [...exact].sort((a, b) => (a.rest === b.rest ? 0 : a.rest > b.rest ? -1 : 1))) {
    if (left === 0) break;
    x.floor += 1;
    left -= 1;
  }
  return exact.filter((x) => x.floor > 0).map((x) => line(x.rate, x.floor));
}

/** Distinct seats the order's lines name: how many guests the party is (decision: lines for the table name none). */
export const partySize = (lines: Iterable<Pick<RecordedLine, 'seat'>>): number => {
  const seats = new Set<number>();
  for (const l of lines) if (l.seat !== undefined && l.seat !== null) seats.add(l.seat);
  return seats.size;
};

/**
 * The charge a new bill carries: the one staff set by hand (percent in basis points, 0 waives it), else
 * the automatic one for a party of at least `minParty`, else none.
 */
export function serviceChargeFor(
  lines: readonly ChargedLine[], party: number, settings: ServiceChargeSettings | null,
  byHand: { rateBp: number; by: string | null } | null, creditedTo: string | null,
): ServiceCharge | null {
  const taxable = settings?.taxable ?? false;
  if (byHand) return { rateBp: byHand.rateBp, taxable, reason: 'staff', setBy: byHand.by, creditedTo, amountCents: chargeOn(lines, byHand.rateBp) };
  if (!settings || settings.rateBp === 0 || party < settings.minParty) return null;
  return { rateBp: settings.rateBp, taxable, reason: 'party', partySize: party, creditedTo, amountCents: chargeOn(lines, settings.rateBp) };
}

/**
 * The service charge in one payment toward a bill: the bill's charge in proportion to what the
 * payments have covered of it so far, rounded half up cumulatively, so the payments that settle a bill
 * carry its charge to the cent (as `paymentTaxes` does its taxes).
 */
export function paymentCharge(chargeCents: Cents, billCents: Cents, coveredBefore: Cents, amountCents: Cents): Cents {
  if (billCents <= 0 || chargeCents <= 0) return 0;
  const upTo = (covered: Cents) => roundHalfUp(BigInt(Math.min(covered, billCents)) * BigInt(chargeCents), BigInt(billCents));
  return upTo(coveredBefore + amountCents) - upTo(coveredBefore);
}
