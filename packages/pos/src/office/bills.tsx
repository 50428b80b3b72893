import { useState } from 'preact/hooks';
import { direct, newKey, ok, usePolled, useWrite } from '../api.js';
import { ReopenSheet, TicketCard } from '../bill.js';
import type { Ticket } from '../menu.js';
import { money } from '../money.js';
import { RefundSheet } from '../refund.js';
import { addDays, browserTimeZone, dayIn } from './report-days.js';

type Payment = Ticket['payments'][number];
type Sheet = { kind: 'refund'; payment: Payment } | { kind: 'reopen' } | null;

/** "#12 · T4 · 20:14": how a bill is found again, by its order's number and its table. */
const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/**
 * The day's bills for the manager (issue 60): today's or a chosen day's, found by the order's number or
 * the table; one picked shows as printed with its payments and refunds (who, who approved, why), and
 * gives a refund, the receipt again (on screen, or on the till's printer) and reopening a paid bill.
 * Straight to the network, as the back office's other screens.
 */
export function Bills() {
  const [day, setDay] = useState(() => dayIn(browserTimeZone(), new Date()));
  const [search, setSearch] = useState('');
  const [pickedId, setPickedId] = useState<string | null>(null);
  const [sheet, setSheet] = useState<Sheet>(null);
  const list = usePolled(() => direct.GET('/tickets', { params: { query: { from: day, to: day, all: true } } }), 5_000, [day]);
  const tables = usePolled(() => direct.GET('/tables', { params: { query: { all: true } } }), 60_000);
  const users = usePolled(() => direct.GET('/users', { params: { query: { all: true } } }), 60_000);
  const tableName = Object.fromEntries((tables.data ?? []).map((t) => [t.id, t.name]));
  const names = Object.fromEntries((users.data ?? []).map((u) => [u.id, u.name]));
  const wanted = search.trim().toLowerCase().replace(/^#/, '');
  const bills = [...(list.data ?? [])].reverse().filter((t) => !wanted || String(t.order_number ?? '') === wanted || (tableName[t.table_id ?? ''] ?? '').toLowerCase().includes(wanted));
  const picked = (list.data ?? []).find((t) => t.id === pickedId) ?? null;
  const done = () => { setSheet(null); list.refresh(); };
  return (
    <main class="bills-office">
      <h2>Bills</h2>
      <div class="report-range" role="group" aria-label="Day">
        <button type="button" id="bills-today" class="option" onClick={() => setDay(dayIn(browserTimeZone(), new Date()))}>Today</button>
        <button type="button" id="bills-yesterday" class="option" onClick={() => setDay(addDays(dayIn(browserTimeZone(), new Date()), -1))}>Yesterday</button>
        <label>Day<input type="date" id="bills-day" value={day} onChange={(e) => e.currentTarget.value && setDay(e.currentTarget.value)} /></label>
        <label>Find<input id="bills-search" placeholder="number or table" value={search} onInput={(e) => setSearch(e.currentTarget.value)} /></label>
      </div>
      <div class="bills-columns">
        <ul class="bills-list" id="bills-list">
          {bills.map((t) => (
            <li key={t.id}>
              <button type="button" class={t.id === pickedId ? 'bill-row chosen' : 'bill-row'} data-bill-row={t.id} onClick={() => setPickedId(t.id)}>
                <span>#{t.order_number ?? '—'} · {tableName[t.table_id ?? ''] ?? 'no table'} · {clock(t.created_at)}</span>
                <span>{money(t.total)} <span class={`badge ${t.status_name}`}>{t.status_name}</span>{t.refunded > 0 && <small class="refunded"> −{money(t.refunded)}</small>}</span>
              </button>
            </li>
          ))}
          {list.data !== undefined && bills.length === 0 && <li class="muted">No bills {wanted ? 'found' : 'that day'}.</li>}
          {list.status === 204 && <li class="muted">No bills that day.</li>}
        </ul>
        {picked && (
          <TicketCard ticket={picked} label={`Bill #${picked.order_number ?? '—'} · ${tableName[picked.table_id ?? ''] ?? 'no table'}`} names={names}
            onReopen={() => setSheet({ kind: 'reopen' })} onRefund={(p) => setSheet({ kind: 'refund', payment: p })}>
            <TillPrint ticketId={picked.id} />
          </TicketCard>
        )}
      </div>
      {picked && sheet && (
        <div class="sheet-backdrop">
          <div class="sheet" role="dialog">
            {sheet.kind === 'refund'
              ? <RefundSheet ticket={picked} payment={sheet.payment} onDone={done} onCancel={() => setSheet(null)} />
              : <ReopenSheet ticket={picked} label={`bill #${picked.order_number ?? '—'}`} onDone={done} />}
          </div>
        </div>
      )}
    </main>
  );
}

/** The receipt again on the till's printer (each tap prints once more; without a till printer the server says so). */
function TillPrint(props: { ticketId: string }) {
  const w = useWrite();
  const [queued, setQueued] = useState(false);
  const print = () => w.run(async () => {
    await ok(direct.POST('/tickets/{id}/print', { params: { path: { id: props.ticketId } }, headers: { 'idempotency-key': newKey() } }));
    setQueued(true);
  });
  return (
    <>
      <button type="button" class="secondary" id="print-till" disabled={w.busy} onClick={() => void print()}>Print on the till</button>
      {queued && <small class="muted" id="print-queued"> sent to the printer</small>}
      {w.error && <small class="error" role="alert">{w.error}</small>}
    </>
  );
}
