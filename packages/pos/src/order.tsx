import { useEffect, useState } from 'preact/hooks';
import { api, ifNoneMatch, newKey, ok, usePolled, useSignal, useWrite } from './api.js';
import type { Member } from './login.js';
import { type Dish, type OrderLine, loadMenu, menu, offMenuNow, priceNow, setDishes, stockNote } from './menu.js';
import { money } from './money.js';
import { useDishTaps } from './dish-taps.js';
import { GuestCounts, guestsLabel } from './guests.js';
import { DiscountSheet, DishSheet, LineSheet, MoveSheet } from './order-sheets.js';
import { go } from './route.js';

type Sheet = { kind: 'dish'; dish: Dish } | { kind: 'line'; lineId: string } | { kind: 'move' } | { kind: 'discount' } | { kind: 'guests' } | null;

const STATUS_LABEL: Record<OrderLine['kitchen_status'], string> = {
  pending: 'not sent', sent: 'sent', in_progress: 'cooking', done: 'ready', cancelled: 'voided',
};

/** One order: the menu to add from, its lines by course with their kitchen state, and what to do next. */
export function OrderScreen(props: { me: Member; orderId: string }) {
  const { orderId } = props;
  const complete = usePolled((etag) => api.GET('/orders/{id}/complete', { params: { path: { id: orderId } }, headers: ifNoneMatch(etag) }), 2_000, [orderId]);
  const m = useSignal(menu);
  const [category, setCategory] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [course, setCourse] = useState(1);
  const [seat, setSeat] = useState<number | null>(null);
  const [sheet, setSheet] = useState<Sheet>(null);
  // The quantity key: the next dish tapped goes in that many at once, then it is back to 1.
  const [quantity, setQuantity] = useState(1);
  const tableName = useTableName(complete.data?.order.table_id ?? null);
  const [pane, setPane] = useState<'menu' | 'ticket'>('menu');
  useEffect(() => void loadMenu(), [orderId]);
  // The dishes read again every few seconds (a 304 while nothing changed): a dish a manager 86es
  // greys out here without a reload.
  const dishesNow = usePolled((etag) => api.GET('/dishes', { params: { query: { all: true } }, headers: ifNoneMatch(etag) }), 3_000, [orderId]);
  useEffect(() => void (dishesNow.data && setDishes(dishesNow.data)), [dishesNow.data]);

  const order = complete.data?.order;
  const lines = complete.data?.dishes ?? [];
  const open = order ? ['pending', 'preparing', 'ready'].includes(order.status) : false;
  const w = useWrite();
  const run = (what: () => Promise<unknown>) => w.run(what, complete.refresh);
  // Ten taps of a dish are one line of ten, and none is lost while a write is on its way (dish-taps.ts).
  const taps = useDishTaps(orderId, lines, complete.refresh);
  const addDish = (dish: Dish) => {
    // Said at once, not sent: the server would refuse it (409) anyway.
    if (dish.sold_out) return w.setError(`${dish.name} is sold out`);
    if (dish.available === false) return w.setError(`${dish.name} is not served now${dish.hours ? ` (served ${dish.hours})` : ''}`);
    if (dish.modifier_group_ids.length > 0) return setSheet({ kind: 'dish', dish });
    setQuantity(1);
    taps.tap({ dishId: dish.id, n: quantity, course, seat });
  };
  const fire = (body: { course?: number }) =>
    void run(async () => {
      await taps.settled();
      const sent = ok(api.POST('/orders/{id}/fire', { params: { path: { id: orderId } }, body, headers: { 'idempotency-key': newKey() } }));
      taps.firing(sent, body.course);
      await sent;
    });

  // Someone joined or left: the covers follow (the rest of the order is sent as it is, as the seed's PUT asks).
  const setGuests = (guests: number) => {
    const o = complete.data!.order;
    setSheet(null);
    void run(() => ok(api.PUT('/orders/{id}', { params: { path: { id: orderId } }, body: { user_id: o.user_id, table_id: o.table_id, waiter: o.waiter, guests }, headers: { 'idempotency-key': newKey() } })));
  };
  const words = search.trim().toLowerCase();
  const dishes = m.dishes.filter((d) => (words ? d.name.toLowerCase().includes(words) : !category || d.category_id === category));
  const courses = [...new Set(lines.map((l) => l.course))].sort((a, b) => a - b);
  const unfired = lines.filter((l) => l.kitchen_status === 'pending');
  const closeSheet = () => {
    setSheet(null);
    complete.refresh();
  };

  // A sheet shows the line as it is now (the kitchen may fire or finish it meanwhile), not as tapped.
  const sheetLine = sheet?.kind === 'line' ? lines.find((l) => l.id === sheet.lineId) : undefined;
  if (!order) return <main class="order"><p class="muted">Loading the order…</p></main>;
  return (
    <main class={`order pane-${pane}`}>
      <header class="order-head">
        <button type="button" class="secondary" onClick={() => go('/floor')}>← Floor</button>
        <h2 id="order-title">{order.table_id ? (tableName ?? 'Table') : 'Take-away'} <span class="muted">{order.number ? `#${order.number}` : ''} {order.waiter}</span></h2>
        <button type="button" class="secondary guests" id="order-guests" disabled={!open} onClick={() => setSheet({ kind: 'guests' })}>{guestsLabel(order.guests)}</button>
        <span class={`badge status-${order.status}`}>{order.status}</span>
        <div class="pane-switch">
          <button type="button" class={pane === 'menu' ? 'active' : ''} onClick={() => setPane('menu')}>Menu</button>
          <button type="button" class={pane === 'ticket' ? 'active' : ''} onClick={() => setPane('ticket')}>Order ({lines.length})</button>
        </div>
      </header>
      {(w.error || taps.error) && <p class="error" role="alert">{w.error || taps.error}</p>}
      <section class="menu-pane">
        <input class="search" type="search" placeholder="Search the menu" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        <nav class="chips">
          <button type="button" class={category === null ? 'chip active' : 'chip'} onClick={() => setCategory(null)}>All</button>
          {m.categories.map((c) => <button type="button" key={c.id} class={category === c.id ? 'chip active' : 'chip'} onClick={() => setCategory(c.id)}>{c.name}</button>)}
        </nav>
        <div class="course-seat">
          <label>Course <Stepper value={course} min={1} max={9} onChange={setCourse} /></label>
          <label>Seat <Stepper value={seat ?? 0} min={0} max={20} onChange={(n) => setSeat(n === 0 ? null : n)} format={(n) => (n === 0 ? 'table' : String(n))} /></label>
          <label class="quantity-key">Qty <Stepper value={quantity} min={1} max={99} onChange={setQuantity} format={(n) => `${n} ×`} /></label>
        </div>
        <div class="dishes">
          {dishes.map((d) => (
            <button type="button" key={d.id} class={offMenuNow(d) ? 'dish sold-out' : 'dish'} data-dish-id={d.id} aria-disabled={offMenuNow(d)} disabled={!open} onClick={() => addDish(d)}>
              <span class="dish-name">{d.name}</span>
              {stockNote(d) && <span class="stock">{stockNote(d)}</span>}
              <span class="dish-price">{money(priceNow(d))}{d.price_level && <small class="price-level"> {d.price_level}</small>}</span>
              {d.allergens.length > 0 && <span class="allergens">{d.allergens.join(' · ')}</span>}
            </button>
          ))}
        </div>
      </section>
      <section class="ticket-pane">
        {courses.map((c) => {
          const inCourse = lines.filter((l) => l.course === c);
          const waiting = inCourse.some((l) => l.kitchen_status === 'pending');
          return (
            <div class="course" key={c} data-course={c}>
              <h3>Course {c}{waiting && open && <button type="button" class="fire" data-fire-course={c} disabled={w.busy} onClick={() => fire({ course: c })}>Fire course {c}</button>}</h3>
              {inCourse.map((l) => <LineRow key={l.id} line={l} onTap={() => open && setSheet({ kind: 'line', lineId: l.id })} />)}
            </div>
          );
        })}
        {taps.adding.map((a) => <p class="adding" key={`${a.dishId}-${a.course}-${a.seat}`}>+{a.n} {m.dishById[a.dishId]?.name} <span class="muted">adding…</span></p>)}
        {lines.length === 0 && taps.adding.length === 0 && <p class="muted">Tap a dish to add it.</p>}
        {order.discounts.length > 0 && (
          <ul class="discounts">
            {order.discounts.map((d) => <li key={d.id}>{d.comp ? 'Comp' : 'Discount'} {d.kind === 'percent' ? `${d.value} %` : money(d.value)} — {d.reason} <span class="amount">−{money(d.amount)}</span></li>)}
          </ul>
        )}
        <div class="total-row"><span>Total</span><strong id="order-total">{money(order.total)}</strong></div>
      </section>
      <div class="actions order-actions">
        <button type="button" id="fire-all" disabled={!open || w.busy || (unfired.length === 0 && taps.adding.length === 0)} onClick={() => fire({})}>Fire all</button>
        <button type="button" class="secondary" id="move-order" disabled={!open || w.busy} onClick={() => setSheet({ kind: 'move' })}>Move</button>
        <button type="button" class="secondary" disabled={!open || w.busy || lines.length === 0} onClick={() => setSheet({ kind: 'discount' })}>Discount</button>
        <button type="button" id="to-bill" disabled={lines.length === 0} onClick={() => go(`/bill/${orderId}`)}>Bill</button>
      </div>
      {sheet && (
        <div class="sheet-backdrop" onClick={(e) => e.target === e.currentTarget && setSheet(null)}>
          <div class="sheet" role="dialog">
            {sheet.kind === 'dish' && <DishSheet orderId={orderId} dish={sheet.dish} course={course} seat={seat} onDone={closeSheet} onCancel={() => setSheet(null)} />}
            {sheet.kind === 'line' && sheetLine && <LineSheet key={sheetLine.id} me={props.me} orderId={orderId} line={sheetLine} onDone={closeSheet} onCancel={() => setSheet(null)} />}
            {sheet.kind === 'move' && <MoveSheet order={order} lines={lines} onDone={closeSheet} onCancel={() => setSheet(null)} />}
            {sheet.kind === 'guests' && <GuestCounts title="How many guests?" current={order.guests} disabled={w.busy} onPick={(n) => setGuests(n)} onCancel={() => setSheet(null)} />}
            {sheet.kind === 'discount' && <DiscountSheet me={props.me} orderId={orderId} lines={lines} onDone={closeSheet} onCancel={() => setSheet(null)} />}
          </div>
        </div>
      )}
    </main>
  );
}

/** The table's name, read once per table (the order screen says which table it is). */
function useTableName(tableId: string | null): string | null {
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    setName(null);
    if (tableId) void api.GET('/tables/{id}', { params: { path: { id: tableId } } }).then((r) => setName(r.data?.name ?? null), () => undefined);
  }, [tableId]);
  return name;
}

function LineRow(props: { line: OrderLine; onTap: () => void }) {
  const l = props.line;
  const dish = menu.get().dishById[l.dish_id];
  return (
    <button type="button" class={`line ks-${l.kitchen_status}`} data-line-id={l.id} onClick={props.onTap}>
      <span class="line-qty">{l.quantity} ×</span>
      <span class="line-name">
        {dish?.name ?? 'Dish no longer on the menu'}
        {l.modifiers.length > 0 && <small class="mods">{l.modifiers.map((o) => o.name).join(', ')}</small>}
        {l.notes && <small class="notes">{l.notes}</small>}
        {l.price_level && <small class="price-level">{l.price_level}</small>}
      </span>
      <span class="line-seat">{l.seat === null ? '' : `seat ${l.seat}`}</span>
      <span class={`chip ks ks-${l.kitchen_status}`}>{STATUS_LABEL[l.kitchen_status]}</span>
      <span class="line-total">{money(l.line_total)}</span>
    </button>
  );
}

export function Stepper(props: { value: number; min: number; max: number; onChange: (n: number) => void; format?: (n: number) => string }) {
  return (
    <span class="stepper">
      <button type="button" aria-label="less" disabled={props.value <= props.min} onClick={() => props.onChange(props.value - 1)}>−</button>
      <output>{props.format ? props.format(props.value) : props.value}</output>
      <button type="button" aria-label="more" disabled={props.value >= props.max} onClick={() => props.onChange(props.value + 1)}>+</button>
    </span>
  );
}
