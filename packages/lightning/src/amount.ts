import { fail } from './errors.js';

// BOLT11 writes the amount in bitcoin with an optional multiplier; all arithmetic here is in integer
// millisatoshis (1 BTC = 10^11 msat) so no float ever touches money.
const MSAT_PER_UNIT: Readonly<Record<string, bigint>> = { m: 100_000_000n, u: 100_000n, n: 100n };
const MSAT_PER_BTC = 100_000_000_000n;

export function parseBolt11Amount(text: string): number {
  const match = /^([0-9]+)([munp]?)$/.exec(text);
  if (!match) fail(`invalid amount ${text}`);
  const digits = BigInt(match[1]);
  const multiplier = match[2];
  let msat: bigint;
  if (multiplier === 'p') {
    if (digits % 10n !== 0n) fail('invalid sub-millisatoshi amount');
    msat = digits / 10n;
  } else {
    msat = digits * (multiplier === '' ? MSAT_PER_BTC : MSAT_PER_UNIT[multiplier]);
  }
  if (msat <= 0n) fail('amount must be positive');
  if (msat > BigInt(Number.MAX_SAFE_INTEGER)) fail('amount is too large');
  return Number(msat);
}

/** Shortest representation: the largest multiplier that divides the amount exactly. */
export function formatBolt11Amount(msat: number): string {
  if (!Number.isSafeInteger(msat) || msat <= 0) throw new RangeError(`invalid amount ${msat} msat`);
  const value = BigInt(msat);
  if (value % MSAT_PER_BTC === 0n) return `${value / MSAT_PER_BTC}`;
  for (const unit of ['m', 'u', 'n'] as const) {
    if (value % MSAT_PER_UNIT[unit] === 0n) return `${value / MSAT_PER_UNIT[unit]}${unit}`;
  }
  return `${value * 10n}p`;
}
