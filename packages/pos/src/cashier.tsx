import { useState } from 'preact/hooks';
import { accepted, api, newKey, ok, usePolled, useWrite } from './api.js';
import type { Member } from './login.js';
import { isManager } from './manager.js';
import type { Shift } from './menu.js';
import { money, parseAmount } from './money.js';
import { Keypad } from './pin-pad.js';

/** The till: open a shift with its float, watch the X report, close it with the counted cash (the Z report). */
export function Cashier(props: { me: Member }) {
  const current = usePolled(() => api.GET('/shifts/current'), 5_000);
  const [closed, setClosed] = useState<Shift | null>(null);
  const [cash, setCash] = useState('');
  const [key, setKey] = useState(newKey);
  const amount = parseAmount(cash);
  const shift = current.data;
  const w = useWrite();
  const run = (what: () => Promise<void>) => w.run(what, () => {
    setKey(newKey());
    setCash('');
    current.refresh();
  });
  const open = () => run(async () => void (await ok(api.POST('/shifts/open', { body: { cash_float: amount ?? 0 }, headers: { 'idempotency-key': key } }))));
  const close = () => run(async () => {
    const id = shift!.id;
    const answer = await ok(api.POST('/shifts/close', { body: { counted_cash: amount ?? 0 }, headers: { 'idempotency-key': key } }));
    setClosed(accepted(answer) ? await ok(api.GET('/shifts/{id}', { params: { path: { id } } })) : answer);
  });
  const manager = isManager(props.me);

  if (closed) {
    return (
      <main class="cashier">
        <h2>Z report — shift {closed.number}</h2>
        <ShiftReport shift={closed} />
        <button type="button" class="secondary" onClick={() => setClosed(null)}>New shift</button>
      </main>
    );
  }
  if (current.status === undefined) return <main class="cashier"><p class="muted">Loading the till…</p></main>;
  return (
    <main class="cashier">
      <h2>{shift ? `Shift ${shift.number} open since ${new Date(shift.opened_at).toLocaleTimeString()}` : 'No shift open'}</h2>
      {shift && <ShiftReport shift={shift} />}
      {manager ? (
        <section class="till">
          <div class="amount-display">{shift ? 'Counted cash' : 'Cash float'} <strong id="till-amount">{money(amount ?? 0)}</strong></div>
          <Keypad value={cash} onChange={setCash} decimal />
          {w.error && <p class="error" role="alert">{w.error}</p>}
          {shift
            ? <button type="button" id="close-shift" class="wide" disabled={w.busy || amount === null} onClick={() => void close()}>Close the shift with {money(amount ?? 0)} counted</button>
            : <button type="button" id="open-shift" class="wide" disabled={w.busy || amount === null} onClick={() => void open()}>Open the shift with {money(amount ?? 0)}</button>}
        </section>
      ) : <p class="muted">A manager opens and closes the till.</p>}
    </main>
  );
}

/** A shift's figures: the X report while open, the Z report once closed (also the back office's reprint). */
export function ShiftReport(props: { shift: Shift }) {
  const r = props.shift.report;
  if (!r) return null;
  const rows: Array<[string, string, string]> = [
    ['Sales', money(r.sales), 'sales'], ['Tips', money(r.tips), 'tips'], ['Refunds', money(r.refunds), 'refunds'], ['Net', money(r.net), 'net'],
    ['Covers', String(r.covers), 'covers'], ['Still open', money(r.open), 'open'], ['Cash float', money(r.cash_float), 'cash_float'], ['Expected cash', money(r.expected_cash), 'expected_cash'],
  ];
  if (r.counted_cash !== null) rows.push(['Counted cash', money(r.counted_cash), 'counted_cash']);
  if (r.difference !== null) rows.push(['Difference', money(r.difference), 'difference']);
  return (
    <div class="report" id="shift-report" data-shift-id={props.shift.id}>
      <dl>
        {rows.map(([label, value, field]) => <div key={field} data-field={field}><dt>{label}</dt><dd>{value}</dd></div>)}
      </dl>
      {Object.keys(r.by_method).length > 0 && <h3>By method</h3>}
      <dl>
        {Object.entries(r.by_method).map(([m, v]) => (
          <div key={m} data-method={m}><dt>{m.replace('_', ' ')} <small class="muted">× {v.count}</small></dt><dd>{money(v.amount)}{v.tip > 0 ? ` + tip ${money(v.tip)}` : ''}</dd></div>
        ))}
      </dl>
      {r.taxes_by_rate.length > 0 && (
        <>
          <h3>Taxes</h3>
          <dl>{r.taxes_by_rate.map((x) => <div key={x.tax_rate_id}><dt>{x.name} {x.rate} %</dt><dd>{money(x.amount)}</dd></div>)}</dl>
        </>
      )}
    </div>
  );
}
