import { useEffect, useState } from 'preact/hooks';
import { api, newKey, ok, useWrite } from './api.js';
import type { Member } from './login.js';
import { type ApprovalHeaders, ManagerApproval, isManager, orAskManager } from './manager.js';
import { type Dish, type Order, type OrderLine, type Table, dishName, menu, priceNow } from './menu.js';
import { money, parseAmount } from './money.js';
import { Stepper } from './order.js';
import { Keypad } from './pin-pad.js';
import { go } from './route.js';

interface SheetProps { onDone: () => void; onCancel: () => void }

/** A dish with modifier groups: how many, which options (each group's minimum and maximum), notes. */
export function DishSheet(props: SheetProps & { orderId: string; dish: Dish; course: number; seat: number | null }) {
  const groups = props.dish.modifier_group_ids.map((id) => menu.get().groups[id]).filter((g) => g !== undefined);
  const [quantity, setQuantity] = useState(1);
  const [chosen, setChosen] = useState<string[]>([]);
  const [notes, setNotes] = useState('');
  const w = useWrite();
  const toggle = (groupId: string, optionId: string) => {
    const group = groups.find((g) => g.id === groupId)!;
    const inGroup = chosen.filter((c) => group.options.some((o) => o.id === c));
    if (chosen.includes(optionId)) return setChosen(chosen.filter((c) => c !== optionId));
    // One choice: a tap replaces it. More: a tap adds while the group has room.
    if (group.max_choices === 1) return setChosen([...chosen.filter((c) => !inGroup.includes(c)), optionId]);
    if (inGroup.length < group.max_choices) setChosen([...chosen, optionId]);
  };
  const missing = groups.filter((g) => chosen.filter((c) => g.options.some((o) => o.id === c)).length < g.min_choices);
  const add = () => w.run(() => ok(api.POST('/orders/{id}/dishes', {
    params: { path: { id: props.orderId } },
    body: [{ dish_id: props.dish.id, quantity, course: props.course, seat: props.seat, modifiers: chosen, ...(notes.trim() ? { notes: notes.trim() } : {}) }],
    headers: { 'idempotency-key': newKey() },
  })), props.onDone);
  return (
    <div class="dish-sheet">
      <h3>{props.dish.name} <span class="muted">{money(priceNow(props.dish))}</span></h3>
      {props.dish.description && <p class="muted dish-description">{props.dish.description}</p>}
      <label>Quantity <Stepper value={quantity} min={1} max={99} onChange={setQuantity} /></label>
      {groups.map((g) => (
        <fieldset key={g.id} class="group" data-group-id={g.id}>
          <legend>{g.name} <small class="muted">{g.min_choices > 0 ? `choose ${g.min_choices === g.max_choices ? g.min_choices : `${g.min_choices}–${g.max_choices}`}` : `up to ${g.max_choices}`}</small></legend>
          {g.options.map((o) => (
            <button type="button" key={o.id} class={chosen.includes(o.id) ? 'option chosen' : 'option'} data-option-id={o.id} aria-pressed={chosen.includes(o.id)} onClick={() => toggle(g.id, o.id)}>
              {o.name}{o.price_delta !== 0 && <small> {o.price_delta > 0 ? '+' : ''}{money(o.price_delta)}</small>}
            </button>
          ))}
        </fieldset>
      ))}
      <label>Notes<input class="notes-input" value={notes} maxLength={200} onInput={(e) => setNotes(e.currentTarget.value)} placeholder="sin cebolla…" /></label>
      {missing.length > 0 && <p class="muted">Choose {missing.map((g) => g.name).join(', ')}</p>}
      {w.error && <p class="error" role="alert">{w.error}</p>}
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>Cancel</button>
        <button type="button" id="add-line" disabled={w.busy || missing.length > 0} onClick={() => void add()}>Add {quantity} × {props.dish.name}</button>
      </div>
    </div>
  );
}

/**
 * A line: before the kitchen has it, quantity, course, seat and notes change and it can be removed.
 * After, it is the kitchen's: only a manager voids it, with a reason, and anyone may ask for a comp.
 */
export function LineSheet(props: SheetProps & { me: Member; orderId: string; line: OrderLine }) {
  const l = props.line;
  const fired = l.kitchen_status !== 'pending';
  const [quantity, setQuantity] = useState(l.quantity);
  const [course, setCourse] = useState(l.course);
  const [seat, setSeat] = useState(l.seat ?? 0);
  const [notes, setNotes] = useState(l.notes);
  const [reason, setReason] = useState('');
  const [approval, setApproval] = useState<null | { what: string; act: (a?: ApprovalHeaders) => Promise<unknown> }>(null);
  const w = useWrite();
  const path = { params: { path: { id: props.orderId, dishId: l.id } } };
  const save = () => w.run(() => ok(api.PUT('/orders/{id}/dishes/{dishId}', { ...path, body: { quantity, course, seat: seat === 0 ? null : seat, notes }, headers: { 'idempotency-key': newKey() } })), props.onDone);
  const remove = (why?: string, approved?: ApprovalHeaders) => ok(api.DELETE('/orders/{id}/dishes/{dishId}', { params: { path: { id: props.orderId, dishId: l.id }, query: why ? { reason: why } : {} }, headers: { 'idempotency-key': newKey(), ...approved } }));
  const comp = (approved?: ApprovalHeaders) => ok(api.POST('/orders/{id}/discounts', { params: { path: { id: props.orderId } }, body: { line_id: l.id, kind: 'percent', value: 100, reason: `comp: ${reason.trim() || 'on the house'}` }, headers: { 'idempotency-key': newKey(), ...approved } }));
  const asManager = (what: string, act: (a?: ApprovalHeaders) => Promise<unknown>) => {
    if (isManager(props.me)) return void w.run(() => act(), props.onDone);
    setApproval({ what, act });
  };
  if (approval) {
    return <ManagerApproval what={approval.what} act={async (a) => void (await approval.act(a))} onDone={props.onDone} onCancel={() => setApproval(null)} />;
  }
  return (
    <div class="line-sheet">
      <h3>{l.quantity} × {dishName(l.dish_id)} <span class="muted">{money(l.line_total)}</span></h3>
      {!fired && (
        <>
          <label>Quantity <Stepper value={quantity} min={1} max={99} onChange={setQuantity} /></label>
          <label>Course <Stepper value={course} min={1} max={9} onChange={setCourse} /></label>
          <label>Seat <Stepper value={seat} min={0} max={20} onChange={setSeat} format={(n) => (n === 0 ? 'table' : String(n))} /></label>
          <label>Notes<input class="notes-input" value={notes} maxLength={200} onInput={(e) => setNotes(e.currentTarget.value)} /></label>
        </>
      )}
      {fired && <p class="muted">The kitchen has this line ({l.kitchen_status.replace('_', ' ')}): a manager voids it, with a reason.</p>}
      <label>Reason<input id="line-reason" value={reason} maxLength={200} onInput={(e) => setReason(e.currentTarget.value)} placeholder={fired ? 'why it is voided or comped' : 'why it is comped'} /></label>
      {w.error && <p class="error" role="alert">{w.error}</p>}
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>Close</button>
        {!fired && <button type="button" class="danger" id="remove-line" disabled={w.busy} onClick={() => void w.run(() => remove(), props.onDone)}>Remove</button>}
        {fired && l.kitchen_status !== 'cancelled' && (
          <button type="button" class="danger" id="void-line" disabled={w.busy || !reason.trim()} onClick={() => asManager(`Void ${dishName(l.dish_id)}: ${reason.trim()}`, (a) => remove(reason.trim(), a))}>Void…</button>
        )}
        <button type="button" class="secondary" id="comp-line" disabled={w.busy || l.discount >= l.line_total + l.discount} onClick={() => asManager(`Comp ${dishName(l.dish_id)}`, comp)}>Comp</button>
        {!fired && <button type="button" id="save-line" disabled={w.busy} onClick={() => void save()}>Save</button>}
      </div>
    </div>
  );
}

/**
 * Moves: the whole order to a free table (its own table is released by the server); some lines to
 * another table's check; or this check merged into another table's (this table is then freed). Lines
 * the kitchen has, or another waiter's check, need a manager: asked for when the server says so.
 */
export function MoveSheet(props: SheetProps & { order: Order; lines: OrderLine[] }) {
  const [tables, setTables] = useState<Table[]>([]);
  const [mode, setMode] = useState<'table' | 'lines' | 'merge'>('table');
  const [picked, setPicked] = useState<string[]>([]);
  const [reason, setReason] = useState('');
  const [approval, setApproval] = useState<null | ((a: ApprovalHeaders) => Promise<unknown>)>(null);
  // One key per intent, kept across retries and the manager's approval: a move is never applied twice.
  const [key] = useState(newKey);
  const w = useWrite();
  useEffect(() => void api.GET('/tables', { params: { query: { all: true } } }).then((r) => setTables(r.data ?? [])), []);
  const o = props.order;
  const move = (tableId: string | null) => w.run(() => ok(api.PUT('/orders/{id}', {
    params: { path: { id: o.id } }, body: { user_id: o.user_id, table_id: tableId, waiter: o.waiter, status: o.status }, headers: { 'idempotency-key': newKey() },
  })), props.onDone);
  const approved = (a?: ApprovalHeaders) => ({ 'idempotency-key': key, ...a, ...(a && reason.trim() ? { 'x-approval-reason': encodeURIComponent(reason.trim()) } : {}) });
  const toCheck = (orderId: string) => (a?: ApprovalHeaders) => (mode === 'merge'
    ? ok(api.POST('/orders/{id}/merge', { params: { path: { id: o.id } }, body: { into_order_id: orderId }, headers: approved(a) })).then(() => go(`/order/${orderId}`))
    : ok(api.POST('/orders/{id}/dishes/move', { params: { path: { id: o.id } }, body: { line_ids: picked, to_order_id: orderId }, headers: approved(a) })));
  const send = (act: (a?: ApprovalHeaders) => Promise<unknown>) => w.run(() => orAskManager(() => act(), () => setApproval(() => act), props.onDone));
  if (approval) return <ManagerApproval what={`Move lines the kitchen has, or to another waiter's check: ${reason.trim() || 'give a reason first'}`} act={async (a) => void (await approval(a))} onDone={props.onDone} onCancel={() => setApproval(null)} />;
  const free = tables.filter((t) => t.status === 'available');
  const others = tables.filter((t) => t.order_id && t.order_id !== o.id);
  const live = props.lines.filter((l) => l.kitchen_status !== 'cancelled');
  return (
    <div class="move-sheet">
      <div class="segmented">
        {(['table', 'lines', 'merge'] as const).map((m) => <button type="button" key={m} data-move-mode={m} class={mode === m ? 'active' : ''} onClick={() => setMode(m)}>{{ table: 'Whole order', lines: 'Some lines', merge: 'Merge checks' }[m]}</button>)}
      </div>
      {mode === 'table' && (
        <>
          <h3>Move to</h3>
          <div class="tiles small">
            {free.map((t) => <button type="button" key={t.id} class="tile available" data-move-to={t.id} disabled={w.busy} onClick={() => void move(t.id)}>{t.name}</button>)}
            {o.table_id && <button type="button" class="tile" disabled={w.busy} onClick={() => void move(null)}>Take-away</button>}
          </div>
          {free.length === 0 && <p class="muted">No free table.</p>}
        </>
      )}
      {mode === 'lines' && (
        <ul class="pick-lines">
          {live.map((l) => (
            <li key={l.id}>
              <button type="button" class={picked.includes(l.id) ? 'option chosen' : 'option'} data-pick-line={l.id} aria-pressed={picked.includes(l.id)}
                onClick={() => setPicked(picked.includes(l.id) ? picked.filter((x) => x !== l.id) : [...picked, l.id])}>
                {l.quantity} × {dishName(l.dish_id)}{l.modifiers.length > 0 && <small> ({l.modifiers.map((m) => m.name).join(', ')})</small>} <small class="muted">{money(l.line_total)}</small>
              </button>
            </li>
          ))}
        </ul>
      )}
      {mode !== 'table' && (
        <>
          <h3>{mode === 'merge' ? 'Merge this check into' : `Move ${picked.length} line${picked.length === 1 ? '' : 's'} to`}</h3>
          <div class="tiles small">
            {others.map((t) => (
              <button type="button" key={t.id} class="tile occupied" data-check-of={t.id} disabled={w.busy || (mode === 'lines' && picked.length === 0)} onClick={() => void send(toCheck(t.order_id!))}>{t.name}</button>
            ))}
          </div>
          {others.length === 0 && <p class="muted">No other table has a check.</p>}
          <label>Reason<input id="move-reason" value={reason} maxLength={200} onInput={(e) => setReason(e.currentTarget.value)} placeholder="asked of a manager when the kitchen has a line" /></label>
        </>
      )}
      {w.error && <p class="error" role="alert">{w.error}</p>}
      <div class="actions"><button type="button" class="secondary" onClick={props.onCancel}>Cancel</button></div>
    </div>
  );
}

/** A discount on the order or one line, by percent or amount: over the waiter's limit a manager approves. */
export function DiscountSheet(props: SheetProps & { me: Member; orderId: string; lines: OrderLine[] }) {
  const [lineId, setLineId] = useState<string>('');
  const [kind, setKind] = useState<'percent' | 'amount'>('percent');
  const [value, setValue] = useState('');
  const [reason, setReason] = useState('');
  const [approval, setApproval] = useState(false);
  const w = useWrite();
  const amount = parseAmount(value);
  const give = (approved?: ApprovalHeaders) => ok(api.POST('/orders/{id}/discounts', {
    params: { path: { id: props.orderId } }, body: { ...(lineId ? { line_id: lineId } : {}), kind, value: amount ?? 0, reason: reason.trim() }, headers: { 'idempotency-key': newKey(), ...approved },
  }));
  const submit = () => w.run(() => orAskManager(() => give(), () => setApproval(true), props.onDone));
  if (approval) return <ManagerApproval what={`Over your limit: ${kind === 'percent' ? `${value} %` : money(amount ?? 0)} — ${reason}`} act={async (a) => void (await give(a))} onDone={props.onDone} onCancel={() => setApproval(false)} />;
  return (
    <div class="discount-sheet">
      <h3>Discount</h3>
      <label>On
        <select id="discount-line" value={lineId} onChange={(e) => setLineId(e.currentTarget.value)}>
          <option value="">the whole order</option>
          {props.lines.filter((l) => l.kitchen_status !== 'cancelled').map((l) => <option key={l.id} value={l.id}>{l.quantity} × {dishName(l.dish_id)}</option>)}
        </select>
      </label>
      <div class="segmented">
        <button type="button" class={kind === 'percent' ? 'active' : ''} onClick={() => setKind('percent')}>%</button>
        <button type="button" class={kind === 'amount' ? 'active' : ''} onClick={() => setKind('amount')}>Amount</button>
      </div>
      <div class="amount-display" id="discount-value">{value || '0'} {kind === 'percent' ? '%' : ''}</div>
      <Keypad value={value} onChange={setValue} decimal />
      <label>Reason<input id="discount-reason" value={reason} maxLength={200} onInput={(e) => setReason(e.currentTarget.value)} /></label>
      {w.error && <p class="error" role="alert">{w.error}</p>}
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>Cancel</button>
        <button type="button" id="give-discount" disabled={w.busy || amount === null || amount <= 0 || !reason.trim()} onClick={() => void submit()}>Give</button>
      </div>
    </div>
  );
}
