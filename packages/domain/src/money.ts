/**
 * Money is integer minor units (cents) everywhere inside; the API speaks decimal numbers with at most
 * two decimals. Conversion happens only at the edge, and rejects what cannot be represented exactly.
 */
export type Cents = number;

/** Returns the cents for a decimal amount, or null when it has more than two decimals or is not finite. */
export function toCents(amount: number): Cents | null {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return null;
  const scaled = Math.round(amount * 100);
  // Tolerate binary representation error (0.1 + 0.2) but not a third decimal.
  if (Math.abs(scaled - amount * 100) > 1e-6 * Math.max(1, Math.abs(amount))) return null;
  if (!Number.isSafeInteger(scaled)) return null;
  return scaled;
}

export const fromCents = (cents: Cents): number => cents / 100;

export const sumCents = (values: Iterable<Cents>): Cents => {
  let total = 0;
  for (const v of values) total += v;
  return total;
};
