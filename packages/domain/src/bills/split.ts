import type { Cents } from '../money.js';
import { type RecordedLine, lineTotal } from '../order/lines.js';

/**
 * An amount split into `parts` shares in whole cents: the shares differ by at most one cent and sum
 * exactly to the amount. The first `amount mod parts` shares carry the extra cent, so the guest who
 * pays first never pays less than the others.
 */
export function splitEvenly(amount: Cents, parts: number): Cents[] {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError('amount must be a non-negative whole number of cents');
  if (!Number.isSafeInteger(parts) || parts < 1) throw new RangeError('parts must be a positive whole number');
  const base = Math.floor(amount / parts);
  const extra = amount - base * parts;
  return Array.from({ length: parts }, (_, i) => base + (i < extra ? 1 : 0));
}

/** A line's share when one item is split between checks: part `part` of `parts` (a bottle over three checks). */
export interface LineShare { part: number; parts: number }

type BilledLine = Pick<RecordedLine, 'priceCents' | 'modifiers' | 'quantity'> & { discountCents?: Cents; share?: LineShare };

/**
 * What a line of a bill asks before tax: its total after its discount, or, for an item split between
 * checks, this check's even share of that (`splitEvenly`: the checks' parts add up to the item to the cent).
 */
export function billedLineCents(l: BilledLine): Cents {
  const whole = lineTotal(l) - (l.discountCents ?? 0);
  return l.share ? splitEvenly(whole, l.share.parts)[l.share.part - 1]! : whole;
}
