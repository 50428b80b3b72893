import type { Cents } from '../money.js';

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
