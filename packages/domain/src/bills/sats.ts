/**
 * Sat/fiat arithmetic for Lightning checkout, exact in integers. A rate is a decimal string of fiat
 * units per bitcoin ("97000.00" USD per BTC); inside it is a bigint scaled by 10^8 (more decimals are
 * cut, which makes a sat worth less and a bill cost more sats: the restaurant's side, by far less
 * than a sat). Bills are charged rounded UP to the sat and received sats credited rounded DOWN to the
 * cent, so rounding always goes the restaurant's way, by less than one sat.
 */
export const RATE_SCALE = 100_000_000n;
const SATS_PER_BTC = 100_000_000n;
const CENTS_PER_UNIT = 100n;
/** cents × sat/BTC × scale ÷ cents/unit. */
const NUMERATOR = SATS_PER_BTC * RATE_SCALE / CENTS_PER_UNIT;

/** The rate scaled by 10^8, or null when it is not a positive decimal. */
export function parseRate(rate: string): bigint | null {
  const m = /^(\d{1,15})(?:\.(\d+))?$/.exec(rate);
  if (!m) return null;
  const scaled = BigInt(m[1]!) * RATE_SCALE + BigInt(((m[2] ?? '') + '00000000').slice(0, 8));
  return scaled > 0n ? scaled : null;
}

/** A rate as the canonical decimal string (at most 8 decimals, at least 2). */
export function formatRate(scaled: bigint): string {
  const whole = scaled / RATE_SCALE;
  let fraction = (scaled % RATE_SCALE).toString().padStart(8, '0').replace(/0+$/, '');
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0');
  return `${whole}.${fraction}`;
}

function scaledOrThrow(rate: string): bigint {
  const scaled = parseRate(rate);
  if (scaled === null) throw new RangeError(`not a rate: ${rate}`);
  return scaled;
}

/** The sats that pay `cents` at `rate`, rounded up: never less than the bill, by less than one sat more. */
export function satsForCents(cents: number, rate: string): number {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not an amount in cents: ${cents}`);
  const scaled = scaledOrThrow(rate);
  const numerator = BigInt(cents) * NUMERATOR;
  return Number((numerator + scaled - 1n) / scaled);
}

/** What `sats` are worth at `rate`, in cents rounded down. */
export function centsForSats(sats: number, rate: string): number {
  if (!Number.isSafeInteger(sats) || sats < 0) throw new RangeError(`not an amount in sats: ${sats}`);
  return Number((BigInt(sats) * scaledOrThrow(rate)) / NUMERATOR);
}

/** The sats worth `cents` at `rate`, rounded down: what a refund sends (never more than the fiat it is for). */
export function satsForCentsDown(cents: number, rate: string): number {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not an amount in cents: ${cents}`);
  return Number((BigInt(cents) * NUMERATOR) / scaledOrThrow(rate));
}
