import { useMemo, useState } from 'preact/hooks';
import { BarChart } from './report-chart.js';
import { type DayRange, type RangeKind, browserTimeZone, rangeOf } from './report-days.js';
import { ShiftsSection } from './report-shifts.js';
import { ReportFigures, ReportSection, ReportTable, useReport } from './report-section.js';
import type { Row } from './report-csv.js';

const RANGES: Array<[Exclude<RangeKind, 'custom'>, string]> = [['today', 'Today'], ['yesterday', 'Yesterday'], ['week', 'This week']];

/** The sales report's columns that are money (its counts and ratios are not). */
const SALES_MONEY = ['gross', 'discounts', 'comps', 'voids', 'refunds', 'net', 'average_ticket', 'average_per_cover'];

/** A column of numbers for a chart (a report's money is a number of the currency). */
const numbers = (rows: Row[] | undefined, column: string): number[] => (rows ?? []).map((r) => Number(r[column] ?? 0));
const labels = (rows: Row[] | undefined, column: string): string[] => (rows ?? []).map((r) => String(r[column] ?? ''));

/**
 * The owner's reports on screen (issue 60), for managers: the same folds of the log as
 * `npm run analytics` and GET /reports/{name}, for the days picked. Each section reads its report
 * on its own, so the first chart does not wait for the slowest report.
 */
export function Reports() {
  const [timeZone, setTimeZone] = useState(browserTimeZone);
  const [kind, setKind] = useState<RangeKind>('today');
  const [custom, setCustom] = useState<DayRange>(() => rangeOf('today', timeZone));
  // Today is the restaurant's today: the reports answer with its time zone, and the range follows it.
  const range = useMemo(() => (kind === 'custom' ? custom : rangeOf(kind, timeZone)), [kind, custom, timeZone]);
  const onZone = (zone: string) => { if (zone !== timeZone) setTimeZone(zone); };
  const sales = useReport('sales', range, onZone);
  const mix = useReport('product-mix', range, onZone);
  const waiters = useReport('waiters', range, onZone);
  const payments = useReport('payments', range, onZone);
  const discounts = useReport('discounts', range, onZone);
  const audit = useReport('audit', range, onZone);
  const s = sales.answer?.sections;
  return (
    <main class="reports">
      <h2>Reports</h2>
      <div class="report-range no-print" role="group" aria-label="Days">
        {RANGES.map(([k, name]) => (
          <button type="button" key={k} id={`range-${k}`} class={kind === k ? 'option chosen' : 'option'} onClick={() => setKind(k)}>{name}</button>
        ))}
        <label>From<input type="date" id="range-from" value={range.from} max={range.to} onChange={(e) => { setCustom({ from: e.currentTarget.value, to: range.to }); setKind('custom'); }} /></label>
        <label>To<input type="date" id="range-to" value={range.to} min={range.from} onChange={(e) => { setCustom({ from: range.from, to: e.currentTarget.value }); setKind('custom'); }} /></label>
      </div>
      <p class="muted report-days" id="report-days">{range.from === range.to ? range.from : `${range.from} to ${range.to}`} · {timeZone}</p>

      <ReportSection id="sales" title="Sales" {...sales} csv={['totals', 'by_day', 'by_hour', 'tax_by_rate']}>
        <ReportFigures id="sales-totals" row={s?.totals?.[0]} money={SALES_MONEY} />
        <div class="report-charts">
          <BarChart id="chart-by-day" title="Net sales by day" labels={labels(s?.by_day, 'day')} values={numbers(s?.by_day, 'net')} />
          <BarChart id="chart-by-hour" title="Net sales by hour" labels={labels(s?.by_hour, 'hour')} values={numbers(s?.by_hour, 'net')} />
        </div>
        <h4>By day</h4>
        <ReportTable id="sales-by-day" rows={s?.by_day} money={SALES_MONEY} />
        <h4>Taxes by rate</h4>
        <ReportTable id="sales-taxes" rows={s?.tax_by_rate} money={['base', 'tax']} empty="No tax declared in these days." />
      </ReportSection>

      <ReportSection id="product-mix" title="Product mix" {...mix} csv={['by_dish', 'by_category', 'by_modifier', 'by_price_level']}>
        <ReportTable id="mix-by-dish" rows={mix.answer?.sections.by_dish} money={['revenue']} />
        <h4>By category</h4>
        <ReportTable id="mix-by-category" rows={mix.answer?.sections.by_category} money={['revenue']} />
        {(mix.answer?.sections.by_price_level?.length ?? 0) > 0 && <>
          <h4>By price level</h4>
          <ReportTable id="mix-by-price-level" rows={mix.answer?.sections.by_price_level} money={['revenue', 'at_regular_prices', 'below_regular']} />
        </>}
      </ReportSection>

      <ReportSection id="waiters" title="Waiters" {...waiters} csv={['by_waiter']}>
        <ReportTable id="waiters-table" rows={waiters.answer?.sections.by_waiter} money={['sales', 'average_ticket', 'tips', 'unpaid']} />
      </ReportSection>

      <ReportSection id="payments" title="Payments by method" {...payments} csv={['by_method']}>
        <ReportTable id="payments-table" rows={payments.answer?.sections.by_method} money={['amount', 'tips', 'refunds', 'net']} />
      </ReportSection>

      <ReportSection id="discounts" title="Discounts and comps" {...discounts} csv={['given', 'by_reason']}>
        <ReportTable id="discounts-table" rows={discounts.answer?.sections.given} money={['amount']} empty="No discount or comp in these days." />
      </ReportSection>

      <ReportSection id="audit" title="Voids, overrides and approvals" {...audit} csv={['by_kind', 'entries']}>
        <ReportTable id="audit-by-kind" rows={audit.answer?.sections.by_kind} money={['amount']} empty="No exception in these days." />
        <ReportTable id="audit-table" rows={audit.answer?.sections.entries} money={['amount', 'before', 'after']} empty="" latest />
      </ReportSection>

      <ShiftsSection range={range} />
    </main>
  );
}
