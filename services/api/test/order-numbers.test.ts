import t from 'tap';
import { testApp } from './harness.js';
import { setUpRestaurant } from './restaurant.js';

/** Orders placed at given moments in Mexico City: numbers count from 1 each business day there. */
async function service() {
  const h = await testApp({ COMANDA_TIMEZONE: 'America/Mexico_City' });
  const admin = await h.as('admin');
  const r = await setUpRestaurant(h.app, admin);
  const adminId = (await h.app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: admin } })).json().id as string;
  let cookie = admin;
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const res = await h.app.inject({ method, url, headers: { cookie, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.headers['content-type']?.toString().startsWith('application/json') ? res.json() : res.body };
  };
  const placeAt = async (iso: string, headers: Record<string, string> = {}) => {
    h.clock.now = Date.parse(iso);
    cookie = await h.login('admin', '1234');
    const res = await call('POST', '/orders/with-dishes', { order: { user_id: adminId, table_id: null, waiter: 'M' }, dishes: [{ dish_id: r.dishes.pastor }] }, headers);
    return res.body.id as string;
  };
  const numberOf = async (id: string) => (await call('GET', `/orders/${id}`)).body.number as number;
  return { ...h, r, call, placeAt, numberOf };
}

t.test('every order gets the next number of its business day in COMANDA_TIMEZONE', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const a = await s.placeAt('2026-11-25T18:00:00Z');
  const b = await s.placeAt('2026-11-25T20:00:00Z');
  const c = await s.placeAt('2026-11-26T05:59:00Z'); // 23:59 on the 25th in Mexico City
  const d = await s.placeAt('2026-11-26T06:01:00Z'); // 00:01 on the 26th: a new day
  const e = await s.placeAt('2026-11-26T07:00:00Z');
  t.same([await s.numberOf(a), await s.numberOf(b), await s.numberOf(c), await s.numberOf(d), await s.numberOf(e)], [1, 2, 3, 1, 2]);
  const retried = { 'idempotency-key': 'order-numbers-retry' };
  const f = await s.placeAt('2026-11-26T08:00:00Z', retried);
  const again = await s.placeAt('2026-11-26T08:00:01Z', retried);
  t.equal(again, f, 'a retried request is the same order');
  t.equal(await s.numberOf(f), 3, 'and keeps its number: none is used twice or skipped');
  t.equal(await s.numberOf(await s.placeAt('2026-11-26T09:00:00Z')), 4);
});

t.test('numbers are unique within the day when waiters place orders at once', async (t) => {
  const s = await service();
  t.teardown(s.close);
  await s.placeAt('2026-11-25T18:00:00Z');
  const body = { order: { user_id: (await s.call('GET', '/auth/me')).body.id, table_id: null, waiter: 'M' }, dishes: [] };
  const placed = await Promise.all(Array.from({ length: 12 }, () => s.call('POST', '/orders/with-dishes', body)));
  t.ok(placed.every((p) => p.status === 201));
  const numbers = await Promise.all(placed.map((p) => s.numberOf(p.body.id)));
  t.same([...numbers].sort((x, y) => x - y), Array.from({ length: 12 }, (_, i) => i + 2), 'twelve at once: 2 to 13, each once');
});

t.test('kitchen tickets and receipts show the number', async (t) => {
  const s = await service();
  t.teardown(s.close);
  await s.placeAt('2026-11-25T18:00:00Z');
  const id = await s.placeAt('2026-11-25T18:05:00Z');
  await s.call('POST', '/stations', { name: 'Grill' });
  await s.call('POST', `/orders/${id}/fire`);
  const [ticket] = (await s.call('GET', '/kitchen/tickets')).body;
  t.equal(ticket.order_number, 2);
  const bill = (await s.call('POST', `/orders/${id}/tickets`, { split: 'none' })).body.ids[0];
  t.equal((await s.call('GET', `/tickets/${bill}`)).body.order_number, 2);
  t.match((await s.call('GET', `/tickets/${bill}/receipt`)).body, /Order #2 {2}Ticket/);
});
