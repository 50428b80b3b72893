import { useState } from 'preact/hooks';
import { direct, newKey, ok, usePolled, useWrite } from '../api.js';
import type { Space, Table } from '../menu.js';
import { GRID, PlanGrid, type Section, cellStyle, placed, seatsLabel } from '../plan-grid.js';
import { type Cell, stepped, usePlanDrag } from './plan-drag.js';
import { current } from './menu-book.js';
import { SectionSheet, TableSheet } from './plan-sheets.js';

/** The first free cell of a space, row by row (where a new table appears), or none when the grid is full. */
function freeCell(tables: Table[]): Cell | undefined {
  const taken = new Set(tables.filter(placed).map((t) => `${t.column},${t.row}`));
  for (let row = 0; row < GRID.rows; row++) for (let column = 0; column < GRID.columns; column++) if (!taken.has(`${column},${row}`)) return { column, row };
  return undefined;
}

/**
 * The floor plan (issue 60): pick or add a space, add tables, drag them onto its grid (or move a
 * focused one with the arrow keys), tap one to change its shape and seats or remove it, and group
 * tables into sections, each with its waiter. The API decides (a taken cell is a 409, said here, and
 * the table is drawn back at its cell); the waiters' floor shows the same grid.
 */
export function FloorPlan() {
  const spaces = usePolled(() => direct.GET('/spaces', { params: { query: { all: true } } }), 10_000);
  const tables = usePolled(() => direct.GET('/tables', { params: { query: { all: true } } }), 5_000);
  const sections = usePolled(() => direct.GET('/sections', { params: { query: { all: true } } }), 10_000);
  const staff = usePolled(() => direct.GET('/users', { params: { query: { all: true } } }), 60_000).data ?? [];
  const [spaceId, setSpaceId] = useState<string | null>(null);
  const [newSpace, setNewSpace] = useState('');
  const [editing, setEditing] = useState<{ table: Table | 'new' } | { section: Section | 'new'; version?: { 'if-match'?: string } } | null>(null);
  const w = useWrite();
  const space: Space | undefined = (spaces.data ?? []).find((s) => s.id === spaceId) ?? spaces.data?.[0];
  const shown = (tables.data ?? []).filter((t) => t.space_id === space?.id);
  const mySections = (sections.data ?? []).filter((s) => s.space_id === space?.id);
  const sectionOf = (t: Table) => mySections.find((s) => s.table_ids.includes(t.id));
  // Spaces too: a space just added shows as its tab at once, not at the next 10 s poll.
  const refresh = () => (spaces.refresh(), tables.refresh(), sections.refresh());
  const save = (write: () => Promise<unknown>, after?: () => void) => w.run(write, () => (after?.(), refresh()));

  const place = (tableId: string, cell: Cell) =>
    save(() => ok(direct.PUT('/tables/{id}/place', { params: { path: { id: tableId } }, body: cell, headers: { 'idempotency-key': newKey() } })));
  // A section's sheet shows it as it is now, saved with that version's If-Match: another manager's change since is a 412, not overwritten.
  const openSection = async (s: Section) => {
    const now = await current(direct.GET('/sections/{id}', { params: { path: { id: s.id } } }));
    if (now) setEditing({ section: now.item, version: now.version });
    else sections.refresh();
  };
  const drag = usePlanDrag((id, cell) => void place(id, cell));
  const onKey = (t: Table) => (e: KeyboardEvent) => {
    const to = placed(t) ? stepped(t, e.key) : e.key.startsWith('Arrow') ? freeCell(shown) : null;
    if (!to) return;
    e.preventDefault();
    void place(t.id, to);
  };
  const addSpace = () => save(async () => {
    const added = await ok(direct.POST('/spaces', { body: { name: newSpace.trim() }, headers: { 'idempotency-key': newKey() } }));
    // A 202 (recorded, not yet listed) names the new space in its location.
    setSpaceId('id' in added ? added.id : added.location?.split('/').pop() ?? null);
    setNewSpace('');
  });

  const tile = (t: Table) => {
    const s = sectionOf(t);
    return (
      <button type="button" key={t.id} class={`plan-table shape-${t.shape ?? 'square'}${s ? ' in-section' : ''}`} data-table-id={t.id} data-column={t.column} data-row={t.row}
        aria-label={`${t.name}${placed(t) ? `, column ${t.column + 1}, row ${t.row + 1}` : ', not placed'}: drag, or arrow keys to move`}
        style={placed(t) ? cellStyle(t.column, t.row) : undefined} {...drag.handlers(t.id)} onKeyDown={onKey(t)}
        onClick={() => drag.tapped() && setEditing({ table: t })}>
        <strong>{t.name}</strong>
        <small>{[seatsLabel(t), s?.name].filter(Boolean).join(' · ')}</small>
      </button>
    );
  };

  return (
    <main class="plan-editor">
      <div class="category-head">
        <h2>Floor plan</h2>
        <form class="actions" onSubmit={(e) => { e.preventDefault(); if (newSpace.trim()) void addSpace(); }}>
          <input id="new-space" placeholder="New space" maxLength={100} value={newSpace} onInput={(e) => setNewSpace(e.currentTarget.value)} />
          <button type="submit" id="add-space" class="secondary" disabled={w.busy || !newSpace.trim()}>+ Space</button>
        </form>
      </div>
      <nav class="tabs" role="tablist">
        {(spaces.data ?? []).map((s) => <button type="button" role="tab" key={s.id} class={s.id === space?.id ? 'tab active' : 'tab'} aria-selected={s.id === space?.id} onClick={() => setSpaceId(s.id)}>{s.name}</button>)}
      </nav>
      {w.error && !editing && <p class="error" role="alert">{w.error}</p>}
      {!space ? <p class="muted">No space yet: name the first one (Dining room, Terrace…) above.</p> : (
        <>
          <div class="actions">
            <button type="button" id="add-table" onClick={() => setEditing({ table: 'new' })}>+ Table</button>
            <button type="button" id="add-section" class="secondary" onClick={() => setEditing({ section: 'new' })}>+ Section</button>
          </div>
          <div class="plan-tray" aria-label="Tables not placed yet">{shown.filter((t) => !placed(t)).map(tile)}</div>
          <div class="plan-scroll">
            <PlanGrid rows={GRID.rows} gridRef={(el) => (drag.grid.current = el)}>
              {Array.from({ length: GRID.columns * GRID.rows }, (_, i) => {
                const [column, row] = [i % GRID.columns, Math.floor(i / GRID.columns)];
                const lit = drag.target?.column === column && drag.target.row === row;
                return <div key={`c${i}`} class={lit ? 'plan-cell target' : 'plan-cell'} data-column={column} data-row={row} style={cellStyle(column, row)} />;
              })}
              {shown.filter(placed).map(tile)}
            </PlanGrid>
          </div>
          <h3>Sections</h3>
          <ul class="plan-sections">
            {mySections.length === 0 && <li class="muted">None yet: a section gives a waiter a group of tables.</li>}
            {mySections.map((s) => (
              <li key={s.id}><button type="button" class="chip" data-section={s.name} onClick={() => void openSection(s)}>
                {s.name} · {staff.find((m) => m.id === s.waiter_id)?.name ?? 'no waiter'} · {s.table_ids.length} tables
              </button></li>
            ))}
          </ul>
        </>
      )}
      {space && editing && 'table' in editing && (
        <TableSheet table={editing.table === 'new' ? null : editing.table} spaceId={space.id} cell={freeCell(shown)}
          sheet={{ save, busy: w.busy, error: w.error, onClose: () => (setEditing(null), w.setError('')) }} />
      )}
      {space && editing && 'section' in editing && (
        <SectionSheet section={editing.section === 'new' ? null : editing.section} spaceId={space.id} tables={shown} staff={staff}
          sheet={{ save, busy: w.busy, error: w.error, onClose: () => (setEditing(null), w.setError('')), version: editing.version ?? {} }} />
      )}
    </main>
  );
}
