import type { components } from '@comanda/client';
import type { Entry } from './store.js';

type Order = components['schemas']['Order'];
type Line = components['schemas']['OrderDish'];
type Ticket = components['schemas']['Ticket'];
type Table = { id: string; status: string; order_id?: string | null };
type NewLine = { dish_id: string; quantity?: number; course?: number; seat?: number | null; modifiers?: string[]; notes?: string };
type Priced = { price: number; modifiers: Line['modifiers'] };

/** The menu's prices, as the screens last read them (set by main.tsx: this module reads no menu itself). */
let priceOf: (dishId: string, optionIds: string[]) => Priced = () => ({ price: 0, modifiers: [] });
export const usePrices = (prices: typeof priceOf) => {
  priceOf = prices;
};

const ORDER_PATH = /^\/orders\/([^/?]+)\/complete(?:\?|$)/;
const TICKETS_PATH = /^\/orders\/([^/?]+)\/tickets(?:\?|$)/;

/**
 * What a read shows with the outbox's writes laid over it (undefined: nothing to show). It is the
 * tablet's guess until the server has them: totals are the menu's prices, a bill waits for the server.
 */
export function overlay(path: string, body: unknown, pending: Entry[]): unknown {
  const seated = pending.filter((e) => e.created.order);
  if (path.startsWith('/tables')) {
    if (!Array.isArray(body)) return body;
    return (body as Table[]).map((t) => {
      const here = seated.find((e) => (e.body as { table_id?: string }).table_id === t.id);
      return here ? { ...t, status: 'occupied', order_id: here.created.order } : t;
    });
  }
  // The open orders' list, not `/orders/open/bills` (what their bills stand at: a bill waits for the server).
  if (/^\/orders\/open(?:\?|$)/.test(path) || path.startsWith('/orders/status/')) {
    const listed = Array.isArray(body) ? (body as Order[]) : [];
    // An order seated here and not yet sent is pending: it joins the open orders (or the pending ones).
    const made = path.startsWith('/orders/open') || path.startsWith('/orders/status/pending') ? seated.filter((e) => !listed.some((o) => o.id === e.created.order)).map((e) => orderOf(e).order) : [];
    if (!Array.isArray(body) && made.length === 0) return body;
    // The floor's totals count the dishes added here too (the list has no lines: only additions are known).
    return [...listed, ...made].map((o) => applyToOrder({ order: o, dishes: [] }, pending.filter((e) => e.path.startsWith(`/orders/${o.id}/`))).order);
  }
  const complete = ORDER_PATH.exec(path);
  if (complete) {
    const id = complete[1]!;
    const made = seated.find((e) => e.created.order === id);
    const base = (body as { order: Order; dishes: Line[] } | null | undefined) ?? (made ? orderOf(made) : undefined);
    return base && applyToOrder(base, pending.filter((e) => e.path.startsWith(`/orders/${id}`)));
  }
  const tickets = TICKETS_PATH.exec(path);
  if (tickets) return Array.isArray(body) ? (body as Ticket[]).map((t) => paid(t, pending)) : body ?? (seated.some((e) => e.created.order === tickets[1]) ? null : undefined);
  return body;
}

/** An order seated on this tablet and not yet on the server. */
function orderOf(e: Entry): { order: Order; dishes: Line[] } {
  const b = e.body as { user_id: string; table_id: string | null; waiter: string; guests?: number | null };
  return {
    order: { id: e.created.order!, user_id: b.user_id, table_id: b.table_id, waiter: b.waiter, status: 'pending', total: 0, created_at: new Date(e.at).toISOString(), paid_sat: 0, discounts: [], guests: b.guests ?? null, number: null },
    dishes: [],
  };
}

/** The order's own writes, in order: dishes added, changed, removed, fired. */
function applyToOrder(base: { order: Order; dishes: Line[] }, writes: Entry[]): { order: Order; dishes: Line[] } {
  let dishes = [...base.dishes];
  const orderId = base.order.id;
  let order = base.order;
  for (const e of writes) {
    const sub = e.path.split('?')[0]!.slice(`/orders/${orderId}`.length);
    if (e.method === 'POST' && sub === '/dishes' && Array.isArray(e.body)) {
      dishes = dishes.concat((e.body as NewLine[]).map((d, i) => lineOf(orderId, e.created.lines?.[i] ?? `${e.key}-${i}`, d)));
    } else if (e.method === 'PUT' && sub.startsWith('/dishes/')) {
      const change = e.body as Partial<Line>;
      dishes = dishes.map((l) => (l.id === sub.slice(8) ? priced({ ...l, ...change }) : l));
    } else if (e.method === 'DELETE' && sub.startsWith('/dishes/')) {
      const id = sub.slice(8);
      dishes = dishes.flatMap((l) => (l.id !== id ? [l] : l.kitchen_status === 'pending' ? [] : [{ ...l, kitchen_status: 'cancelled' as const }]));
    } else if (e.method === 'POST' && sub === '/fire') {
      const which = (e.body ?? {}) as { course?: number; line_ids?: string[] };
      dishes = dishes.map((l) => (l.kitchen_status === 'pending' && (which.course === undefined || l.course === which.course) && (!which.line_ids || which.line_ids.includes(l.id)) ? { ...l, kitchen_status: 'sent' as const } : l));
    } else if (e.method === 'PUT' && sub === '') {
      const change = e.body as Partial<Order>;
      order = { ...order, table_id: change.table_id ?? order.table_id, status: change.status ?? order.status, guests: change.guests ?? order.guests };
    }
  }
  const counted = (ls: Line[]) => ls.filter((l) => l.kitchen_status !== 'cancelled').reduce((sum, l) => sum + l.line_total, 0);
  return { order: { ...order, total: cents(order.total - counted(base.dishes) + counted(dishes)) }, dishes };
}

function lineOf(orderId: string, id: string, d: NewLine): Line {
  const { price, modifiers } = priceOf(d.dish_id, d.modifiers ?? []);
  return priced({ id, order_id: orderId, dish_id: d.dish_id, price_at_order: price, notes: d.notes ?? '', kitchen_status: 'pending', quantity: d.quantity ?? 1, course: d.course ?? 1, seat: d.seat ?? null, modifiers, discount: 0, line_total: 0 });
}

const priced = (l: Line): Line => ({ ...l, line_total: cents((l.price_at_order + l.modifiers.reduce((s, m) => s + m.price_delta, 0)) * l.quantity - l.discount) });
const cents = (n: number) => Math.round(n * 100) / 100;

/** Cash taken on a bill while offline: paid and due as the server will have them. */
function paid(t: Ticket, pending: Entry[]): Ticket {
  const taken = pending.filter((e) => e.method === 'POST' && e.path.startsWith(`/tickets/${t.id}/payments`)).map((e) => e.body as { method: Ticket['payments'][number]['method']; amount: number; tendered?: number });
  if (taken.length === 0) return t;
  const sum = cents(taken.reduce((s, p) => s + p.amount, 0));
  const due = cents(Math.max(0, t.due - sum));
  return {
    ...t, paid: cents(t.paid + sum), due, status_name: due === 0 ? 'paid' : t.status_name,
    payments: [...t.payments, ...taken.map((p, i) => ({ id: `kept-${i}`, method: p.method, amount: p.amount, tip: 0, refunded: 0, shift_id: null, taken_at: new Date().toISOString(), ...(p.tendered === undefined ? {} : { tendered: p.tendered }) }))],
  };
}
