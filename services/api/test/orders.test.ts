import t from 'tap';
import { testApp } from './harness.js';
import { setUpRestaurant } from './restaurant.js';

async function service() {
  const h = await testApp();
  const admin = await h.as('admin');
  const waiter = await h.as('waiter');
  const r = await setUpRestaurant(h.app, admin);
  const me = (await h.app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: waiter } })).json();
  const call = (cookie: string) => async (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const res = await h.app.inject({ method: method as 'GET', url, headers: { cookie, ...headers }, payload: payload as object });
    return { status: res.statusCode, body: res.body ? res.json() : undefined, headers: res.headers };
  };
  return { ...h, r, admin, waiter, waiterId: me.id as string, asWaiter: call(waiter), asAdmin: call(admin), call };
}

t.test('placing an order occupies the table; completing it frees the table', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const placed = await s.asWaiter('POST', '/orders', { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'Marisol', status: 'pending', total: 999 });
  t.equal(placed.status, 201);
  t.match(placed.body, { message: 'Order added successfully', id: /^[0-9a-f-]{36}$/ });
  const id = placed.body.id;
  const table = await s.asWaiter('GET', `/tables/${s.r.tables.t1}`);
  t.match(table.body, { status: 'occupied', order_id: id }, 'TableOccupied, read at once after the POST');

  const order = await s.asWaiter('GET', `/orders/${id}`);
  t.match(order.body, { id, user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'waiter-1', status: 'pending', total: 0 }, "the waiter's roster name, not the body's text");
  t.match(order.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.equal(order.headers.etag, '"1"');

  const taken = await s.asWaiter('POST', '/orders', { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'Other' });
  t.equal(taken.status, 409, 'a table holding another active order cannot be taken');
  t.match(taken.body.message, /already has an active order/);

  const added = await s.asWaiter('POST', `/orders/${id}/dishes`, [{ dish_id: s.r.dishes.pastor, price_at_order: 25.5, notes: 'sin cebolla' }, { dish_id: s.r.dishes.agua }]);
  t.equal(added.status, 201);
  t.equal(added.body.ids.length, 2);
  t.equal((await s.asWaiter('GET', `/orders/${id}`)).body.total, 55.5, 'menu price used when price_at_order is omitted');
  const complete = await s.asWaiter('GET', `/orders/${id}/complete`);
  t.same(complete.body.dishes.map((d: { price_at_order: number; notes: string }) => [d.price_at_order, d.notes]), [[25.5, 'sin cebolla'], [30, '']]);

  for (const status of ['preparing', 'ready', 'completed']) {
    const res = await s.asWaiter('PUT', `/orders/${id}`, { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'Marisol', status });
    t.same([res.status, res.body], [200, { message: 'Order updated successfully' }], status);
  }
  t.match((await s.asWaiter('GET', `/tables/${s.r.tables.t1}`)).body, { status: 'available', order_id: null }, 'released on completion');
  const back = await s.asWaiter('PUT', `/orders/${id}`, { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'Marisol', status: 'pending' });
  t.same([back.status, back.body.message], [409, 'An order cannot go from completed to pending']);
  const del = await s.asAdmin('DELETE', `/orders/${id}`);
  t.same([del.status, del.body.message], [409, 'A completed order is a sales record and cannot be deleted']);
  const late = await s.asWaiter('POST', `/orders/${id}/dishes`, [{ dish_id: s.r.dishes.pastor }]);
  t.equal(late.status, 409);
});

t.test('cancelling or deleting frees the table; moving tables moves the occupancy', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const body = (table: string | null, status = 'pending') => ({ user_id: s.waiterId, table_id: table, waiter: 'Marisol', status });
  const id = (await s.asWaiter('POST', '/orders', body(s.r.tables.t1))).body.id;
  const moved = await s.asWaiter('PUT', `/orders/${id}`, body(s.r.tables.t2), { 'if-match': '"1"' });
  t.equal(moved.status, 200);
  t.match((await s.asWaiter('GET', `/tables/${s.r.tables.t1}`)).body, { status: 'available', order_id: null });
  t.match((await s.asWaiter('GET', `/tables/${s.r.tables.t2}`)).body, { status: 'occupied', order_id: id });
  const stale = await s.asWaiter('PUT', `/orders/${id}`, body(s.r.tables.t3), { 'if-match': '"1"' });
  t.equal(stale.status, 412);
  t.match((await s.asWaiter('GET', `/tables/${s.r.tables.t3}`)).body, { status: 'available' }, 'a refused move leaves no reservation behind');

  const other = (await s.asWaiter('POST', '/orders', body(s.r.tables.t3))).body.id;
  const blocked = await s.asWaiter('PUT', `/orders/${id}`, body(s.r.tables.t3));
  t.equal(blocked.status, 409, 'cannot move onto a table another order holds');
  t.match((await s.asWaiter('GET', `/tables/${s.r.tables.t2}`)).body, { order_id: id }, 'still on its own table');

  t.equal((await s.asWaiter('PUT', `/orders/${other}`, body(s.r.tables.t3, 'cancelled'))).status, 200);
  t.match((await s.asWaiter('GET', `/tables/${s.r.tables.t3}`)).body, { status: 'available', order_id: null });
  t.equal((await s.asAdmin('DELETE', `/orders/${id}`)).status, 200);
  t.match((await s.asWaiter('GET', `/tables/${s.r.tables.t2}`)).body, { status: 'available', order_id: null });
  t.equal((await s.asWaiter('GET', `/orders/${id}`)).body, 'Resource not found');

  const takeaway = await s.asWaiter('POST', '/orders', body(null));
  t.equal(takeaway.status, 201, 'take-away orders have no table');
});

t.test('with-dishes: one append; any invalid dish rejects the whole request', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const order = { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'Marisol' };
  const bad = await s.asWaiter('POST', '/orders/with-dishes', {
    order, dishes: [{ dish_id: s.r.dishes.pastor, price_at_order: 25.5, notes: '' }, { dish_id: '00000000-0000-4000-8000-000000000000', price_at_order: 1, notes: '' }, { dish_id: s.r.dishes.agua, price_at_order: -3, notes: '' }],
  });
  t.equal(bad.status, 400);
  t.same(bad.body.errors.map((e: { field: string }) => e.field), ['dishes[1].dish_id', 'dishes[2].price_at_order']);
  t.match((await s.asWaiter('GET', `/tables/${s.r.tables.t1}`)).body, { status: 'available' }, 'nothing half-written');
  t.equal((await s.asWaiter('GET', '/orders')).status, 204);

  const ok = await s.asWaiter('POST', '/orders/with-dishes', { order, dishes: [{ dish_id: s.r.dishes.pastor, price_at_order: 25.5, notes: 'x' }, { dish_id: s.r.dishes.suadero, price_at_order: 22, notes: '' }] });
  t.equal(ok.status, 201);
  const dishes = await s.asWaiter('GET', `/orders/${ok.body.id}/dishes`);
  t.same(dishes.body.map((d: { dish_id: string; order_id: string }) => [d.dish_id, d.order_id]), [[s.r.dishes.pastor, ok.body.id], [s.r.dishes.suadero, ok.body.id]]);
  t.equal((await s.asWaiter('GET', `/orders/${ok.body.id}`)).body.total, 47.5);
  const events = await s.store.readStream(`order-${ok.body.id}`);
  t.same(events.map((e) => e.type), ['OrderPlaced', 'DishesAdded']);
  t.equal(events[0]!.position + 1n, events[1]!.position, 'one append');
});

t.test('order lines: update, remove one, remove all; totals in cents; calculate-total', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const id = (await s.asWaiter('POST', '/orders', { user_id: s.waiterId, table_id: null, waiter: 'M' })).body.id;
  // Prices of its own are a manager's (price overrides: approvals.test.ts).
  const ids = (await s.asAdmin('POST', `/orders/${id}/dishes`, Array.from({ length: 3 }, () => ({ dish_id: s.r.dishes.pastor, price_at_order: 0.1 })))).body.ids;
  t.equal((await s.asWaiter('GET', `/orders/${id}`)).body.total, 0.3, 'no float drift: 0.1 × 3 = 0.3');
  const upd = await s.asAdmin('PUT', `/orders/${id}/dishes/${ids[0]}`, { price_at_order: 19.99, notes: 'bien dorado' });
  t.same([upd.status, upd.body], [200, { message: 'Order dish updated successfully', id: ids[0] }]);
  t.equal((await s.asAdmin('PUT', `/orders/${id}/dishes/${ids[0]}`, { price_at_order: 1.001 })).status, 400);
  t.equal((await s.asWaiter('PUT', `/orders/${id}/dishes/00000000-0000-4000-8000-000000000000`, { notes: 'x' })).body, 'Resource not found');
  t.equal((await s.asWaiter('DELETE', `/orders/${id}/dishes/${ids[1]}`)).status, 200);
  t.equal((await s.asWaiter('DELETE', `/orders/${id}/dishes/${ids[1]}`)).status, 404);
  const calc = await s.asWaiter('PUT', `/orders/${id}/calculate-total`);
  t.same(calc.body, { message: 'Total calculated successfully', total: 20.09 });
  t.equal((await s.asWaiter('GET', `/orders/${id}`)).body.total, 20.09);
  const cleared = await s.asWaiter('DELETE', `/orders/${id}/dishes`);
  t.same(cleared.body, { message: 'Order dishes deleted successfully', count: 2 });
  t.same((await s.asWaiter('GET', `/orders/${id}/dishes`)).body, []);
  t.equal((await s.asWaiter('GET', `/orders/${id}`)).body.total, 0);
  t.equal((await s.asWaiter('GET', `/orders/00000000-0000-4000-8000-000000000000/dishes`)).body, 'Resource not found');
  t.equal((await s.asWaiter('POST', `/orders/00000000-0000-4000-8000-000000000000/dishes`, [{ dish_id: s.r.dishes.pastor }])).status, 404);
});

t.test('fifty waiters adding dishes to one order at once lose no line', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const id = (await s.asWaiter('POST', '/orders', { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'M' })).body.id;
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? s.asWaiter : s.asAdmin)('POST', `/orders/${id}/dishes`, [{ dish_id: s.r.dishes.suadero, price_at_order: i % 2 ? 22 : 1 + i / 100, notes: `n${i}` }])));
  t.ok(results.every((r) => r.status === 201));
  const lines = (await s.asWaiter('GET', `/orders/${id}/dishes`)).body as Array<{ notes: string }>;
  t.equal(lines.length, 50);
  t.equal(new Set(lines.map((l) => l.notes)).size, 50);
  const expected = Array.from({ length: 50 }, (_, i) => (i % 2 ? 2200 : 100 + i)).reduce((a, b) => a + b, 0) / 100;
  t.equal((await s.asWaiter('GET', `/orders/${id}`)).body.total, expected);
});

t.test('Idempotency-Key: a retried order or line is created once', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const body = { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'M' };
  const [a, b] = await Promise.all([0, 1].map(() => s.asWaiter('POST', '/orders', body, { 'idempotency-key': 'mesa-1-cena' })));
  t.same([a!.status, b!.status], [201, 201]);
  t.equal(a!.body.id, b!.body.id);
  t.equal((await s.asWaiter('GET', '/orders')).body.length, 1);
  const line = () => s.asWaiter('POST', `/orders/${a!.body.id}/dishes`, [{ dish_id: s.r.dishes.pastor }], { 'idempotency-key': 'otra-ronda' });
  const first = await line();
  const again = await line();
  t.same(again.body, first.body);
  t.equal((await s.asWaiter('GET', `/orders/${a!.body.id}/dishes`)).body.length, 1);
});

t.test('validation and roles', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const kitchen = s.call(await s.as('kitchen'));
  const bad = [
    { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'M', status: 'ready' },
    { user_id: '00000000-0000-4000-8000-000000000000', table_id: s.r.tables.t1, waiter: 'M' },
    { user_id: s.waiterId, table_id: '00000000-0000-4000-8000-000000000000', waiter: 'M' },
    { user_id: s.waiterId, table_id: 'T1', waiter: 'M' },
    { user_id: s.waiterId, waiter: 'M' },
    { user_id: s.waiterId, table_id: null, waiter: '' },
  ];
  for (const payload of bad) {
    const res = await s.asWaiter('POST', '/orders', payload);
    t.same([res.status, res.body.message], [400, 'Validation failed'], JSON.stringify(payload));
  }
  t.equal((await s.asWaiter('GET', '/orders')).status, 204, 'nothing written by rejected requests');
  const id = (await s.asWaiter('POST', '/orders', { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'M' })).body.id;
  t.equal((await kitchen('POST', '/orders', { user_id: s.waiterId, table_id: null, waiter: 'M' })).status, 403, 'kitchen does not take orders');
  t.equal((await kitchen('PUT', `/orders/${id}`, { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'M', status: 'preparing' })).status, 200, 'kitchen moves the status');
  t.equal((await kitchen('PUT', `/orders/${id}`, { user_id: s.waiterId, table_id: s.r.tables.t2, waiter: 'M', status: 'preparing' })).status, 403, 'but not the table');
  t.equal((await s.asWaiter('DELETE', `/orders/${id}`)).status, 403, 'waiters do not delete orders');
  t.equal((await kitchen('GET', `/orders/${id}`)).status, 200);
  t.equal((await s.asWaiter('PUT', `/orders/${id}`, { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'M', status: 'done' })).status, 400);
  const anon = await s.app.inject({ method: 'GET', url: '/orders' });
  t.same([anon.statusCode, anon.json()], [401, { message: 'Unauthorized' }]);
  t.equal((await s.asWaiter('GET', '/orders/not-a-uuid')).body, 'Missing or malformed ID');
  t.equal((await s.asWaiter('GET', '/orders/total-sales/2026-11-21')).status, 403, 'sales are for managers');
});
