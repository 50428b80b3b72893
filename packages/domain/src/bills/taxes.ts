import type { Cents } from '../money.js';
import type { RecordedLine } from '../order/lines.js';
import { type LineShare, billedLineCents } from './split.js';
import { type StoredRate, ratePpmOf } from '../menu/tax-rates.js';
import { type ServiceCharge, serviceChargeLines } from './service-charge.js';

/** A rate as a bill was issued with it: later changes to the menu's rate never change an issued bill. */
export interface BillRate { taxRateId: string; name: string; ratePpm: number }

/** A rate as a ticket's issue carries it (tickets issued before issue 57 carry basis points). */
export type IssuedRate = { taxRateId: string; name: string } & StoredRate;

/** The rate as bills work with it, in parts per million, however it was written. */
export const billRate = (r: IssuedRate): BillRate => ({ taxRateId: r.taxRateId, name: r.name, ratePpm: ratePpmOf(r) });

/** One rate's share of a bill: `baseCents` net of tax, `amountCents` the tax. */
export interface BillTax extends BillRate { baseCents: Cents; amountCents: Cents }

/** What a bill needs to work out its taxes (a ticket's issue, or its read model). */
export interface TaxedBill {
  lines: ReadonlyArray<Pick<RecordedLine, 'lineId' | 'priceCents' | 'quantity' | 'modifiers'> & { taxRateId?: string | null; discountCents?: Cents; share?: LineShare }>;
  share: { part: number; parts: number } | null;
  /** The rates the lines name (absent on bills issued before taxes: nothing is taxed). */
  taxRates?: readonly IssuedRate[];
  /** COMANDA_PRICES_INCLUDE_TAX when issued (absent: true, as menu prices always were). */
  pricesIncludeTax?: boolean;
  /** A service charge it carries (service-charge.ts): counted, taxed and split as lines of the bill. */
  serviceCharge?: ServiceCharge | null;
}

/** 100 % in parts per million. */
const SCALE = 1_000_000n;

/**
 * One part's share of each rate's amount. The cents that do not divide evenly go round the parts in
 * turn, carrying on from rate to rate, so the parts' totals still differ by at most a cent and the
 * first parts carry the extra ones, as `splitEvenly` of the whole would (with one rate it is exactly that).
 */
function shareOfEach(amounts: Cents[], share: { part: number; parts: number }): Cents[] {
  let offset = 0;
  const mine = share.part - 1;
  return amounts.map((amount) => {
    const base = Math.floor(amount / share.parts);
    const extra = amount - base * share.parts;
    const gets = (mine - offset + share.parts) % share.parts < extra;
    offset = (offset + extra) % share.parts;
    return base + (gets ? 1 : 0);
  });
}

/** round half up of p / q, for p ≥ 0 and q > 0, exact (BigInt: a bill's cents × a rate outgrow a double's integers). */
const roundHalfUp = (p: bigint, q: bigint): Cents => Number((2n * p + q) / (2n * q));

/**
 * A bill's taxes per rate and what it asks before tips. Lines are grouped by rate (their amounts
 * summed first, so a rate's tax is rounded once per bill). Inclusive prices: tax = round half up of
 * gross × rate / (100 + rate), the base the rest, the bill asks the gross. Exclusive: tax = round half
 * up of net × rate / 100, the bill asks net + taxes. Untaxed lines count in the bill, in no tax line.
 *
 * A share of an even split, in both modes, takes its share of each rate's base and of each rate's
 * tax on the whole bill (`shareOfEach`), so the parts add up to the whole bill's base and tax per
 * rate to the cent. Taxing each part's gross on its own could lose or gain a cent per rate and part
 * (issue 57: 207.76 at 16 % in three parts carried 9.55 × 3 = 28.65 of the bill's 28.66); what each
 * part asks is unchanged (the shares' totals are `splitEvenly` of the bill's whichever amounts go round).
 */
export function billTaxes(bill: TaxedBill, voided: ReadonlySet<string> = new Set()): { taxes: BillTax[]; dueCents: Cents; netCents: Cents } {
  const byRate = new Map<string | null, Cents>();
  for (const l of [...bill.lines, ...serviceChargeLines(bill, voided)]) {
    if (voided.has(l.lineId)) continue;
    const rate = l.taxRateId ?? null;
    byRate.set(rate, (byRate.get(rate) ?? 0) + billedLineCents(l));
  }
  const rates = new Map((bill.taxRates ?? []).map((r) => [r.taxRateId, billRate(r)]));
  const groups = [...byRate].sort(([a], [b]) => (a ?? '').localeCompare(b ?? '')).map(([id, gross]) => ({ rate: id === null ? undefined : rates.get(id), gross }));
  const whole = taxed(groups, bill.pricesIncludeTax ?? true);
  const parts = bill.share
    ? pairs(shareOfEach(whole.flatMap((g) => [g.baseCents, g.amountCents]), bill.share)).map(([baseCents, amountCents], i) => ({ ...whole[i]!, baseCents, amountCents }))
    : whole;
  const taxes = parts.flatMap((p) => (p.rate ? [{ ...p.rate, baseCents: p.baseCents, amountCents: p.amountCents }] : []));
  taxes.sort((a, b) => a.ratePpm - b.ratePpm || a.name.localeCompare(b.name));
  const netCents = parts.reduce((sum, p) => sum + p.baseCents, 0);
  return { taxes, dueCents: netCents + parts.reduce((sum, p) => sum + p.amountCents, 0), netCents };
}

/**
 * The tax in one payment toward a bill, per rate: each rate's tax in proportion to what the payments
 * have covered of the bill so far, rounded half up cumulatively, so the payments that settle a bill
 * carry its taxes to the cent, whatever their number and sizes.
 */
export function paymentTaxes(taxes: readonly BillTax[], billCents: Cents, coveredBefore: Cents, amountCents: Cents): Array<BillRate & { amountCents: Cents }> {
  if (billCents <= 0) return [];
  const upTo = (covered: Cents, tax: Cents) => roundHalfUp(BigInt(Math.min(covered, billCents)) * BigInt(tax), BigInt(billCents));
  return taxes.map((x) => ({
    taxRateId: x.taxRateId, name: x.name, ratePpm: x.ratePpm, amountCents: upTo(coveredBefore + amountCents, x.amountCents) - upTo(coveredBefore, x.amountCents),
  }));
}

type Group = { rate: BillRate | undefined; gross: Cents };

/** Each group's base and tax (an untaxed group: all base, no tax). */
function taxed(groups: Group[], inclusive: boolean): Array<Group & { baseCents: Cents; amountCents: Cents }> {
  return groups.map((g) => {
    if (!g.rate) return { ...g, baseCents: g.gross, amountCents: 0 };
    const ppm = BigInt(g.rate.ratePpm);
    const amountCents = roundHalfUp(BigInt(g.gross) * ppm, inclusive ? SCALE + ppm : SCALE);
    return { ...g, baseCents: inclusive ? g.gross - amountCents : g.gross, amountCents };
  });
}

const pairs = (xs: Cents[]): Array<[Cents, Cents]> => Array.from({ length: xs.length / 2 }, (_, i) => [xs[2 * i]!, xs[2 * i + 1]!]);
