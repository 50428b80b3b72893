import t from 'tap';
import fc from 'fast-check';
import { type BillTax, billTaxes, billedLineCents, keptTaxes, lineTotal } from '@comanda/domain';
import { ALL_REPORTS, ReportFold, type Row } from '../src/index.js';
import { CASH_FLOAT, type DayPlan, dayPlan, runDay } from './service-day.js';
import { billsAsTheyStand } from './standing-bills.js';

/**
 * Issue 57, as a property: for any day of service played through the real workflows (service-day.ts),
 * in both tax modes, every owner's report replayed from the log and the Z report closed at the end of
 * the day say what the bills say as they stand (standing-bills.ts), to the cent: after voids, comps,
 * discounts, price overrides and refunds, walk-outs apart. No figure goes below zero, every bill's
 * taxes are its rates' as specified, and the parts of an even split add up to the whole bill.
 * fast-check prints the seed and the shrunk day of a failure; `FC_SEED=<seed>` replays it.
 */
const cents = (money: unknown): number => Math.round(Number(money) * 100);
const RUNS = Number(process.env.FC_RUNS ?? 80);

/** What one day's reports and bills disagree on: one line per figure, empty when they agree. */
async function disagreements(plan: DayPlan, inclusive: boolean, happened: Map<string, number>): Promise<string[]> {
  const day = await runDay(plan, inclusive);
  for (const [what, n] of day.happened) happened.set(what, (happened.get(what) ?? 0) + n);
  const bills = await billsAsTheyStand(day.commands, day.log, CASH_FLOAT);
  const fold = new ReportFold(ALL_REPORTS, 'UTC');
  fold.apply(day.log);
  const section = (report: string, name: string): Row[] => fold.report(report)!.result({}).sections[name] ?? [];
  const problems: string[] = [];
  const same = (what: string, actual: unknown, expected: unknown) => {
    if (JSON.stringify(actual) !== JSON.stringify(expected)) problems.push(`${what}: report ${JSON.stringify(actual)}, bills ${JSON.stringify(expected)}`);
  };
  const notNegative = (what: string, rows: Row[]) => {
    for (const row of rows) for (const [k, v] of Object.entries(row)) if (typeof v === 'number' && v < 0) problems.push(`${what}.${k} is negative: ${v}`);
  };

  // Sales: what the completed orders came to, less voids and refunds, is what the bills kept, and
  // what walked out still owed; each rate's base and tax is what the paid bills kept of it.
  const sales = section('sales', 'totals')[0]!;
  const b = bills.sales;
  same('sales totals', ['orders', 'gross', 'discounts', 'comps', 'voids', 'refunds', 'net'].map((k) => (k === 'orders' ? sales[k] : cents(sales[k]))),
    [b.orders, b.gross, b.discounts, b.comps, b.voids, b.refunds, b.net]);
  const taxRows = section('sales', 'tax_by_rate');
  same('sales tax by rate', Object.fromEntries(taxRows.map((r) => [String(r.tax_rate_id), { base: cents(r.base), tax: cents(r.tax) }]).sort()),
    Object.fromEntries([...bills.taxes].filter(([, x]) => x.base !== 0 || x.tax !== 0).sort()));
  notNegative('sales', [sales, ...taxRows, ...section('sales', 'by_day')]);

  const waiters = section('waiters', 'by_waiter');
  same('waiters', Object.fromEntries(waiters.map((w) => [w.waiter_id, [w.orders, cents(w.sales), cents(w.tips), w.unpaid_orders, cents(w.unpaid)]]).sort()),
    Object.fromEntries([...bills.waiters].filter(([, w]) => w.orders > 0).map(([id, w]) => [id, [w.orders, w.sales, w.tips, w.unpaidOrders, w.unpaid]]).sort()));
  notNegative('waiters', waiters);

  const payments = section('payments', 'by_method');
  same('payments', Object.fromEntries(payments.map((p) => [p.method, [p.payments, cents(p.amount), cents(p.tips), cents(p.refunds), cents(p.net)]]).sort()),
    Object.fromEntries([...bills.payments].map(([m, p]) => [m, [p.payments, p.amount, p.tips, p.refunds, p.amount + p.tips - p.refunds]]).sort()));
  notNegative('payments', payments);

  const byKind = (rows: Row[]) => {
    const kinds: Record<string, [number, number]> = {};
    for (const r of rows) {
      const k = (kinds[String(r.kind)] ??= [0, 0]);
      k[0] += Number(r.count);
      k[1] += cents(r.amount);
    }
    return kinds;
  };
  const cancellations = byKind(section('cancellations', 'by_reason'));
  same('cancellations', [cancellations.void ?? [0, 0], cancellations.refund ?? [0, 0], cancellations.ticket_cancelled ?? [0, 0]],
    [[bills.voids.count, bills.voids.cents], [bills.refunds.count, bills.refunds.cents], [bills.cancelledTickets.count, bills.cancelledTickets.cents]]);
  const given = [[bills.discounts.count, bills.discounts.cents], [bills.comps.count, bills.comps.cents]];
  const discountsOf = (rows: Row[]) => [byKind(rows).discount ?? [0, 0], byKind(rows).comp ?? [0, 0]];
  same('cancellations: discounts and comps', discountsOf(section('cancellations', 'discounts_by_reason')), given);
  same('discounts report', discountsOf(section('discounts', 'by_reason')), given);
  notNegative('cancellations', section('cancellations', 'by_reason'));

  // The Z report of the day's one shift: the payments, the drawer, and the tax the bills kept.
  const z = day.report;
  same('Z report', [z.salesCents, z.tipsCents, z.overpaidCents, z.refundsCents, z.netCents, z.expectedCashCents, z.openCents],
    [bills.z.sales, bills.z.tips, bills.z.overpaid, bills.z.refunds, bills.z.sales + bills.z.tips + bills.z.overpaid - bills.z.refunds, bills.z.expectedCash, bills.z.open]);
  same('Z report tax by rate', Object.fromEntries((z.taxesByRate ?? []).map((x) => [x.taxRateId, x.amountCents]).sort()),
    Object.fromEntries([...bills.taxes].filter(([, x]) => x.tax !== 0).map(([id, x]) => [id, x.tax]).sort()));
  same('Z report by method', Object.fromEntries(Object.entries(z.byMethod).map(([m, x]) => [m, [x.count, x.amountCents, x.tipCents, x.refundsCents]]).sort()),
    Object.fromEntries([...bills.payments].map(([m, p]) => [m, [p.payments, p.amount, p.tips, p.refunds]]).sort()));
  for (const k of ['salesCents', 'tipsCents', 'refundsCents', 'netCents', 'expectedCashCents', 'openCents'] as const) if (z[k] < 0) problems.push(`Z ${k} is negative: ${z[k]}`);
  for (const x of z.taxesByRate ?? []) if (x.amountCents < 0) problems.push(`Z tax of ${x.taxRateId} is negative: ${x.amountCents}`);

  // A void takes its line's value off sales, unless a refund on its paid bill came first (then what the bill lost with it).
  for (const v of bills.voidsTaken) {
    if (v.taken < 0 || (!v.afterRefund && v.taken !== v.lineValue)) problems.push(`${v.ticketId}: a void of a line of ${v.lineValue} took ${v.taken} off its bill`);
  }
  problems.push(...billProblems(bills.tickets, inclusive));
  return problems;
}

const roundHalfUp = (p: bigint, q: bigint) => Number((2n * p + q) / (2n * q));
const byRate = (taxes: BillTax[]) => Object.fromEntries(taxes.map((x) => [x.taxRateId, [x.baseCents, x.amountCents]]).sort());

/** Each bill's taxes: as the issue specifies them, never below zero nor above the bill's, an even split's parts adding up to it. */
function billProblems(tickets: Awaited<ReturnType<typeof billsAsTheyStand>>['tickets'], inclusive: boolean): string[] {
  const problems: string[] = [];
  const shares = new Map<string, typeof tickets>();
  for (const k of tickets) {
    const { issue } = k.t;
    if (issue.share) {
      shares.set(issue.billId, [...(shares.get(issue.billId) ?? []), k]);
      continue;
    }
    // A whole bill: each rate taxed once on its lines' gross (inclusive) or net (exclusive), half up.
    const gross = new Map<string, number>();
    // A check carrying its share of an item split between checks (issue 59) is taxed on that share.
    for (const l of issue.lines) if (!k.t.voided[l.lineId]) gross.set(l.taxRateId!, (gross.get(l.taxRateId!) ?? 0) + billedLineCents(l));
    for (const x of billTaxes(issue, new Set(Object.keys(k.t.voided))).taxes) {
      const g = BigInt(gross.get(x.taxRateId) ?? 0), ppm = BigInt(x.ratePpm);
      const tax = roundHalfUp(g * ppm, inclusive ? 1_000_000n + ppm : 1_000_000n);
      if (x.amountCents !== tax || x.baseCents !== (inclusive ? Number(g) - tax : Number(g))) problems.push(`${k.id}: ${x.taxRateId} taxed ${x.baseCents}+${x.amountCents} on ${g}, specified ${tax}`);
    }
  }
  // An item split between checks: its shares on the checks add up to it, after its discount, to the cent.
  const items = new Map<string, { whole: number; shares: number }>();
  for (const k of tickets) {
    for (const l of k.t.issue.lines) {
      if (!l.share) continue;
      const item = items.get(`${k.t.issue.billId}/${l.lineId}`) ?? { whole: lineTotal(l) - (l.discountCents ?? 0), shares: 0 };
      items.set(`${k.t.issue.billId}/${l.lineId}`, { ...item, shares: item.shares + billedLineCents(l) });
    }
  }
  for (const [item, { whole, shares: added }] of items) if (whole !== added) problems.push(`${item}: the checks carry ${added} of ${whole}`);
  for (const [billId, parts] of shares) {
    const { issue } = parts[0]!.t;
    const whole = billTaxes({ ...issue, share: null });
    const added = new Map<string, [number, number]>();
    for (const p of parts) for (const x of billTaxes(p.t.issue).taxes) added.set(x.taxRateId, [(added.get(x.taxRateId)?.[0] ?? 0) + x.baseCents, (added.get(x.taxRateId)?.[1] ?? 0) + x.amountCents]);
    if (JSON.stringify(Object.fromEntries([...added].sort())) !== JSON.stringify(byRate(whole.taxes))) problems.push(`${billId}: the even split's parts carry ${JSON.stringify([...added])}, the bill ${JSON.stringify(byRate(whole.taxes))}`);
    const asked = parts.reduce((s, p) => s + p.t.issue.subtotalCents, 0);
    if (asked !== whole.dueCents) problems.push(`${billId}: the parts ask ${asked}, the bill ${whole.dueCents}`);
  }
  for (const k of tickets) {
    if (!k.ledger.paid) continue;
    // What a paid bill declares: each rate's share of the money it kept, within the bill's own.
    const standing = billTaxes(k.t.issue, new Set(k.ledger.voided));
    const kept = keptTaxes(k.ledger);
    for (const x of kept) {
      const of = standing.taxes.find((y) => y.taxRateId === x.taxRateId)!;
      if (x.amountCents < 0 || x.baseCents < 0 || x.amountCents > of.amountCents || x.baseCents > of.baseCents) problems.push(`${k.id}: keeps ${x.baseCents}+${x.amountCents} of ${x.taxRateId}, the bill's is ${of.baseCents}+${of.amountCents}`);
    }
    const declared = kept.reduce((s, x) => s + x.baseCents + x.amountCents, 0);
    if (declared !== Math.min(k.kept, standing.dueCents)) problems.push(`${k.id}: kept ${k.kept} of ${standing.dueCents}, its rates declare ${declared}`);
  }
  return problems;
}

const happened = new Map<string, number>();
for (const inclusive of [true, false]) {
  t.test(`property, prices ${inclusive ? 'including' : 'without'} tax: every report and the Z report equal the bills as they stand`, async (t) => {
    const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
    const run = await fc.check(fc.asyncProperty(dayPlan, async (plan) => {
      const problems = await disagreements(plan, inclusive, happened);
      if (problems.length) throw new Error(problems.slice(0, 8).join('\n'));
    }), { numRuns: RUNS, ...(seed === undefined ? {} : { seed }), interruptAfterTimeLimit: 40_000 });
    // The message names the seed, the shrunk day and what disagreed on it (shrinking stops after 40 s: tap's limit is 120).
    t.notOk(run.failed, run.failed ? `${fc.defaultReportMessage(run)}\n${run.errorInstance instanceof Error ? run.errorInstance.message : ''}` : 'held');
  });
}

t.test('the days generated did what the property is about', async (t) => {
  // A property over days where nothing was voided or refunded would prove nothing about them.
  for (const what of [
    'order with a price override', 'price override by a manager', 'negative modifiers', 'void of a fired line', 'order discount', 'line discount', 'comp',
    'split none', 'split even', 'split seats', 'split item', 'bill cancelled', 'walk-out', 'cash payment', 'credit_card payment', 'debit_card payment', 'tip',
    'refund', 'void before payment', 'void after payment',
  ]) t.ok((happened.get(what) ?? 0) > 0, `${what}: ${happened.get(what) ?? 0}`);
  t.comment(JSON.stringify(Object.fromEntries([...happened].sort())));
});
