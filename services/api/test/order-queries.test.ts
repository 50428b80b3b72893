import t from 'tap';
import { testApp } from './harness.js';
import { setUpRestaurant } from './restaurant.js';

const at = (iso: string) => Date.parse(iso);

async function service(env: Record<string, string> = {}) {
  const h = await testApp(env);
  const admin = await h.as('admin');
  const waiter = await h.as('waiter');
  const r = await setUpRestaurant(h.app, admin);
  const waiterId = (await h.app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: waiter } })).json().id as string;
  const adminId = (await h.app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: admin } })).json().id as string;
  let cookie = admin;
  const call = async (method: string, url: string, payload?: unknown) => {
    const res = await h.app.inject({ method: method as 'GET', url, headers: { cookie }, payload: payload as object });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  };
  /** Places an order at a given moment (the clock is moved), with dishes, and takes it to `status`. */
  const orderAt = async (iso: string, opts: { user?: string; table?: string | null; status?: string; price?: number }) => {
    h.clock.now = at(iso);
    // Tokens are dated by the clock too: sign in again at the new time.
    cookie = await h.login('admin', '1234');
    const o = { user_id: opts.user ?? waiterId, table_id: opts.table ?? null, waiter: 'M' };
    const id = (await call('POST', '/orders/with-dishes', { order: o, dishes: [{ dish_id: r.dishes.pastor, price_at_order: opts.price ?? 10, notes: '' }] })).body.id;
    const path = { pending: [], preparing: ['preparing'], ready: ['preparing', 'ready'], completed: ['preparing', 'ready', 'completed'], cancelled: ['cancelled'] }[opts.status ?? 'pending']!;
    for (const status of path) await call('PUT', `/orders/${id}`, { ...o, status });
    return id as string;
  };
  return { ...h, r, call, orderAt, waiterId, adminId };
}

t.test('filters by user, table and status; newest first; pagination', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const o1 = await s.orderAt('2026-11-20T12:00:00Z', { table: s.r.tables.t1, status: 'completed' });
  const o2 = await s.orderAt('2026-11-20T13:00:00Z', { user: s.adminId, table: s.r.tables.t1, status: 'cancelled' });
  const o3 = await s.orderAt('2026-11-20T14:00:00Z', { table: s.r.tables.t2 });
  const o4 = await s.orderAt('2026-11-20T15:00:00Z', { status: 'preparing' });
  const ids = (res: { body: Array<{ id: string }> }) => res.body.map((o) => o.id);
  t.same(ids(await s.call('GET', '/orders')), [o4, o3, o2, o1]);
  t.same(ids(await s.call('GET', '/orders?limit=2')), [o4, o3]);
  t.same(ids(await s.call('GET', '/orders?limit=2&offset=2')), [o2, o1]);
  t.same(ids(await s.call('GET', '/orders?limit=1&all=true')), [o4, o3, o2, o1]);
  t.same(ids(await s.call('GET', `/orders/user/${s.waiterId}`)), [o4, o3, o1]);
  t.same(ids(await s.call('GET', `/orders/table/${s.r.tables.t1}`)), [o2, o1]);
  t.same(ids(await s.call('GET', '/orders/status/preparing')), [o4]);
  t.same(ids(await s.call('GET', '/orders/status/ready')), []);
  t.same((await s.call('GET', '/orders/status/eaten')).status, 400);
  t.same((await s.call('GET', '/orders/user/nope')).body, 'Missing or malformed ID');
  t.equal((await s.call('GET', '/orders?limit=0')).status, 400);
  t.equal((await s.call('GET', '/orders?offset=-1')).status, 400);
});

t.test('date range: inclusive days in the restaurant time zone; bad dates are 400', async (t) => {
  const s = await service({ COMANDA_TIMEZONE: 'America/Mexico_City' });
  t.teardown(s.close);
  // 23:30 on the 20th in Mexico City is 05:30 UTC on the 21st.
  const late20 = await s.orderAt('2026-11-21T05:30:00Z', {});
  const early21 = await s.orderAt('2026-11-21T06:30:00Z', {});
  const on22 = await s.orderAt('2026-11-22T20:00:00Z', {});
  const ids = (res: { body: Array<{ id: string }> }) => res.body.map((o) => o.id);
  t.same(ids(await s.call('GET', '/orders/date-range?start_date=2026-11-20&end_date=2026-11-20')), [late20]);
  t.same(ids(await s.call('GET', '/orders/date-range?start_date=2026-11-21&end_date=2026-11-22')), [on22, early21]);
  t.same(ids(await s.call('GET', '/orders/date-range?start_date=2026-11-01&end_date=2026-11-30')), [on22, early21, late20]);
  for (const q of ['start_date=2026-11-21', 'start_date=2026-11-22&end_date=2026-11-21', 'start_date=21-11-2026&end_date=2026-11-22', 'start_date=2026-02-30&end_date=2026-03-01']) {
    const res = await s.call('GET', `/orders/date-range?${q}`);
    t.same([res.status, res.body.message], [400, 'Validation failed'], q);
  }
});

t.test('total sales of a day: orders completed that day, across the time-zone boundary', async (t) => {
  const s = await service({ COMANDA_TIMEZONE: 'America/Mexico_City' });
  t.teardown(s.close);
  await s.orderAt('2026-11-21T05:30:00Z', { status: 'completed', price: 100.1 }); // 20th, 23:30 local
  await s.orderAt('2026-11-21T06:30:00Z', { status: 'completed', price: 50.25 }); // 21st, 00:30 local
  await s.orderAt('2026-11-21T18:00:00Z', { status: 'completed', price: 20.2 });
  await s.orderAt('2026-11-21T19:00:00Z', { status: 'cancelled', price: 999 });
  await s.orderAt('2026-11-21T20:00:00Z', { status: 'ready', price: 999 });
  const day20 = await s.call('GET', '/orders/total-sales/2026-11-20');
  t.match(day20.body, { date: '2026-11-20', total_sales: 100.1, orders: 1, currency_id: /^[0-9a-f-]{36}$/ });
  const day21 = await s.call('GET', '/orders/total-sales/2026-11-21');
  t.match(day21.body, { date: '2026-11-21', total_sales: 70.45, orders: 2 });
  t.match((await s.call('GET', '/orders/total-sales/2026-11-22')).body, { total_sales: 0, orders: 0 });
  t.equal((await s.call('GET', '/orders/total-sales/yesterday')).status, 400);
});
