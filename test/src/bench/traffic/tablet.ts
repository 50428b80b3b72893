import type { DiningRoom } from './restaurant.js';
import type { ClientProfile, KindProfile } from './profile.js';
import { type Answer, type Service, Session } from './service.js';

/** What a tablet knows of the order on its screen: what its answers told it. */
interface Table {
  orderId: string | null;
  tableId: string | null;
  status: string;
  lines: Array<{ id: string; course: number; seat: number | null; fired: boolean; voided: boolean; comped: boolean }>;
  tickets: Array<{ id: string; due: number; shared: boolean; paid: boolean; invoiced: boolean }>;
  added: number;
  payments: number;
}
const fresh = (): Table => ({ orderId: null, tableId: null, status: 'pending', lines: [], tickets: [], added: 0, payments: 0 });

/** How long the longest recorded waiter's dinner lasts at `pace`, in ms. */
const dinnerMs = (profile: ClientProfile, pace: number) => (Math.max(...Object.values(profile.sequences).map((steps) => steps.at(-1)?.[0] ?? 0)) * 1000) / pace;

/** Query values the screens send (`?all=true`, a void's reason). */
const QUERY: Record<string, string> = { all: 'true', reason: 'se derramó' };

/** Polls' URLs and reads' URLs from a route, with the ids of the order on screen (null while there is none). */
export function urlOf(kind: KindProfile, ids: Record<string, string | null | undefined>, value?: string): string | null {
  let missing = false;
  const path = kind.route.split('/').map((part) => {
    if (!part.startsWith(':')) return part;
    const known = kind.values?.[part.slice(1)] ? value : ids[`/${kind.route.split('/')[1]}${part}`] ?? ids[part];
    if (!known) missing = true;
    return encodeURIComponent(known ?? '');
  }).join('/');
  if (missing) return null;
  return kind.query.length ? `${path}?${kind.query.map((k) => `${k}=${encodeURIComponent(QUERY[k] ?? 'true')}`).join('&')}` : path;
}

/** The headers a kind was recorded with, besides the session's (a receipt asked as text). */
export const acceptOf = (kind: KindProfile): Record<string, string> => (kind.accept && kind.accept !== '*/*' ? { accept: kind.accept } : {});

/**
 * Every poll of a kind of client at its recorded rate, as the screens' timers ask: the next one a
 * period after the answer, each URL of a route with words for parameters (the three open states)
 * taking its share; `urlFor` gives the URL (or null: nothing on screen to ask about).
 */
export function polls(service: Service, session: Session, profile: ClientProfile, urlFor: (kind: KindProfile, value?: string) => string | null, heard: (kind: KindProfile, answer: Answer) => void = () => {}): Array<Promise<void>> {
  return profile.kinds.filter((k) => k.role === 'poll').flatMap((kind) => {
    const values = Object.values(kind.values ?? {})[0] ?? [undefined];
    const every = (60_000 * values.length) / kind.perMinute;
    return values.map(async (value) => {
      let next = service.now() + Math.random() * every;
      while (await service.until(next)) {
        const url = urlFor(kind, value);
        if (url) heard(kind, await session.call(kind.kind, 'GET', url, { revalidate: kind.ifNoneMatch > 0, headers: acceptOf(kind) }));
        next = service.now() + every;
      }
    });
  });
}

/**
 * One waiter's tablet through the service: signed in, its polls at the recorded rates, and dinner after
 * dinner (the first joined part-way, tablet by tablet) the writes (and the reads between them) of one
 * recorded waiter, in their order and at their times (divided by `pace`), made with the ids the
 * answers gave: the order placed at a table of its
 * section, dishes added by course and seat, a line edited, courses fired, a fired line voided and
 * another comped with a manager's approval, a discount, the bill split by seat, paid in cash and by card
 * (a Lightning invoice asked, the bench having no wallet to pay it), the order moved and closed once the
 * kitchen has bumped it. Refused requests of the recording (a waiter's PIN for an approval) are not
 * replayed. `skipped` counts, by kind, the steps that had nothing to act on (no order, no line left).
 */
export async function tablet(service: Service, room: DiningRoom, profile: ClientProfile, index: number, pace: number, skipped: Map<string, number>): Promise<void> {
  const tablets = room.sections.length;
  const session = new Session(service, 'tablet');
  const waiter = room.waiters[index]!;
  await session.login(waiter.name, waiter.pin);
  const me = (await session.call('GET /auth/me', 'GET', '/auth/me')).body as { id: string };
  const section = room.sections[index]!;
  const seated = new Set<string>();
  const manager = room.managers[index % room.managers.length]!;
  const approval = { 'x-approval-name': manager.name, 'x-approval-pin': manager.pin };
  let table = fresh();
  const turn = new Map<string, number>();
  const ids = () => ({
    '/orders:id': table.orderId, '/tickets:id': (table.tickets.find((t) => !t.paid) ?? table.tickets[0])?.id,
    ':dishId': table.lines.at(-1)?.id,
  });
  const urlFor = (kind: KindProfile, value?: string) => {
    const values = Object.values(kind.values ?? {})[0];
    const n = turn.get(kind.kind) ?? 0;
    turn.set(kind.kind, n + 1);
    return urlOf(kind, ids(), value ?? values?.[n % values.length]);
  };
  const heard = (kind: KindProfile, answer: Answer) => {
    if (answer.status !== 200) return;
    if (kind.route === '/orders/:id/complete') {
      const { order, dishes } = answer.body as { order: { id: string; status: string }; dishes: Array<{ id: string; kitchen_status: string }> };
      if (order.id !== table.orderId) return;
      table.status = order.status;
      for (const l of table.lines) {
        const seen = dishes.find((d) => d.id === l.id);
        if (seen) l.fired ||= seen.kitchen_status !== 'pending';
      }
    }
  };
  const steps = Object.values(profile.sequences)[index % Object.keys(profile.sequences).length]!
    .filter(([, kind, status]) => !kind.includes(' /auth/') && status !== null && status < 400);
  const kinds = new Map(profile.kinds.map((k) => [k.kind, k]));
  const moves = steps.filter(([, kind]) => kind === 'PUT /orders/:id').length;

  const write = async (kind: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    session.call(kind, kind.split(' ')[0]!, path, { body, headers, idempotent: true });
  const step = async (kind: string, approved: boolean, putsSoFar: number): Promise<boolean> => {
    const o = table.orderId;
    const live = table.lines.filter((l) => !l.voided);
    switch (kind) {
      case 'POST /orders': {
        const at = section.find((t) => !seated.has(t)) ?? null;
        const a = await write(kind, '/orders', { user_id: me.id, table_id: at, waiter: waiter.name });
        if (a.status !== 201) return true;
        table = { ...fresh(), orderId: (a.body as { id: string }).id, tableId: at };
        if (at) seated.add(at);
        return true;
      }
      case 'POST /orders/:id/dishes': {
        if (!o) return false;
        const dish = room.dishes[(index + table.added) % room.dishes.length]!;
        // As in the recorded dinner: a starter for the table, then the seats' dishes in turn, starters first.
        const [course, seat] = [table.added < 3 ? 1 : 2, table.added === 0 ? null : ((table.added - 1) % 2) + 1];
        table.added++;
        const a = await write(kind, `/orders/${o}/dishes`, [{ dish_id: dish.id, quantity: 1, course, seat, modifiers: dish.modifiers }]);
        for (const id of a.status === 201 ? (a.body as { ids: string[] }).ids : []) table.lines.push({ id, course, seat, fired: false, voided: false, comped: false });
        return true;
      }
      case 'PUT /orders/:id/dishes/:dishId': {
        const line = live.filter((l) => !l.fired).at(-1);
        if (!o || !line) return false;
        await write(kind, `/orders/${o}/dishes/${line.id}`, { quantity: 3, course: line.course, seat: line.seat, notes: '' });
        return true;
      }
      case 'POST /orders/:id/fire': {
        if (!o) return false;
        const courses = [...new Set(live.filter((l) => !l.fired).map((l) => l.course))].sort();
        const a = await write(kind, `/orders/${o}/fire`, courses.length > 1 ? { course: courses[0] } : {});
        const sent = new Set(a.status === 200 ? (a.body as { tickets: Array<{ line_ids: string[] }> }).tickets.flatMap((t) => t.line_ids) : []);
        for (const l of table.lines) l.fired ||= sent.has(l.id);
        return true;
      }
      case 'DELETE /orders/:id/dishes/:dishId?reason': {
        const line = live.filter((l) => l.fired === approved && !l.comped).at(-1);
        if (!o || !line) return false;
        const a = await session.call(kind, 'DELETE', `/orders/${o}/dishes/${line.id}?reason=${encodeURIComponent(QUERY.reason!)}`, { headers: approved ? approval : {}, idempotent: true });
        if (a.status === 200) line.voided = true;
        return true;
      }
      case 'POST /orders/:id/discounts': {
        // A main sent back cold: the last fired line, not the table's shared starter.
        const line = live.findLast((l) => l.fired && !l.comped);
        if (!o || (approved && !line)) return false;
        if (approved) line!.comped = true;
        await write(kind, `/orders/${o}/discounts`, approved ? { line_id: line!.id, kind: 'percent', value: 100, reason: 'comp: llegó frío' } : { kind: 'percent', value: 10, reason: 'clientes de siempre' }, approved ? approval : {});
        return true;
      }
      case 'POST /orders/:id/tickets': {
        if (!o) return false;
        const a = await write(kind, `/orders/${o}/tickets`, { split: 'seats' });
        if (a.status === 201) table.tickets = (a.body as { tickets: Array<{ id: string; due: number; seat: number | null }> }).tickets.map((t) => ({ id: t.id, due: t.due, shared: t.seat === null, paid: false, invoiced: false }));
        return true;
      }
      case 'POST /tickets/:id/payments': {
        // Paid bill by bill, the table's shared one last (the recorded table paid it by Lightning).
        const bill = table.tickets.find((t) => !t.paid && !t.invoiced && !t.shared) ?? table.tickets.find((t) => !t.paid && !t.invoiced);
        if (!bill) return false;
        const cash = table.payments++ % 2 === 0;
        const a = await write(kind, `/tickets/${bill.id}/payments`, cash ? { method: 'cash', amount: bill.due, tendered: Math.ceil(bill.due / 100) * 100 } : { method: 'credit_card', amount: bill.due, tip: Math.round(bill.due * 10) / 100 });
        bill.paid = a.status === 201;
        return true;
      }
      case 'POST /tickets/:id/lightning': {
        // The table's bill in two invoices, half then the rest, as the recorded guests paid it.
        const bill = table.tickets.find((t) => !t.paid && t.invoiced) ?? table.tickets.find((t) => !t.paid && t.shared) ?? table.tickets.findLast((t) => !t.paid);
        if (!bill || bill.due <= 0) return false;
        const half = !bill.invoiced;
        bill.invoiced = true;
        await write(kind, `/tickets/${bill.id}/lightning`, half ? { tip: 0, amount: Math.round(bill.due * 50) / 100 } : { tip: 0 });
        return true;
      }
      case 'PUT /orders/:id': {
        if (!o) return false;
        if (putsSoFar < moves) {
          const to = section.find((t) => !seated.has(t)) ?? null;
          const a = await write(kind, `/orders/${o}`, { user_id: me.id, table_id: to, waiter: waiter.name, status: table.status });
          if (a.status === 200) {
            if (table.tableId) seated.delete(table.tableId);
            if (to) seated.add(to);
            table.tableId = to;
          }
          return true;
        }
        // Closed once the kitchen has bumped everything (the order screen's poll says when).
        for (const until = service.now() + 30_000 / pace; table.status !== 'ready' && service.now() < until;) if (!(await service.wait(100))) return true;
        const a = await write(kind, `/orders/${o}`, { user_id: me.id, table_id: table.tableId, waiter: waiter.name, status: 'completed' });
        if (a.status === 200) {
          if (table.tableId) seated.delete(table.tableId);
          // Back to the floor: the order's screen (and its poll) closed; its bills are still at hand.
          table.orderId = null;
        }
        return true;
      }
      default: {
        const read = kinds.get(kind);
        const url = read && read.method === 'GET' ? urlFor(read) : null;
        if (!url) return false;
        await session.call(kind, 'GET', url, { revalidate: read!.ifNoneMatch > 0, headers: acceptOf(read!) });
        return true;
      }
    }
  };
  const dinners = async () => {
    // Each tablet joins its first dinner part-way (a share of a dinner's length in, tablet by tablet;
    // the steps before made at once, in the warm-up): dinners then run at every stage at once, as in a
    // full restaurant, and the tablets do not all write at the same instant.
    let start = service.now() - (index / tablets) * dinnerMs(profile, pace);
    for (;; start = service.now()) {
      let puts = 0;
      for (const [at, kind, , approved] of steps) {
        if (!(await service.until(start + (at * 1000) / pace))) return;
        if (kind === 'PUT /orders/:id') puts++;
        if (!(await step(kind, approved === 1, puts))) skipped.set(kind, (skipped.get(kind) ?? 0) + 1);
      }
    }
  };
  await Promise.all([dinners(), ...polls(service, session, profile, urlFor, heard)]);
}
