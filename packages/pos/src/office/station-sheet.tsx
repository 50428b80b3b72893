import { useState } from 'preact/hooks';
import { direct, newKey, ok } from '../api.js';
import { EditSheet, type SheetProps } from './edit-sheet.js';
import type { Station } from './menu-book.js';

/**
 * A kitchen station added or renamed (Grill, Bar, Cold), and whether lines whose dish and category
 * name none go to it (the default: the first station added is, until another is made so). The API
 * refuses a name taken or a deletion while a category or dish still routes to it; the sheet says why.
 */
export function StationSheet(props: { station: Station | null } & SheetProps) {
  const { station: s } = props;
  const [name, setName] = useState(s?.name ?? '');
  const [makeDefault, setMakeDefault] = useState(s?.is_default ?? false);
  const [key] = useState(newKey);
  const body = { name: name.trim(), default: makeDefault };
  const write = () => (s
    ? ok(direct.PUT('/stations/{id}', { params: { path: { id: s.id } }, body, headers: props.version }))
    : ok(direct.POST('/stations', { body, headers: { 'idempotency-key': key } })));
  const remove = s && (() => ok(direct.DELETE('/stations/{id}', { params: { path: { id: s.id } } })));
  return (
    <EditSheet id="station-sheet" title={s ? `Change ${s.name}` : 'New kitchen station'} sheet={props} canSave={!!name.trim()} write={write} remove={remove}>
      <label>Name<input id="station-name" autocomplete="off" maxLength={100} placeholder="Grill" value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>
      {/* Once the default, always one: the way off is making another the default. */}
      <button type="button" id="station-default" class={makeDefault ? 'chip active' : 'chip'} aria-pressed={makeDefault} disabled={s?.is_default}
        onClick={() => setMakeDefault(!makeDefault)}>{s?.is_default ? 'The default station' : 'Make it the default station'}</button>
    </EditSheet>
  );
}
