import { useState } from 'preact/hooks';
import type { paths } from '@comanda/client';
import { direct, newKey, ok, usePolled, useWrite } from '../api.js';
import { EditSheet } from './edit-sheet.js';

type Member = paths['/users']['get']['responses'][200]['content']['application/json'][number];
type Role = Member['role'];
const ROLES: Array<{ role: Role; label: string }> = [
  { role: 'waiter', label: 'Waiter' }, { role: 'kitchen', label: 'Kitchen' }, { role: 'manager', label: 'Manager' }, { role: 'admin', label: 'Admin' },
];
const PIN = /^[0-9]{4,12}$/;

/**
 * The staff, for managers and admins (issue 60): add a member with a role and a PIN, change the role,
 * give a new PIN (a forgotten one), or remove them (their sessions end at once; their history stays in
 * the log). The API decides who may touch whom (a manager never an admin) and says so on the sheet.
 */
export function Staff() {
  const list = usePolled(() => direct.GET('/users', { params: { query: { all: true } } }), 10_000);
  const [editing, setEditing] = useState<Member | 'new' | null>(null);
  const w = useWrite();
  const staff = list.data ?? [];
  const close = () => { setEditing(null); w.setError(''); };
  const save = (write: () => Promise<unknown>, after?: () => void) => w.run(write, () => { after?.(); list.refresh(); });
  return (
    <main class="staff">
      <div class="category-head">
        <h2>Staff</h2>
        <button type="button" id="add-member" onClick={() => setEditing('new')}>+ Add</button>
      </div>
      {list.status !== undefined && list.status !== 200 && list.status !== 204 ? <p class="error" role="alert">The staff cannot be listed now ({list.status}).</p> : (
        <ul class="menu-rows staff-list">
          {staff.map((m) => (
            <li key={m.id} class="menu-row member" data-member={m.name}>
              <span class="row-name"><strong>{m.name}</strong><small class="muted">{m.role}</small></span>
              <button type="button" class="secondary change" onClick={() => setEditing(m)}>Change</button>
            </li>
          ))}
        </ul>
      )}
      {editing && <MemberSheet member={editing === 'new' ? null : editing} sheet={{ save, busy: w.busy, error: w.error, onClose: close }} />}
    </main>
  );
}

/** A member added or changed: the name, the role, a PIN (required for a new member, optional to change). */
function MemberSheet(props: { member: Member | null; sheet: { save: (write: () => Promise<unknown>, after?: () => void) => Promise<void>; busy: boolean; error: string; onClose: () => void } }) {
  const m = props.member;
  const [name, setName] = useState(m?.name ?? '');
  const [role, setRole] = useState<Role>(m?.role ?? 'waiter');
  const [pin, setPin] = useState('');
  const [key] = useState(newKey);
  const pinOk = m ? pin === '' || PIN.test(pin) : PIN.test(pin);
  const write = () => (m
    ? ok(direct.PUT('/users/{id}', { params: { path: { id: m.id } }, body: { name: name.trim(), role, ...(pin ? { pin } : {}) } }))
    : ok(direct.POST('/users', { body: { name: name.trim(), role, pin }, headers: { 'idempotency-key': key } })));
  const remove = m && (() => ok(direct.DELETE('/users/{id}', { params: { path: { id: m.id } } })));
  return (
    <EditSheet id="member-sheet" title={m ? `Change ${m.name}` : 'New member of staff'} sheet={props.sheet} canSave={!!name.trim() && pinOk} write={write} remove={remove}>
      <label>Name<input id="member-name" autocomplete="off" maxLength={64} value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>
      <fieldset class="toggles">
        <legend>Role</legend>
        {ROLES.map((r) => <button type="button" key={r.role} data-role={r.role} aria-pressed={role === r.role} class={role === r.role ? 'chip active' : 'chip'} onClick={() => setRole(r.role)}>{r.label}</button>)}
      </fieldset>
      <label>{m ? 'New PIN (leave empty to keep it)' : 'PIN'}
        <input id="member-pin" type="password" inputMode="numeric" autocomplete="new-password" maxLength={12} value={pin} onInput={(e) => setPin(e.currentTarget.value.replace(/\D/g, ''))} />
        <small class={pinOk ? 'muted' : 'error'}>4 to 12 digits, told to the member alone</small>
      </label>
    </EditSheet>
  );
}
