/**
 * Money is integer minor units (cents) everywhere inside; the API speaks decimal numbers with at most
 * two decimals. Conversion happens only at the edge, and rejects what cannot be represented exactly.
 */
export type Cents = number;

/**
 * The largest amount one price may carry: 9,999,999.99 in the base currency. Far above any dish, and
 * far below where a double stops telling cents apart (~9e13), so sums of many lines stay exact too.
 */
export const MAX_AMOUNT = 9_999_999.99;
export const MAX_AMOUNT_CENTS = 999_999_999;

/**
 * Returns the cents for a decimal amount, or null when it has more than two decimals, is not finite
 * or exceeds MAX_AMOUNT. The amount must be the double nearest to a whole number of cents (a few
 * units in the last place of slack, for 0.1 + 0.2), so 1000000.005 is refused at any magnitude.
 */
export function toCents(amount: number): Cents | null {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return null;
  const scaled = Math.round(amount * 100);
  if (Math.abs(scaled) > MAX_AMOUNT_CENTS) return null;
  if (Math.abs(scaled / 100 - amount) > 4 * Number.EPSILON * Math.max(1, Math.abs(amount))) return null;
  return scaled;
}

export const fromCents = (cents: Cents): number => cents / 100;

/** Cents written as the restaurant reads them in a message ("-5.00"), from whole cents: no float. */
export const showCents = (cents: Cents): string => {
  const whole = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
};

export const sumCents = (values: Iterable<Cents>): Cents => {
  let total = 0;
  for (const v of values) total += v;
  return total;
};
