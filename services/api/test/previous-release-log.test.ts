import t from 'tap';
import type { RecordedEvent } from '@comanda/event-store';
import { MemoryEventStore } from '@comanda/event-store';
import { billsService } from './bills-helpers.js';
import { ADMIN, testApp } from './harness.js';

/**
 * An event log as the release before quantities, modifiers, courses and seats wrote it: the same
 * events this release writes for seed requests, without the fields that release did not know.
 */
const LINE_FIELDS_ADDED = ['quantity', 'course', 'seat', 'modifiers', 'allergens'];
const withoutNewFields = (line: Record<string, unknown>) => Object.fromEntries(Object.entries(line).filter(([k]) => !LINE_FIELDS_ADDED.includes(k)));
const FIRING_FIELDS_ADDED = ['course'];

const without = (data: Record<string, unknown>, fields: string[]) => Object.fromEntries(Object.entries(data).filter(([k]) => !fields.includes(k)));

function asPreviousRelease(e: RecordedEvent): { type: string; data: unknown } | null {
  const data = e.data as Record<string, unknown> & { lines?: Array<Record<string, unknown>> };
  switch (e.type) {
    case 'OrderNumberTaken':
      return null;
    case 'OrderPlaced':
      return { type: e.type, data: without(data, ['number']) };
    case 'DishesAdded':
    case 'TicketIssued':
    case 'KitchenTicketOpened':
      return { type: e.type, data: { ...without(data, ['orderNumber']), lines: data.lines!.map(withoutNewFields) } };
    case 'OrderLinesFired':
      return { type: e.type, data: Object.fromEntries(Object.entries(data).filter(([k]) => !FIRING_FIELDS_ADDED.includes(k))) };
    default:
      return { type: e.type, data };
  }
}

/** Answers with the order numbers (`number`, `order_number`) left out, wherever they are. */
const withoutNumbers = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutNumbers);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'number' && k !== 'order_number').map(([k, v]) => [k, withoutNumbers(v)]));
};

async function everyEvent(store: MemoryEventStore): Promise<RecordedEvent[]> {
  const head = await store.headPosition();
  const events: RecordedEvent[] = [];
  await new Promise<void>((resolve, reject) => {
    const sub = store.subscribeToAll(null, {
      onEvents(batch) {
        events.push(...batch);
        if (head !== null && batch.at(-1)!.position >= head) void sub.close().then(resolve);
      },
      onError: reject,
    });
  });
  return events;
}

t.test("a log written by the previous release replays to the same seed answers", async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  await s.admin('POST', '/stations', { name: 'Grill' });
  // Seed requests only: no quantity, course, seat or modifier anywhere.
  const a = await s.orderWith(['pastor', 'agua']);
  await s.manager('POST', `/orders/${a.id}/dishes`, [{ dish_id: s.r.dishes.suadero, price_at_order: 20.05, notes: 'sin cebolla' }]);
  await s.manager('PUT', `/orders/${a.id}/dishes/${a.lines[0]}`, { price_at_order: 24, notes: 'bien dorado' });
  await s.waiter('POST', `/orders/${a.id}/fire`);
  const ticket = (await s.waiter('POST', `/orders/${a.id}/tickets`, { split: 'none' })).body.ids[0];
  await s.waiter('POST', `/tickets/${ticket}/payments`, { method: 'cash', amount: 100, tendered: 100 });
  await s.finish(a.id, s.r.tables.t1);
  const b = await s.orderWith(['suadero', 'suadero', 'agua'], 't2');
  await s.waiter('POST', `/orders/${b.id}/tickets`, { split: 'even', parts: 3 });
  const c = await s.orderWith(['pastor'], null);
  await s.waiter('DELETE', `/orders/${c.id}/dishes/${c.lines[0]}`);

  const today = new Date().toISOString().slice(0, 10);
  const seedReads = [
    '/orders', `/orders/${a.id}`, `/orders/${a.id}/complete`, `/orders/${a.id}/dishes`, `/orders/${b.id}/complete`, `/orders/${c.id}/complete`,
    '/orders/status/completed', '/orders/status/pending', `/orders/table/${s.r.tables.t2}`, `/orders/user/${s.waiterId}`,
    `/orders/date-range?start_date=${today}&end_date=${today}`, `/orders/total-sales/${today}`, `/tickets/${ticket}`, `/orders/${b.id}/tickets`, '/tables',
    '/kitchen/tickets?status=open',
  ];
  const answers = async (get: (url: string) => Promise<{ status: number; body: unknown }>) => {
    const out: Record<string, unknown> = {};
    for (const url of seedReads) {
      const res = await get(url);
      out[url] = [res.status, res.body];
    }
    return out;
  };
  const now = await answers((url) => s.admin('GET', url));
  t.match(now[`/orders/${a.id}`], [200, { total: 74.05, status: 'completed' }], '24 + 30 + 20.05');
  t.match(now[`/orders/${b.id}/complete`], [200, { order: { total: 74 } }]);
  t.match(now[`/orders/${c.id}/complete`], [200, { order: { total: 0 }, dishes: [] }]);
  t.match(now['/kitchen/tickets?status=open'], [200, [{ order_id: a.id, lines: [{ quantity: 1, course: 1, seat: null, modifiers: [], allergens: [] }, {}, {}] }]]);

  const log = new MemoryEventStore();
  for (const e of await everyEvent(s.store)) {
    const previous = asPreviousRelease(e);
    if (previous) await log.append(e.stream, [{ id: e.id, metadata: e.metadata, ...previous }], 'any');
  }
  const replayed = await testApp({}, {}, undefined, {}, log);
  t.teardown(replayed.close);
  const head = await log.headPosition();
  await replayed.projector.waitFor(head!, 10_000);
  const admin = await replayed.login(ADMIN.name, ADMIN.pin);
  const then = await answers(async (url) => {
    const res = await replayed.app.inject({ method: 'GET', url, headers: { cookie: admin } });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  });
  // An order's number cannot be known from a log written before numbers: null there, every other field the same.
  t.same(withoutNumbers(then), withoutNumbers(now), 'every seed answer, field for field');
  t.match(then[`/orders/${a.id}`], [200, { number: null }]);
  t.match(now[`/orders/${a.id}`], [200, { number: 1 }]);
  const lines = (then[`/orders/${a.id}/dishes`] as [number, Array<Record<string, unknown>>])[1];
  t.same(lines.map((l) => [l.quantity, l.course, l.seat, l.line_total]), [[1, 1, null, 24], [1, 1, null, 30], [1, 1, null, 20.05]], 'old lines: one portion, course 1, no seat');
});
