import t from 'tap';
import { servedApp } from './harness.js';
import { setUpRestaurant } from './restaurant.js';

// Covers (issue 59), over HTTP: the guest count given when a table is seated, shown with the order,
// corrected while it is open, and counted in the shift's figures and the sales report.

async function service(t: Tap.Test) {
  const s = await servedApp();
  t.teardown(s.close);
  const [admin, waiter, manager] = [await s.as('admin'), await s.as('waiter'), await s.as('manager')];
  const r = await setUpRestaurant(s.app, admin);
  const call = (cookie: string) => async (method: string, path: string, body?: unknown) => {
    const res = await s.request(path, cookie, {}, method, body);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const asWaiter = call(waiter);
  const waiterId = (await asWaiter('GET', '/auth/me')).body.id as string;
  return { r, asWaiter, asManager: call(manager), asAdmin: call(admin), waiterId };
}

t.test('a table seated with its guest count: the order and the floor\'s open orders carry it; corrected while open', async (t) => {
  const { r, asWaiter, waiterId } = await service(t);
  const order = { user_id: waiterId, table_id: r.tables.t1, waiter: 'Marisol' };
  const placed = await asWaiter('POST', '/orders', { ...order, guests: 4 });
  t.equal(placed.status, 201);
  t.match((await asWaiter('GET', `/orders/${placed.body.id}`)).body, { guests: 4 });
  t.match((await asWaiter('GET', '/orders/status/pending')).body, [{ id: placed.body.id, guests: 4 }], 'the floor reads it from the open orders');
  t.equal((await asWaiter('PUT', `/orders/${placed.body.id}`, { ...order, guests: 5 })).status, 200, 'a late arrival');
  t.match((await asWaiter('GET', `/orders/${placed.body.id}`)).body, { guests: 5 });
  t.equal((await asWaiter('PUT', `/orders/${placed.body.id}`, order)).status, 200, 'a PUT without guests keeps them');
  t.match((await asWaiter('GET', `/orders/${placed.body.id}`)).body, { guests: 5 });
  const takeAway = await asWaiter('POST', '/orders/with-dishes', { order: { ...order, table_id: null }, dishes: [{ dish_id: r.dishes.agua }] });
  t.match((await asWaiter('GET', `/orders/${takeAway.body.id}`)).body, { guests: null }, 'not said: null');
});

t.test('a guest count is a whole number from 1 to 99: anything else is 400 and nothing is seated', async (t) => {
  const { r, asWaiter, waiterId } = await service(t);
  for (const guests of [0, 100, 2.5, '4']) {
    const res = await asWaiter('POST', '/orders', { user_id: waiterId, table_id: r.tables.t2, waiter: 'Marisol', guests });
    t.equal(res.status, 400, `guests ${JSON.stringify(guests)}`);
    t.match(res.body, { message: 'Validation failed', errors: [{ field: 'guests' }] });
  }
  t.match((await asWaiter('GET', `/tables/${r.tables.t2}`)).body, { status: 'available' }, 'the table stays free');
});

t.test('covers counted: the shift\'s figures and the sales report count the guests of completed orders', async (t) => {
  const { r, asWaiter, asManager, waiterId } = await service(t);
  t.equal((await asManager('POST', '/shifts/open', { cash_float: 0 })).status, 201);
  const seat = async (table: 't1' | 't2' | 't3', guests?: number) => {
    const placed = await asWaiter('POST', '/orders/with-dishes', { order: { user_id: waiterId, table_id: r.tables[table], waiter: 'Marisol', ...(guests ? { guests } : {}) }, dishes: [{ dish_id: r.dishes.agua }] });
    const id = placed.body.id as string;
    const bill = (await asWaiter('POST', `/orders/${id}/tickets`, { split: 'none' })).body.tickets[0] as { id: string; total: number };
    t.equal((await asWaiter('POST', `/tickets/${bill.id}/payments`, { method: 'credit_card', amount: bill.total })).status, 201);
    return id;
  };
  t.equal((await asWaiter('POST', `/orders/${await seat('t1', 4)}/close`)).status, 200);
  t.equal((await asWaiter('POST', `/orders/${await seat('t2', 2)}/close`)).status, 200);
  t.equal((await asWaiter('POST', `/orders/${await seat('t3')}/close`)).status, 200, 'a party whose count was not said counts no covers');
  await seat('t1', 6); // still open: not yet a sale, no covers
  t.match((await asManager('GET', '/shifts/current')).body, { report: { covers: 6 } }, 'the X report: 4 + 2 guests of completed orders');
  let sales = await asManager('GET', '/reports/sales');
  for (const until = Date.now() + 5000; Date.now() < until && sales.body?.sections?.totals?.[0]?.orders !== 3;) sales = await asManager('GET', '/reports/sales');
  t.match(sales.body.sections.totals, [{ orders: 3, covers: 6, average_per_cover: 15 }], 'three sales of 30.00; 90.00 over 6 covers');
  t.match(sales.body.sections.by_day, [{ covers: 6 }]);
  const z = await asManager('POST', '/shifts/close', { counted_cash: 0 });
  t.match(z.body.report, { covers: 6 }, 'the Z report');
});
