import { useState } from 'preact/hooks';
import type { paths } from '@comanda/client';
import { direct, newKey, ok, usePolled, useWrite } from '../api.js';
import { Choice, EditSheet } from './edit-sheet.js';

type Printer = paths['/printers']['get']['responses'][200]['content']['application/json'][number];
type Body = paths['/printers']['post']['requestBody']['content']['application/json'];
type Save = (write: () => Promise<unknown>, after?: () => void) => Promise<void>;
const all = { params: { query: { all: true } } };
const CODE_PAGES: Array<{ id: Body['code_page']; name: string }> = [
  { id: 'cp858', name: 'CP858 (Western Europe, with €)' }, { id: 'windows1252', name: 'Windows-1252 (with €)' },
  { id: 'cp850', name: 'CP850 (Western Europe)' }, { id: 'cp437', name: 'CP437 (US)' },
];
const MODES: Array<{ id: NonNullable<Body['station_mode']>; name: string }> = [
  { id: 'paper', name: 'Paper only' }, { id: 'both', name: 'Paper and screen' }, { id: 'screen', name: 'Screen; paper when the screen is gone' },
];

/**
 * The ESC/POS printers, for managers and admins (issue 61): each one's address, paper and code page,
 * the station whose tickets it prints (and how), the till's bills and receipts or some tablets', a test page; then the
 * queue, each job's age, tries and the printer's last error: paper out or a printer off shows here.
 */
export function Printers() {
  const list = usePolled(() => direct.GET('/printers'), 10_000);
  const stations = usePolled(() => direct.GET('/stations', all), 60_000);
  const queue = usePolled(() => direct.GET('/printers/jobs', {}), 3_000);
  const [editing, setEditing] = useState<Printer | 'new' | null>(null);
  const [said, setSaid] = useState('');
  const w = useWrite();
  const save: Save = (write, after) => w.run(write, () => { after?.(); list.refresh(); queue.refresh(); });
  const close = () => { setEditing(null); w.setError(''); };
  const stationName = (id: string | null) => stations.data?.find((s) => s.id === id)?.name ?? 'a station';
  const test = (p: Printer) => w.run(() => ok(direct.POST('/printers/{id}/test', { params: { path: { id: p.id } }, headers: { 'idempotency-key': newKey() } })), () => {
    setSaid(`A test page is on its way to ${p.name}`);
    queue.refresh();
  });
  const printers = list.data ?? [];
  const prints = (p: Printer) => [
    p.till ? 'the till: bills and receipts' : p.station_id ? `${stationName(p.station_id)}, ${MODES.find((m) => m.id === p.station_mode)?.name.toLowerCase()}` : '',
    p.devices.length ? `bills of ${p.devices.join(', ')}` : '',
  ].filter((x) => x).join(' · ') || 'not assigned';
  const nameOf = (id: string) => printers.find((p) => p.id === id)?.name ?? 'a removed printer';
  return (
    <main class="printers">
      <div class="category-head">
        <h2>Printers</h2>
        <button type="button" id="add-printer" onClick={() => setEditing('new')}>+ Add</button>
      </div>
      {said && <p class="muted" role="status" id="printer-said">{said}</p>}
      {!editing && w.error && <p class="error" role="alert">{w.error}</p>}
      <ul class="menu-rows">
        {printers.map((p) => (
          <li key={p.id} class="menu-row printer" data-printer={p.name}>
            <span class="row-name">
              <strong>{p.name}</strong>
              <small class="muted">{p.host}:{p.port} · {p.paper_width} mm · {p.code_page} · {prints(p)}</small>
            </span>
            <span class="row-actions">
              <button type="button" class="secondary test" disabled={w.busy} onClick={() => void test(p)}>Test page</button>
              <button type="button" class="secondary change" onClick={() => setEditing(p)}>Change</button>
            </span>
          </li>
        ))}
        {list.status !== undefined && printers.length === 0 && <li class="muted">No printer yet: the kitchen works from its screens, bills from the browser.</li>}
      </ul>
      <h3>Waiting to print</h3>
      <ul class="menu-rows" id="print-queue">
        {(queue.data ?? []).map((j) => (
          <li key={j.id} class="menu-row job" data-job={j.id}>
            <span class="row-name"><strong>{j.title}</strong><small class="muted">{nameOf(j.printer_id)} · {j.kind}{j.last_error ? ` · ${j.last_error}` : ''}</small></span>
            <span class="row-end">{j.age_seconds} s · {j.attempts} {j.attempts === 1 ? 'try' : 'tries'}</span>
          </li>
        ))}
        {queue.data?.length === 0 && <li class="muted">Nothing waiting.</li>}
      </ul>
      {editing && <PrinterSheet printer={editing === 'new' ? null : editing} stations={stations.data ?? []} sheet={{ save, busy: w.busy, error: w.error, onClose: close }} />}
    </main>
  );
}

/** A printer added or changed: where it is, its paper and code page, and what it prints. */
function PrinterSheet(props: { printer: Printer | null; stations: Array<{ id: string; name: string }>; sheet: { save: Save; busy: boolean; error: string; onClose: () => void } }) {
  const p = props.printer;
  const [name, setName] = useState(p?.name ?? '');
  const [host, setHost] = useState(p?.host ?? '');
  const [port, setPort] = useState(String(p?.port ?? 9100));
  const [paper, setPaper] = useState<Body['paper_width']>(p?.paper_width ?? 80);
  const [codePage, setCodePage] = useState<Body['code_page']>(p?.code_page ?? 'cp858');
  const [stationId, setStationId] = useState<string | null>(p?.station_id ?? null);
  const [mode, setMode] = useState<NonNullable<Body['station_mode']>>(p?.station_mode ?? 'paper');
  const [till, setTill] = useState(p?.till ?? false);
  const [devices, setDevices] = useState<string[]>(p?.devices ?? []);
  // The tablets signed in now, by the names they signed in with, read as the sheet opens: the ones a printer can be given to.
  const sessions = usePolled(() => direct.GET('/sessions'), 30_000);
  const tablets = [...new Set([...(p?.devices ?? []), ...(sessions.data ?? []).flatMap((s) => (s.device ? [s.device] : []))])].sort();
  const [key] = useState(newKey);
  const portOk = /^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535;
  const body: Body = { name: name.trim(), host: host.trim(), port: Number(port), paper_width: paper, code_page: codePage, station_id: stationId, station_mode: mode, till, devices };
  const write = () => (p
    ? ok(direct.PUT('/printers/{id}', { params: { path: { id: p.id } }, body }))
    : ok(direct.POST('/printers', { body, headers: { 'idempotency-key': key } })));
  const remove = p && (() => ok(direct.DELETE('/printers/{id}', { params: { path: { id: p.id } } })));
  return (
    <EditSheet id="printer-sheet" title={p ? `Change ${p.name}` : 'New printer'} sheet={props.sheet} canSave={!!name.trim() && !!host.trim() && portOk} write={write} remove={remove}>
      <label>Name<input id="printer-name" autocomplete="off" maxLength={100} placeholder="Grill" value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>
      <div class="two">
        <label>Address<input id="printer-host" autocomplete="off" maxLength={253} placeholder="192.168.1.50" value={host} onInput={(e) => setHost(e.currentTarget.value)} /></label>
        <label>Port<input id="printer-port" type="number" inputMode="numeric" min={1} max={65535} value={port} onInput={(e) => setPort(e.currentTarget.value)} /></label>
      </div>
      <fieldset class="toggles">
        <legend>Paper</legend>
        {([80, 58] as const).map((w) => <button type="button" key={w} data-paper={w} aria-pressed={paper === w} class={paper === w ? 'chip active' : 'chip'} onClick={() => setPaper(w)}>{w} mm</button>)}
      </fieldset>
      <Choice label="Code page (set on the printer)" id="printer-code-page" none="—" value={codePage} options={CODE_PAGES} onChange={(v) => { const c = CODE_PAGES.find((o) => o.id === v); if (c) setCodePage(c.id); }} />
      <Choice label="Kitchen station it prints" id="printer-station" none="No station" value={stationId} options={props.stations} onChange={setStationId} />
      {stationId && <Choice label="How" id="printer-mode" none="—" value={mode} options={MODES} onChange={(v) => { const m = MODES.find((o) => o.id === v); if (m) setMode(m.id); }} />}
      <fieldset class="toggles">
        <legend>The till</legend>
        <button type="button" id="printer-till" aria-pressed={till} class={till ? 'chip active' : 'chip'} onClick={() => setTill(!till)}>Prints bills and receipts</button>
      </fieldset>
      <fieldset class="toggles" id="printer-devices">
        <legend>Bills of these tablets (not on the till's)</legend>
        {tablets.length === 0 && <small class="muted">No tablet is signed in with a name: name one on its sign-in card.</small>}
        {tablets.map((d) => (
          <button type="button" key={d} data-device={d} aria-pressed={devices.includes(d)} class={devices.includes(d) ? 'chip active' : 'chip'}
            onClick={() => setDevices(devices.includes(d) ? devices.filter((x) => x !== d) : [...devices, d])}>{d}</button>
        ))}
      </fieldset>
    </EditSheet>
  );
}
