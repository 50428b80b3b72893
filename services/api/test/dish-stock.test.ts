import t from 'tap';
import { servedApp } from './harness.js';
import { setUpRestaurant } from './restaurant.js';

// A dish sold out ("86") or counted (issue 60), over HTTP, with the restaurant's clock fixed.

// Seconds apart (within a session's access token): the end of the 28th and the start of the 29th in Mexico City.
const LATE = Date.parse('2026-11-29T05:59:45Z');
const AFTER_MIDNIGHT = Date.parse('2026-11-29T06:00:05Z');

async function service(t: Tap.Test) {
  const s = await servedApp({ COMANDA_TIMEZONE: 'America/Mexico_City' });
  t.teardown(s.close);
  s.clock.now = LATE;
  const [admin, manager, waiter] = [await s.as('admin'), await s.as('manager'), await s.as('waiter')];
  const r = await setUpRestaurant(s.app, admin);
  const call = (cookie: string) => async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await s.request(path, cookie, headers, method, body);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, etag: res.headers.get('etag') };
  };
  const asWaiter = call(waiter);
  const asManager = call(manager);
  const waiterId = (await asWaiter('GET', '/auth/me')).body.id as string;
  const order = (dishes: Array<{ dish_id: string; quantity?: number }>, table: string | null = null) =>
    asWaiter('POST', '/orders/with-dishes', { order: { user_id: waiterId, table_id: table, waiter: 'Marisol' }, dishes });
  const dish = async (id: string) => (await asWaiter('GET', `/dishes/${id}`)).body as { sold_out: boolean; remaining: number | null };
  return { s, r, asWaiter, asManager, order, dish };
}

t.test('86 now: orders with the dish are refused 409 naming it, nothing written; back on sale by hand', async (t) => {
  const { s, r, asWaiter, asManager, order, dish } = await service(t);
  t.same(await dish(r.dishes.pastor), { ...(await dish(r.dishes.pastor)), sold_out: false, remaining: null }, 'on sale, no count, before any setting');
  const out = await asManager('PUT', `/dishes/${r.dishes.pastor}/stock`, { sold_out: true }, { 'idempotency-key': 'eighty-six-1' });
  t.same([out.status, out.body], [200, { message: 'Dish stock updated', id: r.dishes.pastor, sold_out: true, remaining: 0 }]);
  t.match(await dish(r.dishes.pastor), { sold_out: true, remaining: 0 });
  const replay = await asManager('PUT', `/dishes/${r.dishes.pastor}/stock`, { sold_out: true }, { 'idempotency-key': 'eighty-six-1' });
  t.same([replay.status, replay.body.sold_out], [200, true], 'a retry with the same Idempotency-Key answers the same');

  const refused = await order([{ dish_id: r.dishes.agua }, { dish_id: r.dishes.pastor }], r.tables.t1);
  t.same([refused.status, refused.body.message], [409, 'Taco al pastor is sold out']);
  t.equal((await asWaiter('GET', `/tables/${r.tables.t1}`)).body.status, 'available', 'nothing half-written: the table stays free');
  t.equal((await asWaiter('GET', '/orders')).status, 204, 'and no order was written');

  const placed = await order([{ dish_id: r.dishes.agua }], r.tables.t1);
  t.equal(placed.status, 201);
  const added = await asWaiter('POST', `/orders/${placed.body.id}/dishes`, [{ dish_id: r.dishes.pastor }]);
  t.same([added.status, added.body.message], [409, 'Taco al pastor is sold out'], 'adding the dish to an order');

  const back = await asManager('PUT', `/dishes/${r.dishes.pastor}/stock`, { sold_out: false });
  t.same([back.status, back.body.sold_out, back.body.remaining], [200, false, null]);
  t.equal((await asWaiter('POST', `/orders/${placed.body.id}/dishes`, [{ dish_id: r.dishes.pastor }])).status, 201, 'back on sale');

  const audit = await asManager('GET', '/audit?kind=dish_stock');
  t.match(audit.body.entries, [
    { kind: 'dish_stock', staff: 'manager-1', detail: 'Taco al pastor sold out' },
    { kind: 'dish_stock', staff: 'manager-1', detail: 'Taco al pastor back on sale' },
  ], 'recorded with who did it');
  t.equal(s.logs.some((l) => l.includes('4321')), false);
});

t.test('a count of 3 is sold out after three portions, whatever the orders; raising a quantity counts', async (t) => {
  const { r, asWaiter, asManager, order, dish } = await service(t);
  const counted = await asManager('PUT', `/dishes/${r.dishes.pastor}/stock`, { remaining: 3 });
  t.same([counted.status, counted.body.sold_out, counted.body.remaining], [200, false, 3]);
  const first = await order([{ dish_id: r.dishes.pastor }]);
  t.equal(first.status, 201);
  t.match(await dish(r.dishes.pastor), { sold_out: false, remaining: 2 });
  const tooMany = await order([{ dish_id: r.dishes.pastor, quantity: 3 }]);
  t.same([tooMany.status, tooMany.body.message], [409, 'Only 2 Taco al pastor left']);
  const lines = (await asWaiter('GET', `/orders/${first.body.id}/dishes`)).body as Array<{ id: string }>;
  t.equal((await asWaiter('PUT', `/orders/${first.body.id}/dishes/${lines[0]!.id}`, { quantity: 2 })).status, 200, 'raising a quantity takes a portion');
  t.equal((await order([{ dish_id: r.dishes.pastor }])).status, 201, 'the third portion');
  t.match(await dish(r.dishes.pastor), { sold_out: true, remaining: 0 });
  const raised = await asWaiter('PUT', `/orders/${first.body.id}/dishes/${lines[0]!.id}`, { quantity: 3 });
  t.same([raised.status, raised.body.message], [409, 'Taco al pastor is sold out']);
  t.match((await asWaiter('GET', `/orders/${first.body.id}/dishes`)).body, [{ quantity: 2 }], 'the line keeps its quantity');
});

t.test("at the next business day's start the dish is on sale again, with no write", async (t) => {
  const { s, r, asManager, order, dish, asWaiter } = await service(t);
  await asManager('PUT', `/dishes/${r.dishes.pastor}/stock`, { sold_out: true });
  const list = await asWaiter('GET', '/dishes');
  t.match(list.body.find((d: { id: string }) => d.id === r.dishes.pastor), { sold_out: true });
  s.clock.now = AFTER_MIDNIGHT;
  t.match(await dish(r.dishes.pastor), { sold_out: false, remaining: null });
  const again = await asWaiter('GET', '/dishes', undefined, { 'if-none-match': list.etag! });
  t.equal(again.status, 200, "a tablet revalidating its menu after midnight hears of it (the list's ETag names the day)");
  t.match(again.body.find((d: { id: string }) => d.id === r.dishes.pastor), { sold_out: false });
  t.equal((await order([{ dish_id: r.dishes.pastor }])).status, 201);
});

t.test('only managers and admins set a dish stock; bad input is a clear 400 or 404', async (t) => {
  const { r, asWaiter, asManager } = await service(t);
  const denied = await asWaiter('PUT', `/dishes/${r.dishes.pastor}/stock`, { sold_out: true });
  t.equal(denied.status, 403);
  t.equal((await asManager('PUT', `/dishes/${r.dishes.pastor}/stock`, {})).status, 400);
  t.equal((await asManager('PUT', `/dishes/${r.dishes.pastor}/stock`, { remaining: -1 })).status, 400);
  t.equal((await asManager('PUT', `/dishes/${r.dishes.pastor}/stock`, { remaining: 2.5 })).status, 400);
  const both = await asManager('PUT', `/dishes/${r.dishes.pastor}/stock`, { sold_out: true, remaining: 3 });
  t.match([both.status, both.body.errors], [400, [{ field: 'remaining' }]]);
  t.equal((await asManager('PUT', '/dishes/0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a/stock', { sold_out: true })).status, 404);
  t.match(await asWaiter('GET', `/dishes/${r.dishes.pastor}`), { body: { sold_out: false, remaining: null } }, 'nothing was set');
});

t.test('a burst of ten orders over HTTP for a count of 3: three placed, seven refused 409, none oversold; a retry holds nothing twice', async (t) => {
  const { r, asWaiter, asManager, order, dish } = await service(t);
  await asManager('PUT', `/dishes/${r.dishes.pastor}/stock`, { remaining: 3 });
  const burst = await Promise.all(Array.from({ length: 10 }, () => order([{ dish_id: r.dishes.pastor }])));
  t.same(burst.map((b) => b.status).sort(), [201, 201, 201, 409, 409, 409, 409, 409, 409, 409]);
  t.ok(burst.filter((b) => b.status === 409).every((b) => b.body.message === 'Taco al pastor is sold out'), 'each refusal names the dish');
  t.match(await dish(r.dishes.pastor), { sold_out: true, remaining: 0 });

  await asManager('PUT', `/dishes/${r.dishes.pastor}/stock`, { remaining: 1 });
  const waiterId = (await asWaiter('GET', '/auth/me')).body.id as string;
  const body = { order: { user_id: waiterId, table_id: null, waiter: 'Marisol' }, dishes: [{ dish_id: r.dishes.pastor }] };
  const first = await asWaiter('POST', '/orders/with-dishes', body, { 'idempotency-key': 'last-pastor' });
  const retry = await asWaiter('POST', '/orders/with-dishes', body, { 'idempotency-key': 'last-pastor' });
  t.same([first.status, retry.status, retry.body.id], [201, 201, first.body.id], 'the retry answers the same order');
  t.match(await dish(r.dishes.pastor), { sold_out: true, remaining: 0 }, 'the one portion held once');
});
