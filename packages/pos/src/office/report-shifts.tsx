import { useState } from 'preact/hooks';
import { direct } from '../api.js';
import { ShiftReport } from '../cashier.js';
import type { Shift } from '../menu.js';
import { money } from '../money.js';
import type { DayRange } from './report-days.js';
import { printOnly, useRangeRead } from './report-section.js';

const time = (iso: string | null) => (iso ? new Date(iso).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' }) : '—');
const amount = (value: number | null | undefined) => (value === null || value === undefined ? '—' : money(value));

/**
 * The shifts opened on the days picked (GET /shifts), each closed one with its Z report as recorded
 * when it closed; the report opens on a sheet, as the till shows it, and Reprint prints that sheet alone.
 */
export function ShiftsSection(props: { range: DayRange }) {
  const { range } = props;
  const shifts = useRangeRead(() => direct.GET('/shifts', { params: { query: range } }), [range.from, range.to]);
  const [shown, setShown] = useState<Shift | null>(null);
  const list = shifts.answer ?? [];
  return (
    <>
      <section class="report-section" id="report-shifts">
        <header class="report-section-head"><h3>Shifts and Z reports</h3></header>
        {!shifts.answer ? <p class={shifts.error ? 'error' : 'muted'}>{shifts.error ?? 'Loading…'}</p>
          : list.length === 0 ? <p class="muted">No shift opened in these days.</p> : (
            <div class="report-table-scroll">
              <table class="report-table" id="shifts-table">
                <thead><tr><th>Shift</th><th>Opened</th><th>Closed</th><th class="num">Sales</th><th class="num">Expected cash</th><th class="num">Counted</th><th class="num">Difference</th><th /></tr></thead>
                <tbody>
                  {list.map((s) => (
                    <tr key={s.id} data-shift-id={s.id}>
                      <td>{s.number}</td><td>{time(s.opened_at)}</td><td>{s.status === 'open' ? 'open' : time(s.closed_at)}</td>
                      <td class="num">{amount(s.report?.sales)}</td><td class="num">{amount(s.report?.expected_cash)}</td>
                      <td class="num">{amount(s.report?.counted_cash)}</td><td class="num">{amount(s.report?.difference)}</td>
                      <td>{s.report && s.status === 'closed' && <button type="button" class="secondary z-report" onClick={() => setShown(s)}>Z report</button>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
      </section>
      {shown && (
        <div class="sheet-backdrop">
          <div class="sheet z-sheet" role="dialog" id="z-report-sheet">
            <h3>Z report — shift {shown.number}</h3>
            <p class="muted">Opened {time(shown.opened_at)} · closed {time(shown.closed_at)}</p>
            <ShiftReport shift={shown} />
            <div class="actions no-print">
              <button type="button" class="secondary" id="z-close" onClick={() => setShown(null)}>Close</button>
              <button type="button" id="z-reprint" onClick={(e) => printOnly(e.currentTarget.closest('.sheet-backdrop'))}>Reprint</button>
            </div>
          </div>
        </div>
      )}
    </>
  );
}
