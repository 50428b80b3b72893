import { useEffect, useState } from 'preact/hooks';
import { accepted, api, ifNoneMatch, newKey, ok, online, usePolled, useWrite } from './api.js';
import { prefetchOwnOrders } from './offline/prefetch.js';
import type { Member } from './login.js';
import type { Order, Table } from './menu.js';
import type { paths } from '@comanda/client';
import { GuestCounts, guestsLabel } from './guests.js';
import { age, money } from './money.js';
import { go } from './route.js';
import { PlanGrid, cellStyle, placed, seatsLabel } from './plan-grid.js';
import { GuestRequests } from './guest-requests.js';

type OpenBill = paths['/orders/open/bills']['get']['responses'][200]['content']['application/json'][number];

/**
 * The open orders by id: one list, revalidated by its ETag (it changes only when an open order does).
 * The waiter's own are kept on the tablet as they change, to open with no network.
 */
function useOpenOrders(me: Member): Record<string, Order> {
  const list = usePolled((etag) => api.GET('/orders/open', { params: { query: { all: true } }, headers: ifNoneMatch(etag) }), 2_000).data;
  useEffect(() => {
    if (list && online.get()) prefetchOwnOrders(me.id, list, (id) => api.GET('/orders/{id}/complete', { params: { path: { id } } }));
  }, [list]);
  const byId: Record<string, Order> = {};
  for (const o of list ?? []) byId[o.id] = o;
  return byId;
}

/**
 * Spaces as tabs, tables as tiles: free, seated (number, age, total) or reserved; "ready" when the kitchen is done.
 * Tables the manager placed stand on the space's grid as drawn (floor plan); the others flow after them as
 * they always did. The tables of the waiter's own sections are marked.
 */
export function Floor(props: { me: Member }) {
  const spaces = usePolled((etag) => api.GET('/spaces', { params: { query: { all: true } }, headers: ifNoneMatch(etag) }), 10_000).data ?? [];
  const tables = usePolled((etag) => api.GET('/tables', { params: { query: { all: true } }, headers: ifNoneMatch(etag) }), 2_000).data ?? [];
  const sections = usePolled((etag) => api.GET('/sections', { params: { query: { all: true } }, headers: ifNoneMatch(etag) }), 10_000).data ?? [];
  const orders = useOpenOrders(props.me);
  const bills = useOpenBills();
  const [spaceId, setSpaceId] = useState<string | null>(null);
  // A free table tapped: how many guests sit down (the covers) is asked before it is seated.
  const [seating, setSeating] = useState<Table | null>(null);
  const w = useWrite();
  const current = spaces.find((s) => s.id === spaceId) ?? spaces[0];
  const shown = tables.filter((t) => t.space_id === current?.id);
  const takeAway = Object.values(orders).filter((o) => o.table_id === null);
  const onPlan = shown.filter(placed);
  const mySections = sections.filter((s) => s.space_id === current?.id && s.waiter_id === props.me.id);
  const mine = new Set(mySections.flatMap((s) => s.table_ids));
  const tile = (t: Table) => (
    <TableTile key={t.id} table={t} order={t.order_id ? orders[t.order_id] : undefined} bill={t.order_id ? bills[t.order_id] : undefined} mine={mine.has(t.id)} disabled={w.busy} onOpen={() => void open(t)} />
  );

  const open = (table: Table | null, guests?: number) => {
    if (table?.order_id) return go(`/order/${table.order_id}`);
    if (table && guests === undefined) return setSeating(table);
    setSeating(null);
    const body = { user_id: props.me.id, table_id: table?.id ?? null, waiter: props.me.name, ...(guests === undefined ? {} : { guests }) };
    return w.run(async () => {
      const placed = await ok(api.POST('/orders', { body, headers: { 'idempotency-key': newKey() } }));
      // A 202 (recorded, not yet in the lists) says where the order will be read: its id is the last segment.
      go(`/order/${accepted(placed) ? placed.location!.split('/').pop()! : placed.id}`);
    });
  };

  return (
    <main class="floor">
      <nav class="tabs" role="tablist">
        {spaces.map((s) => (
          <button type="button" role="tab" key={s.id} class={s.id === current?.id ? 'tab active' : 'tab'} aria-selected={s.id === current?.id} onClick={() => setSpaceId(s.id)}>{s.name}</button>
        ))}
        <button type="button" class="tab take-away" disabled={w.busy} onClick={() => void open(null)}>+ Take-away</button>
      </nav>
      {w.error && <p class="error" role="alert">{w.error}</p>}
      {mySections.length > 0 && <p class="my-section" id="my-section">Your section: {mySections.map((s) => s.name).join(', ')}</p>}
      <GuestRequests />
      {onPlan.length > 0 && (
        <div class="plan-scroll">
          <PlanGrid rows={Math.max(...onPlan.map((t) => t.row)) + 1} class="floor-plan">{onPlan.map(tile)}</PlanGrid>
        </div>
      )}
      <section class="tiles">
        {shown.filter((t) => !placed(t)).map(tile)}
        {shown.length === 0 && <p class="muted">No tables in this space yet: a manager adds them.</p>}
      </section>
      {takeAway.length > 0 && (
        <section class="take-aways">
          <h2>Take-away</h2>
          <div class="tiles">
            {takeAway.map((o) => (
              <button type="button" key={o.id} class={`tile occupied${o.status === 'ready' ? ' ready' : ''}`} data-order-id={o.id} onClick={() => go(`/order/${o.id}`)}>
                <span class="tile-name">{o.number ? `#${o.number}` : 'Take-away'}</span>
                <OrderFacts order={o} bill={bills[o.id]} />
              </button>
            ))}
          </div>
        </section>
      )}
      {seating && (
        <div class="sheet-backdrop" onClick={(e) => e.target === e.currentTarget && setSeating(null)}>
          <div class="sheet" role="dialog">
            <GuestCounts title={`How many guests at ${seating.name}?`} disabled={w.busy} onPick={(n) => void open(seating, n)} onCancel={() => setSeating(null)} />
          </div>
        </div>
      )}
    </main>
  );
}

/** Where each open order's bills stand (what is left, what guests paid by the bill's link), by order id. */
function useOpenBills(): Record<string, OpenBill> {
  const list = usePolled((etag) => api.GET('/orders/open/bills', { headers: ifNoneMatch(etag) }), 2_000).data;
  return Object.fromEntries((list ?? []).map((b) => [b.order_id, b]));
}

function OrderFacts(props: { order: Order; bill: OpenBill | undefined }) {
  const o = props.order;
  const guestPaid = props.bill !== undefined && props.bill.guest_paid > 0;
  return (
    <span class="tile-facts">
      {o.number !== null && <span class="tile-number">#{o.number}</span>}
      {o.guests !== null && <span class="tile-guests" title="guests">{guestsLabel(o.guests)}</span>}
      <span>{age(o.created_at)}</span>
      <span class="tile-total">{money(o.total)}</span>
      {o.status === 'ready' && <span class="badge ready-badge">Ready</span>}
      {guestPaid && <span class="badge guest-paid-badge" title="paid by a guest through the bill's link">Guest paid</span>}
      {guestPaid && <span class="tile-left">{props.bill!.due > 0 ? `${money(props.bill!.due)} left` : 'Nothing left'}</span>}
    </span>
  );
}

function TableTile(props: { table: Table; order: Order | undefined; bill: OpenBill | undefined; mine: boolean; disabled: boolean; onOpen: () => void }) {
  const { table, order } = props;
  const ready = order?.status === 'ready';
  const look = `${table.shape ? ` shape-${table.shape}` : ''}${props.mine ? ' mine' : ''}`;
  return (
    <button type="button" class={`tile ${table.status}${ready ? ' ready' : ''}${look}`} data-table-id={table.id} data-status={table.status} data-shape={table.shape} data-mine={props.mine || undefined}
      style={placed(table) ? cellStyle(table.column, table.row) : undefined} disabled={props.disabled} onClick={props.onOpen}>
      <span class="tile-name">{table.name}</span>
      {table.seats !== undefined && <span class="tile-seats">{seatsLabel(table)}</span>}
      <span class="tile-state">{table.status === 'occupied' ? (order ? '' : 'seated') : table.status}</span>
      {order && <OrderFacts order={order} bill={props.bill} />}
    </button>
  );
}
