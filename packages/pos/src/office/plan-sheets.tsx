import { useState } from 'preact/hooks';
import type { paths } from '@comanda/client';
import { direct, newKey, ok } from '../api.js';
import type { Table } from '../menu.js';
import { SHAPES, type Section, type Shape } from '../plan-grid.js';
import { Choice, EditSheet, type SheetProps, Toggles } from './edit-sheet.js';
import type { Cell } from './plan-drag.js';
import { TableQr } from './table-qr.js';

type Member = paths['/users']['get']['responses'][200]['content']['application/json'][number];

/** A new table (name, seats, shape; it appears on the first free cell), or a table's shape and seats changed, or the table removed (refused while an order is open there). */
export function TableSheet(props: { table: Table | null; spaceId: string; cell: Cell | undefined; sheet: SheetProps }) {
  const t = props.table;
  const [name, setName] = useState(t?.name ?? '');
  const [seats, setSeats] = useState(t?.seats ?? 4);
  const [shape, setShape] = useState<Shape>(t?.shape ?? 'square');
  const [key] = useState(newKey);
  const seatsOk = Number.isInteger(seats) && seats >= 1 && seats <= 40;
  const write = () => (t
    ? ok(direct.PUT('/tables/{id}/shape', { params: { path: { id: t.id } }, body: { shape, seats }, headers: { 'idempotency-key': key } }))
    : ok(direct.POST('/tables', { body: { name: name.trim(), space_id: props.spaceId, shape, seats, ...props.cell }, headers: { 'idempotency-key': key } })));
  const remove = t && (() => ok(direct.DELETE('/tables/{id}', { params: { path: { id: t.id } } })));
  return (
    <EditSheet id="table-sheet" title={t ? `Table ${t.name}` : 'New table'} sheet={props.sheet} canSave={!!name.trim() && seatsOk} write={write} remove={remove}>
      {!t && <label>Name<input id="table-name" autocomplete="off" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>}
      <label>Seats<input id="table-seats" type="number" inputMode="numeric" min={1} max={40} value={seats} onInput={(e) => setSeats(Number(e.currentTarget.value))} /></label>
      <fieldset class="toggles">
        <legend>Shape</legend>
        {SHAPES.map((s) => <button type="button" key={s.value} data-shape={s.value} aria-pressed={shape === s.value} class={shape === s.value ? 'chip active' : 'chip'} onClick={() => setShape(s.value)}>{s.label}</button>)}
      </fieldset>
      {t && <TableQr tableId={t.id} name={t.name} />}
    </EditSheet>
  );
}

/** A section: its name, its tables (of this space, each in one section) and the waiter who serves them, or nobody. */
export function SectionSheet(props: { section: Section | null; spaceId: string; tables: Table[]; staff: Member[]; sheet: SheetProps }) {
  const s = props.section;
  const [name, setName] = useState(s?.name ?? '');
  const [tableIds, setTableIds] = useState<string[]>(s?.table_ids ?? []);
  const [waiterId, setWaiterId] = useState<string | null>(s?.waiter_id ?? null);
  const [key] = useState(newKey);
  const body = { name: name.trim(), table_ids: tableIds, waiter_id: waiterId };
  const write = () => (s
    ? ok(direct.PUT('/sections/{id}', { params: { path: { id: s.id } }, body, headers: props.sheet.version }))
    : ok(direct.POST('/sections', { body: { ...body, space_id: props.spaceId }, headers: { 'idempotency-key': key } })));
  const remove = s && (() => ok(direct.DELETE('/sections/{id}', { params: { path: { id: s.id } }, headers: { 'idempotency-key': key, ...props.sheet.version } })));
  return (
    <EditSheet id="section-sheet" title={s ? `Section ${s.name}` : 'New section'} sheet={props.sheet} canSave={!!name.trim()} write={write} remove={remove}>
      <label>Name<input id="section-name" autocomplete="off" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>
      <Toggles name="Tables" values={props.tables.map((t) => ({ value: t.id, label: t.name }))} chosen={tableIds} onChange={setTableIds} />
      <Choice label="Waiter" id="section-waiter" none="Nobody yet" value={waiterId} options={props.staff} onChange={setWaiterId} />
    </EditSheet>
  );
}
