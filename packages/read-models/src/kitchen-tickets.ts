import { type KitchenStatus, type KitchenTicketEvent, type OrderEvent, type TicketCloseReason, versionAfter } from '@comanda/domain';
import type { RecordedEvent } from '@comanda/event-store';
import type { Collection } from '@comanda/read-store';
import { projectionOf, type Tracked, updateDocument } from './projection.js';
import { KITCHEN_TICKETS, ORDERS } from './collections.js';
import type { OrderView } from './orders.js';

export type KitchenTicketLineView = {
  line_id: string; dish_id: string; dish_name: string; notes: string; kitchen_status: KitchenStatus;
  quantity: number; course: number; seat: number | null; modifiers: string[]; allergens: string[];
};

/** A kitchen ticket as a screen shows it: self-contained, `status` open until bumped (done) or closed with its order. */
export type KitchenTicketView = Tracked & TicketFields;

export type TicketFields = {
  _id: string;
  id: string;
  order_id: string;
  station_id: string;
  table_id: string | null;
  table_name: string | null;
  waiter: string;
  order_number: number | null;
  fired_at: number;
  started_at: number | null;
  bumped_at: number | null;
  /** Since when every line is done or cancelled (or since its recall): the auto-bump counts from here. */
  ready_at: number | null;
  closed_at: number | null;
  closed_reason: TicketCloseReason | null;
  status: 'open' | 'done' | 'closed';
  lines: KitchenTicketLineView[];
  version: number;
};

export { KITCHEN_TICKETS };

export const KITCHEN_TICKET_EVENTS: ReadonlyArray<KitchenTicketEvent['type']> = [
  'KitchenTicketOpened', 'KitchenTicketStarted', 'KitchenLineDone', 'KitchenTicketBumped', 'KitchenTicketRecalled',
  'KitchenLineNotesChanged', 'KitchenLineCancelled', 'KitchenTicketMoved', 'KitchenTicketClosed',
];

const setLines = (t: TicketFields, change: (l: KitchenTicketLineView) => KitchenTicketLineView) => t.lines.map(change);
const finished = (l: KitchenTicketLineView) => l.kitchen_status === 'done' || l.kitchen_status === 'cancelled';
/** As the decider's readySince: set by the change that leaves every line finished. */
const ready = (t: TicketFields, at: number): TicketFields => ((t.ready_at ?? null) === null && t.lines.every(finished) ? { ...t, ready_at: at } : t);

/** The next view of a ticket after one of its events (also what the bus carries to kitchen screens). */
export function nextTicketView(t: TicketFields | null, e: KitchenTicketEvent): TicketFields | undefined {
  if (e.type === 'KitchenTicketOpened') {
    const d = e.data;
    return {
      _id: d.ticketId, id: d.ticketId, order_id: d.orderId, station_id: d.stationId, table_id: d.tableId, table_name: d.tableName, waiter: d.waiter, order_number: d.orderNumber ?? null,
      fired_at: d.firedAt, started_at: null, bumped_at: null, ready_at: null, closed_at: null, closed_reason: null, status: 'open', version: versionAfter(null),
      lines: d.lines.map((l) => ({
        line_id: l.lineId, dish_id: l.dishId, dish_name: l.dishName, notes: l.notes, kitchen_status: 'sent',
        quantity: l.quantity ?? 1, course: l.course ?? 1, seat: l.seat ?? null, modifiers: l.modifiers ?? [], allergens: l.allergens ?? [],
      })),
    };
  }
  if (!t) return undefined;
  const next: TicketFields = { ...t, version: versionAfter(t) };
  switch (e.type) {
    case 'KitchenTicketStarted':
      return { ...next, started_at: e.data.at, lines: setLines(t, (l) => (l.kitchen_status === 'sent' ? { ...l, kitchen_status: 'in_progress' } : l)) };
    case 'KitchenLineDone':
      return ready({ ...next, lines: setLines(next, (l) => (l.line_id === e.data.lineId ? { ...l, kitchen_status: 'done' } : l)) }, e.data.at);
    case 'KitchenTicketBumped': {
      const done = new Set(e.data.lineIds);
      return { ...next, status: 'done', bumped_at: e.data.at, lines: setLines(next, (l) => (done.has(l.line_id) ? { ...l, kitchen_status: 'done' } : l)) };
    }
    case 'KitchenTicketRecalled':
      return ready({ ...next, status: 'open', bumped_at: null, ready_at: null }, e.data.at);
    case 'KitchenLineNotesChanged':
      return { ...next, lines: setLines(next, (l) => (l.line_id === e.data.lineId ? { ...l, notes: e.data.notes } : l)) };
    case 'KitchenLineCancelled':
      return ready({ ...next, lines: setLines(next, (l) => (l.line_id === e.data.lineId ? { ...l, kitchen_status: 'cancelled' } : l)) }, e.data.at ?? t.started_at ?? t.fired_at);
    case 'KitchenTicketMoved':
      return { ...next, table_id: e.data.tableId, table_name: e.data.tableName };
    case 'KitchenTicketClosed':
      return { ...next, status: 'closed', closed_at: e.data.at, closed_reason: e.data.reason };
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A ticket as screens receive it (HTTP and bus alike): times as ISO 8601, no internal fields. */
export const ticketForScreens = (t: TicketFields) => ({
  id: t.id, order_id: t.order_id, station_id: t.station_id, table_id: t.table_id, table_name: t.table_name, waiter: t.waiter, order_number: t.order_number ?? null,
  status: t.status, fired_at: iso(t.fired_at)!, started_at: iso(t.started_at), bumped_at: iso(t.bumped_at), ready_at: iso(t.ready_at ?? null),
  closed_at: iso(t.closed_at ?? null), closed_reason: t.closed_reason ?? null, lines: t.lines, version: t.version,
});

export const kitchenTicketsProjection = projectionOf<KitchenTicketEvent>({
  name: 'kitchen-tickets',
  // 2: lines show quantity, course, seat, modifiers and allergens; tickets their order's number.
  version: 2,
  handles: KITCHEN_TICKET_EVENTS,
  // Each list the API and the screens read: a station's or every station's board (open, oldest
  // first), recall (done, latest bump first), closed (latest first), and the SSE catch-up by position.
  collections: {
    [KITCHEN_TICKETS]: [
      { station_id: 1, status: 1, fired_at: 1 }, { status: 1, fired_at: 1 }, { status: 1, bumped_at: -1 }, { status: 1, closed_at: -1 },
      { order_id: 1 }, { _position: 1 },
    ],
  },
  async apply(e, store) {
    await updateDocument(store.collection<KitchenTicketView>(KITCHEN_TICKETS), e.data.ticketId, e, (t) => nextTicketView(t, e));
  },
});

/**
 * `kitchen_status` of each order line, kept on the order's document: `sent` when fired, then as its
 * ticket moves. Lines missing from the map are `pending` (not fired). Only this projection writes the
 * map, and it handles no event the orders projection handles, so their position checks never collide.
 */
export const orderKitchenStatusProjection = projectionOf<KitchenTicketEvent | Extract<OrderEvent, { type: 'OrderLinesFired' }>>({
  name: 'order-kitchen-status',
  handles: ['OrderLinesFired', ...KITCHEN_TICKET_EVENTS],
  async apply(e, store) {
    const orders = store.collection<OrderView>(ORDERS);
    if (e.type === 'OrderLinesFired') {
      const orderId = e.stream.slice('order-'.length);
      return updateDocument(orders, orderId, e, (o) =>
        o ? { ...o, kitchen_status: { ...o.kitchen_status, ...Object.fromEntries(e.data.lines.map((l) => [l.lineId, 'sent' as const])) } } : undefined);
    }
    if (e.type === 'KitchenTicketOpened' || e.type === 'KitchenTicketRecalled' || e.type === 'KitchenTicketMoved' || e.type === 'KitchenLineNotesChanged' || e.type === 'KitchenTicketClosed') return;
    const ticket = await store.collection<KitchenTicketView>(KITCHEN_TICKETS).get(e.data.ticketId);
    if (!ticket) return;
    // The ticket's projection ran first (it comes earlier in allProjections): copy its line statuses.
    await passOn(orders, e.data.orderId, e, Object.fromEntries(ticket.lines.map((l) => [l.line_id, l.kitchen_status])), new Set([e.data.orderId]));
  },
});

/**
 * Copies line statuses onto an order, and those of its lines moved to another order (its
 * `moved_lines`) onto that order too, and so on along a line moved twice: the kitchen cooks a moved
 * line on the ticket of the order it was fired from, and the order it is on now shows it cooking.
 * An order already past this event (a redelivery) is read to learn where its lines went, so a crash
 * between two orders' writes is completed.
 */
async function passOn(orders: Collection<OrderView>, orderId: string, e: RecordedEvent, status: Record<string, KitchenStatus>, seen: Set<string>): Promise<void> {
  let away: Record<string, string> | undefined;
  let applied = false;
  await updateDocument(orders, orderId, e, (o) => {
    applied = true;
    away = o?.moved_lines;
    return o ? { ...o, kitchen_status: { ...o.kitchen_status, ...status } } : undefined;
  });
  if (!applied) away = (await orders.get(orderId))?.moved_lines;
  const onward = new Map<string, Record<string, KitchenStatus>>();
  for (const [lineId, to] of Object.entries(away ?? {})) {
    if (status[lineId] && !seen.has(to)) onward.set(to, { ...onward.get(to), [lineId]: status[lineId] });
  }
  for (const [to, moved] of onward) {
    seen.add(to);
    await passOn(orders, to, e, moved, seen);
  }
}
