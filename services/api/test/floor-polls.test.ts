import t from 'tap';
import { servedApp } from './harness.js';
import { setUpRestaurant } from './restaurant.js';

// What a tablet polls every 2 s answers 304 while nothing it shows has changed, however busy the rest
// of the restaurant (issue 58's traffic: with 40 tablets the three open states' lists, and an order's
// bills tagged by every bill, were most of the full answers).

async function service(t: Tap.Test) {
  const s = await servedApp();
  t.teardown(s.close);
  const [admin, waiter] = [await s.as('admin'), await s.as('waiter')];
  const r = await setUpRestaurant(s.app, admin);
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await s.request(path, waiter, headers, method, body);
    const text = await res.text();
    return { status: res.status, etag: res.headers.get('etag'), body: text ? JSON.parse(text) : undefined };
  };
  const me = (await call('GET', '/auth/me')).body.id as string;
  const order = async (table: 't1' | 't2' | null) => {
    const placed = await call('POST', '/orders/with-dishes', { order: { user_id: me, table_id: table && r.tables[table], waiter: 'Marisol' }, dishes: [{ dish_id: r.dishes.pastor }] });
    t.equal(placed.status, 201);
    return placed.body.id as string;
  };
  return { call, order };
}

t.test('GET /orders/open: every open order in one list, tagged by them alone', async (t) => {
  const { call, order } = await service(t);
  const first = await order('t1');
  const second = await order(null);
  const open = await call('GET', '/orders/open?all=true');
  t.equal(open.status, 200);
  t.same(open.body.map((o: { id: string }) => o.id).sort(), [first, second].sort(), 'both open orders');
  t.equal((await call('GET', '/orders/open?all=true', undefined, { 'if-none-match': open.etag! })).status, 304, 'unchanged: 304');

  t.equal((await call('PUT', `/orders/${second}`, { user_id: open.body[0].user_id, table_id: null, waiter: 'Marisol', status: 'preparing' })).status, 200);
  const moved = await call('GET', '/orders/open?all=true', undefined, { 'if-none-match': open.etag! });
  t.equal(moved.status, 200, 'an open order changed: the whole list again');
  t.same(moved.body.find((o: { id: string }) => o.id === second).status, 'preparing');

  t.equal((await call('PUT', `/orders/${second}`, { user_id: open.body[0].user_id, table_id: null, waiter: 'Marisol', status: 'cancelled' })).status, 200);
  const left = await call('GET', '/orders/open?all=true', undefined, { 'if-none-match': moved.etag! });
  t.same([left.status, left.body.map((o: { id: string }) => o.id)], [200, [first]], 'a cancelled order leaves the list');
  t.equal((await call('PUT', `/orders/${second}`, { user_id: open.body[0].user_id, table_id: null, waiter: 'Marisol', status: 'cancelled' })).status, 200);
  t.equal((await call('GET', '/orders/open?all=true', undefined, { 'if-none-match': left.etag! })).status, 304, 'a write to an order no longer open leaves the list alone');
  t.equal((await call('GET', '/orders/open?limit=x')).status, 400, 'its paging is checked as every list');
});

t.test("GET /orders/{id}/tickets moves with that order's bills only, not with every bill", async (t) => {
  const { call, order } = await service(t);
  const mine = await order('t1');
  const other = await order('t2');
  t.equal((await call('POST', `/orders/${mine}/tickets`, { split: 'none' })).status, 201);
  const bills = await call('GET', `/orders/${mine}/tickets?all=true`);
  t.equal(bills.status, 200);
  const issued = await call('POST', `/orders/${other}/tickets`, { split: 'none' });
  t.equal(issued.status, 201);
  t.equal((await call('GET', `/orders/${mine}/tickets?all=true`, undefined, { 'if-none-match': bills.etag! })).status, 304, "another table's bill leaves this order's alone");
  const bill = issued.body.tickets[0] as { id: string; total: number };
  t.equal((await call('POST', `/tickets/${bill.id}/payments`, { method: 'credit_card', amount: bill.total })).status, 201);
  t.equal((await call('GET', `/orders/${mine}/tickets?all=true`, undefined, { 'if-none-match': bills.etag! })).status, 304, "a payment on another table's bill too");
  const own = (bills.body as Array<{ id: string; total: number }>)[0]!;
  t.equal((await call('POST', `/tickets/${own.id}/payments`, { method: 'credit_card', amount: own.total })).status, 201);
  const paid = await call('GET', `/orders/${mine}/tickets?all=true`, undefined, { 'if-none-match': bills.etag! });
  t.equal(paid.status, 200, 'its own bill paid: the bills again');
  t.equal(paid.body[0].status, 2);
});

t.test('an order with no bill yet: 204 with its ETag, then 304 while it stays without one', async (t) => {
  const { call, order } = await service(t);
  const id = await order('t1');
  const none = await call('GET', `/orders/${id}/tickets?all=true`);
  t.equal(none.status, 204);
  t.ok(none.etag, 'the empty answer carries its ETag, so the next poll can be a 304');
  t.equal((await call('GET', `/orders/${id}/tickets?all=true`, undefined, { 'if-none-match': none.etag! })).status, 304, 'still none: 304');
  t.equal((await call('POST', `/orders/${id}/tickets`, { split: 'none' })).status, 201);
  t.equal((await call('GET', `/orders/${id}/tickets?all=true`, undefined, { 'if-none-match': none.etag! })).status, 200, 'a bill: the list');
});
