import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { direct } from '../api.js';
import { money } from '../money.js';
import type { DayRange } from './report-days.js';
import { type Cell, type ReportAnswer, type Row, columns, download, sectionsCsv } from './report-csv.js';

export type ReportName = 'sales' | 'product-mix' | 'waiters' | 'payments' | 'tables' | 'kitchen' | 'cancellations' | 'discounts' | 'audit';

/** The reports retry while the API is still folding the log (503), as its answer asks. */
const RETRY_MS = 2_000;

/**
 * A read for the range, once per range (a report is a fold of the log: not polled); asked again
 * while the API answers 503 (the reports are still being folded).
 */
export function useRangeRead<T>(read: () => Promise<{ data?: T; response: Response }>, keys: unknown[], onData?: (data: T) => void): { answer: T | undefined; error: string | null } {
  const [answer, setAnswer] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setAnswer(undefined);
    setError(null);
    const once = async () => {
      try {
        const { data, response } = await read();
        if (stopped) return;
        if (data) {
          setAnswer(data);
          onData?.(data);
        } else if (response.status === 503) {
          setError('Still being built from the log…');
          timer = setTimeout(() => void once(), RETRY_MS);
        } else setError(`This cannot be read now (${response.status}).`);
      } catch {
        if (!stopped) setError('The network is away; pick the range again when it is back.');
      }
    };
    void once();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, keys);
  return { answer, error };
}

/** One report for the range; its answer says the restaurant's time zone (`onZone`). */
export const useReport = (name: ReportName, range: DayRange, onZone: (timeZone: string) => void) =>
  useRangeRead<ReportAnswer>(() => direct.GET('/reports/{name}', { params: { path: { name }, query: range } }), [name, range.from, range.to], (a) => onZone(a.time_zone));

/** Prints one section alone: the print stylesheet leaves off all but the section marked `print-this`. */
export function printOnly(section: HTMLElement | null): void {
  if (!section) return;
  const done = () => {
    document.body.classList.remove('printing-section');
    section.classList.remove('print-this');
  };
  document.body.classList.add('printing-section');
  section.classList.add('print-this');
  window.addEventListener('afterprint', done, { once: true });
  window.print();
}

/**
 * A section of the reports screen: its title, CSV of the report sections it shows (the CLI's own
 * format) and Print (this section alone on paper), then its charts and tables.
 */
export function ReportSection(props: { id: string; title: string; answer: ReportAnswer | undefined; error: string | null; csv: string[]; children: ComponentChildren }) {
  const { answer } = props;
  const file = answer ? `${answer.report}-${props.id}-${answer.from ?? 'start'}-${answer.to ?? 'end'}.csv` : '';
  return (
    <section class="report-section" id={`report-${props.id}`}>
      <header class="report-section-head">
        <h3>{props.title}</h3>
        {answer && (
          <div class="actions no-print">
            <button type="button" class="secondary csv" onClick={() => download(file, sectionsCsv(answer, props.csv))}>CSV</button>
            <button type="button" class="secondary print" onClick={(e) => printOnly(e.currentTarget.closest('section'))}>Print</button>
          </div>
        )}
      </header>
      {answer ? props.children : <p class={props.error ? 'error' : 'muted'}>{props.error ?? 'Loading…'}</p>}
    </section>
  );
}

/** Rows a table shows at most: more take seconds to lay out on a tablet and nobody reads them there. */
const SHOWN_ROWS = 500;

const heading = (column: string) => column.charAt(0).toUpperCase() + column.slice(1).replaceAll('_', ' ');

const shown = (cell: Cell | undefined, isMoney: boolean): string =>
  cell === null || cell === undefined ? '—' : isMoney && typeof cell === 'number' ? money(cell) : String(cell);

/**
 * A report section as a table: every column the report gives but its ids (kept in the CSV), money
 * columns in the currency. Each cell keeps the report's own value in data-value, so the e2e test can
 * hold the screen to GET /reports to the cent.
 */
export function ReportTable(props: { id: string; rows: Row[] | undefined; money?: string[]; empty?: string; latest?: boolean }) {
  const all = props.rows ?? [];
  if (all.length === 0) return <p class="muted" id={props.id}>{props.empty ?? 'Nothing in these days.'}</p>;
  // A year of the audit trail is thousands of rows: the screen shows the newest (or first) ones, the CSV all.
  const rows = all.length <= SHOWN_ROWS ? all : props.latest ? all.slice(-SHOWN_ROWS) : all.slice(0, SHOWN_ROWS);
  const cols = columns(rows).filter((c) => c !== 'id' && !c.endsWith('_id'));
  const isMoney = new Set(props.money ?? []);
  return (
    <div class="report-table-scroll">
      <table class="report-table" id={props.id}>
        <thead><tr>{cols.map((c) => <th key={c} class={typeof rows[0]![c] === 'number' ? 'num' : ''}>{heading(c)}</th>)}</tr></thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {cols.map((c) => (
                <td key={c} data-col={c} data-value={JSON.stringify(row[c] ?? null)} class={typeof row[c] === 'number' ? 'num' : ''}>{shown(row[c], isMoney.has(c))}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length < all.length && <p class="muted report-more">{props.latest ? 'The latest' : 'The first'} {rows.length} of {all.length}; the CSV has them all.</p>}
    </div>
  );
}

/** A report's one-row section (the totals) as figures, each with the report's own value in data-value. */
export function ReportFigures(props: { id: string; row: Row | undefined; money?: string[] }) {
  const row = props.row ?? {};
  const isMoney = new Set(props.money ?? []);
  return (
    <dl class="report-figures" id={props.id}>
      {Object.keys(row).map((c) => (
        <div key={c} data-col={c} data-value={JSON.stringify(row[c] ?? null)}><dt>{heading(c)}</dt><dd>{shown(row[c], isMoney.has(c))}</dd></div>
      ))}
    </dl>
  );
}
