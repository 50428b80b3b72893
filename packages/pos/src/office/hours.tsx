import { useState } from 'preact/hooks';
import type { paths } from '@comanda/client';
import { direct, newKey, ok, usePolled, useWrite } from '../api.js';

type Shift = paths['/time-clock/shifts']['get']['responses'][200]['content']['application/json'][number];
type Range = { from: string; to: string };

/** A calendar day on this tablet (it stands in the restaurant, so its day is the restaurant's). */
const dayOf = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const daysAgo = (n: number) => { const d = new Date(); d.setDate(d.getDate() - n); return d; };
const RANGES: Array<{ name: string; range: () => Range }> = [
  { name: 'Today', range: () => ({ from: dayOf(new Date()), to: dayOf(new Date()) }) },
  { name: 'Yesterday', range: () => ({ from: dayOf(daysAgo(1)), to: dayOf(daysAgo(1)) }) },
  // Monday to today.
  { name: 'This week', range: () => ({ from: dayOf(daysAgo((new Date().getDay() + 6) % 7)), to: dayOf(new Date()) }) },
];
const hm = (minutes: number) => `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')}`;
const clock = (iso: string | null) => (iso ? new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : 'now');
/** An instant as a datetime-local input shows it (the tablet's wall clock), and back. */
const local = (iso: string) => { const d = new Date(iso); return `${dayOf(d)}T${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`; };

/**
 * Hours on the time clock, for managers (issue 60): per member and day, then each shift with its breaks
 * and the corrections made to it; a shift corrected, or one never clocked recorded, with a reason the
 * audit trail keeps. Straight to the network, as the other back office writes.
 */
export function Hours() {
  const [which, setWhich] = useState(0);
  const range = RANGES[which]!.range();
  const query = { params: { query: range } };
  const hours = usePolled(() => direct.GET('/time-clock/hours', query), 10_000, [range.from, range.to]);
  const shifts = usePolled(() => direct.GET('/time-clock/shifts', query), 10_000, [range.from, range.to]);
  const [editing, setEditing] = useState<Shift | null>(null);
  const done = () => { setEditing(null); hours.refresh(); shifts.refresh(); };
  return (
    <main class="hours">
      <h2>Hours</h2>
      <div class="segmented" role="tablist">
        {RANGES.map((r, i) => <button type="button" role="tab" key={r.name} aria-selected={i === which} class={i === which ? 'active' : ''} onClick={() => setWhich(i)}>{r.name}</button>)}
      </div>
      {hours.status !== undefined && hours.status !== 200 ? <p class="error" role="alert">The hours cannot be read now ({hours.status}).</p> : (
        <table class="hours-table" id="hours-table">
          <thead><tr><th>Day</th><th>Who</th><th>Shifts</th><th>Worked</th><th>Breaks</th></tr></thead>
          <tbody>
            {(hours.data ?? []).map((h) => (
              <tr key={`${h.day} ${h.user_id}`} data-user={h.name}>
                <td>{h.day}</td><td>{h.name}{h.corrected && <small class="muted"> corrected</small>}</td><td>{h.shifts}</td><td class="worked">{hm(h.worked_minutes)}</td><td>{hm(h.break_minutes)}</td>
              </tr>
            ))}
            {hours.data?.length === 0 && <tr><td colSpan={5} class="muted">Nobody clocked in.</td></tr>}
          </tbody>
        </table>
      )}
      <h3>Shifts</h3>
      <ul class="shift-list">
        {(shifts.data ?? []).map((s) => (
          <li key={s.id} class="shift" data-shift-id={s.id}>
            <div>
              <strong>{s.name}</strong> <span>{s.day} · {clock(s.clocked_in_at)}–{clock(s.clocked_out_at)}</span>
              {s.on_break && <span class="badge">on a break</span>}
              <small class="muted">{hm(s.worked_minutes)} worked, {s.break_minutes} min break{s.corrections.map((c) => ` · corrected by ${c.by}: ${c.reason}`).join('')}</small>
            </div>
            <button type="button" class="secondary correct" onClick={() => setEditing(s)}>Correct</button>
          </li>
        ))}
      </ul>
      {editing && (
        <div class="sheet-backdrop">
          <div class="sheet" role="dialog"><CorrectShift shift={editing} onDone={done} onCancel={() => setEditing(null)} /></div>
        </div>
      )}
    </main>
  );
}

/** The shift as it was: its times, its breaks, and why. */
function CorrectShift(props: { shift: Shift; onDone: () => void; onCancel: () => void }) {
  const s = props.shift;
  const [from, setFrom] = useState(local(s.clocked_in_at));
  const [to, setTo] = useState(local(s.clocked_out_at ?? new Date().toISOString()));
  const [breaks, setBreaks] = useState(String(s.break_minutes));
  const [reason, setReason] = useState('');
  const [key] = useState(newKey);
  const w = useWrite();
  const save = () => w.run(() => ok(direct.PUT('/time-clock/shifts/{id}', {
    params: { path: { id: s.id } }, headers: { 'idempotency-key': key },
    body: { clocked_in_at: new Date(from).toISOString(), clocked_out_at: new Date(to).toISOString(), break_minutes: Number(breaks) || 0, reason: reason.trim() },
  })), props.onDone);
  return (
    <form onSubmit={(e) => { e.preventDefault(); if (reason.trim()) void save(); }}>
      <h3>Correct {s.name}'s shift</h3>
      <label>Clocked in<input type="datetime-local" id="shift-in" value={from} onInput={(e) => setFrom(e.currentTarget.value)} /></label>
      <label>Clocked out<input type="datetime-local" id="shift-out" value={to} onInput={(e) => setTo(e.currentTarget.value)} /></label>
      <label>Breaks, minutes<input type="number" inputMode="numeric" min={0} id="shift-breaks" value={breaks} onInput={(e) => setBreaks(e.currentTarget.value)} /></label>
      <label>Why<input id="shift-reason" autocomplete="off" maxLength={200} placeholder="Forgot to clock out…" value={reason} onInput={(e) => setReason(e.currentTarget.value)} /></label>
      {w.error && <p class="error" role="alert">{w.error}</p>}
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>Cancel</button>
        <button type="submit" id="save-shift" disabled={w.busy || !reason.trim()}>Save</button>
      </div>
    </form>
  );
}
