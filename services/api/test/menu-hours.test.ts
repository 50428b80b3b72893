import t from 'tap';
import { servedApp } from './harness.js';
import { setUpRestaurant } from './restaurant.js';

// A dish's and a category's hours, and price levels (issue 60), over HTTP, with the restaurant's clock set.

/** A wall-clock time in Mexico City (UTC−6): 2026-11-23 is a Monday. */
const at = (day: string, hhmm: string) => Date.parse(`${day}T${hhmm}:00-06:00`);
const LUNCH = [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '12:00', to: '16:00' }];
const HAPPY = { name: 'Happy hour', windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '17:00', to: '19:00' }] };

async function service(t: Tap.Test) {
  const s = await servedApp({ COMANDA_TIMEZONE: 'America/Mexico_City' });
  t.teardown(s.close);
  s.clock.now = at('2026-11-23', '10:00');
  const cookies = { manager: await s.as('manager'), waiter: await s.as('waiter') };
  const r = await setUpRestaurant(s.app, await s.as('admin'));
  // The clock moved by hours: access tokens last a minute, so everyone signs in again.
  const setClock = async (day: string, hhmm: string) => {
    s.clock.now = at(day, hhmm);
    Object.assign(cookies, { manager: await s.login('manager-1', '4321'), waiter: await s.login('waiter-1', '4321') });
  };
  const call = (who: 'manager' | 'waiter') => async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await s.request(path, cookies[who], headers, method, body);
    const text = await res.text();
    const json = res.headers.get('content-type')?.startsWith('application/json');
    return { status: res.status, body: text && json ? JSON.parse(text) : text || undefined, etag: res.headers.get('etag') };
  };
  const asWaiter = call('waiter');
  const asManager = call('manager');
  const waiterId = (await asWaiter('GET', '/auth/me')).body.id as string;
  const order = (dishes: Array<{ dish_id: string; quantity?: number; price_at_order?: number }>, table: string | null = null) =>
    asWaiter('POST', '/orders/with-dishes', { order: { user_id: waiterId, table_id: table, waiter: 'Marisol' }, dishes });
  const dish = async (id: string) => (await asWaiter('GET', `/dishes/${id}`)).body as Record<string, unknown>;
  return { r, setClock, asWaiter, asManager, order, dish };
}

t.test('a dish outside its hours: 409 naming when it is served, nothing written; GET /dishes greys it with when it comes back', async (t) => {
  const { r, setClock, asWaiter, asManager, order, dish } = await service(t);
  const plain = await dish(r.dishes.pastor);
  t.notOk('available' in plain || 'hours' in plain || 'price_now' in plain, 'no hours, no level: the answer is as it always was');
  const before = await asWaiter('GET', '/dishes?all=true');

  t.equal((await asWaiter('PUT', `/dishes/${r.dishes.pastor}/availability`, { windows: LUNCH })).status, 403, 'a waiter does not set hours');
  const set = await asManager('PUT', `/dishes/${r.dishes.pastor}/availability`, { windows: LUNCH }, { 'idempotency-key': 'lunch-1' });
  t.same([set.status, set.body], [200, { message: 'Hours set', id: r.dishes.pastor, windows: LUNCH, hours: 'Mon–Fri 12:00–16:00' }]);
  t.match(await dish(r.dishes.pastor), { available: false, available_from: '12:00', hours: 'Mon–Fri 12:00–16:00' });
  // Two managers on the hours sheet: the one who read them before the other saved gets 412, nothing overwritten.
  t.equal(set.etag, '"1"', "the answer carries the hours' own version");
  const read = await asManager('GET', `/dishes/${r.dishes.pastor}/availability`);
  t.same([read.status, read.etag, read.body], [200, '"1"', { id: r.dishes.pastor, windows: LUNCH, hours: 'Mon–Fri 12:00–16:00' }]);
  t.equal((await asWaiter('GET', `/categories/${r.category}/availability`)).etag, '"0"', 'never set: "0"');
  const stale = await asManager('PUT', `/dishes/${r.dishes.pastor}/availability`, { windows: [] }, { 'if-match': '"0"' });
  t.same([stale.status, stale.body.message], [412, 'The resource was changed by someone else (stale If-Match)']);
  t.match(await dish(r.dishes.pastor), { hours: 'Mon–Fri 12:00–16:00' }, 'the hours another manager set stay');
  const again = await asManager('PUT', `/dishes/${r.dishes.pastor}/availability`, { windows: LUNCH }, { 'if-match': read.etag! });
  t.same([again.status, again.etag], [200, '"1"'], 'the same hours with a current If-Match: nothing written, version kept');
  t.equal((await asManager('GET', '/dishes/00000000-0000-4000-8000-000000000000/availability')).status, 404);
  const after = await asWaiter('GET', '/dishes?all=true', undefined, { 'if-none-match': before.etag! });
  t.equal(after.status, 200, "the tablet's poll hears of it: the list's ETag moved");

  const refused = await order([{ dish_id: r.dishes.agua }, { dish_id: r.dishes.pastor }], r.tables.t1);
  t.same([refused.status, refused.body.message], [409, 'Taco al pastor is not served now (served Mon–Fri 12:00–16:00)']);
  t.equal((await asWaiter('GET', `/tables/${r.tables.t1}`)).body.status, 'available', 'nothing half-written: the table stays free');
  t.equal((await asWaiter('GET', '/orders')).status, 204, 'and no order was written');
  const placed = await order([{ dish_id: r.dishes.agua }], r.tables.t1);
  t.equal(placed.status, 201);
  const added = await asWaiter('POST', `/orders/${placed.body.id}/dishes`, [{ dish_id: r.dishes.pastor }]);
  t.same([added.status, added.body.message], [409, 'Taco al pastor is not served now (served Mon–Fri 12:00–16:00)'], 'adding it to an order');

  // Lunch starts: the same poll hears it with no write at all.
  const polled = await asWaiter('GET', '/dishes?all=true');
  await setClock('2026-11-23', '12:00');
  const atNoon = await asWaiter('GET', '/dishes?all=true', undefined, { 'if-none-match': polled.etag! });
  t.equal(atNoon.status, 200);
  const served = atNoon.body.find((d: { id: string }) => d.id === r.dishes.pastor);
  t.match(served, { hours: 'Mon–Fri 12:00–16:00' });
  t.notOk('available' in served || 'available_from' in served, 'served: no available: false');
  t.equal((await asWaiter('GET', '/dishes?all=true', undefined, { 'if-none-match': atNoon.etag! })).status, 304, 'and a 304 while nothing moves');
  t.equal((await asWaiter('POST', `/orders/${placed.body.id}/dishes`, [{ dish_id: r.dishes.pastor }])).status, 201);

  // Lunch is over: one more taco on the line already ordered is a new portion, refused like a new line.
  const pastorLine = (await asWaiter('GET', `/orders/${placed.body.id}/dishes`)).body.find((l: { dish_id: string }) => l.dish_id === r.dishes.pastor);
  await setClock('2026-11-23', '16:30');
  const more = await asWaiter('PUT', `/orders/${placed.body.id}/dishes/${pastorLine.id}`, { quantity: 3 });
  t.same([more.status, more.body.message], [409, 'Taco al pastor is not served now (served Mon–Fri 12:00–16:00)'], 'raising its quantity');
  const kept = (await asWaiter('GET', `/orders/${placed.body.id}/dishes`)).body.find((l: { id: string }) => l.id === pastorLine.id);
  t.equal(kept.quantity, 1, 'nothing written');
  t.equal((await asWaiter('PUT', `/orders/${placed.body.id}/dishes/${pastorLine.id}`, { notes: 'sin cebolla' })).status, 200, 'its notes still change');
  await setClock('2026-11-23', '12:00');

  // A category's hours narrow its dishes' own: Saturday the lunch category is closed whatever the dish says.
  t.equal((await asManager('PUT', `/categories/${r.category}/availability`, { windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '23:00' }] })).status, 200);
  await setClock('2026-11-28', '13:00');
  t.match(await dish(r.dishes.agua), { available: false, available_from: 'Mon 08:00' });
  t.match(await dish(r.dishes.pastor), { available: false, available_from: 'Mon 12:00', hours: 'Mon–Fri 08:00–23:00; Mon–Fri 12:00–16:00' });
  t.same((await asManager('GET', '/menu-hours')).body, {
    categories: [{ id: r.category, windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '23:00' }], hours: 'Mon–Fri 08:00–23:00' }],
    dishes: [{ id: r.dishes.pastor, windows: LUNCH, hours: 'Mon–Fri 12:00–16:00' }],
  }, 'what has hours, for the menu editor');
  t.equal((await asManager('PUT', `/categories/${r.category}/availability`, { windows: [] })).status, 200, '[] serves it always again');
  t.notOk('available' in (await dish(r.dishes.agua)));

  const bad = await asManager('PUT', `/dishes/${r.dishes.pastor}/availability`, { windows: [{ days: ['mon'], from: '7:00', to: '11:00' }] });
  t.equal(bad.status, 400);
  t.match(bad.body.errors, [{ field: /windows/ }]);
  t.equal((await asManager('PUT', `/dishes/${r.dishes.pastor}/availability`, { windows: [{ days: ['mon'], from: '07:00', to: '07:00' }] })).status, 400);
  t.equal((await asManager('PUT', '/dishes/00000000-0000-4000-8000-000000000000/availability', { windows: [] })).status, 404);
});

t.test("happy hour: in its hours a line takes the level's price and names it; the bill's taxes and totals stay exact", async (t) => {
  const { r, setClock, asWaiter, asManager, order, dish } = await service(t);
  const iva = (await asManager('POST', '/tax-rates', { name: 'IVA', rate: 16 })).body.id as string;
  t.equal((await asManager('PUT', `/categories/${r.category}`, { name: 'Tacos', tax_rate_id: iva })).status, 200);
  t.equal((await asWaiter('POST', '/price-levels', { ...HAPPY, prices: [] })).status, 403, 'a waiter does not set prices');
  const created = await asManager('POST', '/price-levels', { ...HAPPY, prices: [{ dish_id: r.dishes.pastor, price: 19.99 }] }, { 'idempotency-key': 'happy-1' });
  t.equal(created.status, 201);
  const id = created.body.id as string;
  t.same(created.body, { id, ...HAPPY, prices: [{ dish_id: r.dishes.pastor, price: 19.99 }], hours: 'Mon–Fri 17:00–19:00', version: 1 });
  t.same((await asManager('POST', '/price-levels', { ...HAPPY, prices: [{ dish_id: r.dishes.pastor, price: 19.99 }] }, { 'idempotency-key': 'happy-1' })).body, created.body, 'a retry answers the same');
  t.equal((await asManager('POST', '/price-levels', { ...HAPPY, name: 'happy HOUR', prices: [] })).status, 409, 'names unique ignoring case');
  t.match((await asManager('POST', '/price-levels', { name: 'Late', windows: HAPPY.windows, prices: [{ dish_id: r.dishes.pastor, price: 0 }] })).status, 400);
  t.same((await asWaiter('GET', '/price-levels')).body, [created.body]);

  t.notOk('price_now' in (await dish(r.dishes.pastor)), 'before its hours: the menu price');
  await setClock('2026-11-23', '17:30');
  t.match(await dish(r.dishes.pastor), { price: 25.5, price_now: 19.99, price_level: 'Happy hour' });
  t.notOk('price_now' in (await dish(r.dishes.agua)), 'a dish it does not name keeps its price');

  // A tablet that read the regular price before 17:00 sends it: the guest still gets the happy-hour price.
  const placed = await order([{ dish_id: r.dishes.pastor, quantity: 3 }, { dish_id: r.dishes.agua }, { dish_id: r.dishes.pastor, price_at_order: 25.5 }], r.tables.t1);
  t.equal(placed.status, 201);
  const lines = (await asWaiter('GET', `/orders/${placed.body.id}/dishes`)).body as Array<Record<string, unknown>>;
  t.match(lines, [
    { dish_id: r.dishes.pastor, price_at_order: 19.99, quantity: 3, line_total: 59.97, price_level: 'Happy hour' },
    { dish_id: r.dishes.agua, price_at_order: 30, line_total: 30 },
    { dish_id: r.dishes.pastor, price_at_order: 19.99, price_level: 'Happy hour' },
  ]);
  t.notOk('price_level' in lines[1]!);
  const bill = (await asWaiter('POST', `/orders/${placed.body.id}/tickets`, { split: 'none' })).body.ids[0];
  const ticket = (await asWaiter('GET', `/tickets/${bill}`)).body;
  // 59.97 + 30 + 19.99 = 109.96, IVA included: 109.96 × 16 / 116 = 15.166… → 15.17.
  t.match(ticket, { subtotal: 109.96, total: 109.96, due: 109.96 });
  t.same(ticket.taxes, [{ tax_rate_id: iva, name: 'IVA', rate: 16, base: 94.79, amount: 15.17 }]);
  t.equal((await asWaiter('GET', `/orders/${placed.body.id}`)).body.total, 109.96);
  const receipt = (await asWaiter('GET', `/tickets/${bill}/receipt`)).body as string;
  t.match(receipt, /3 x Taco al pastor\s+59\.97\n  Happy hour price\n/, 'the receipt says which price it is');
  t.match(receipt, /Agua de jamaica\s+30\.00\n(?!  Happy)/);
  // Paid and served: the product mix tells what happy hour sold and what it cost against the regular price.
  t.equal((await asManager('POST', '/shifts/open', { cash_float: 100 })).status, 201);
  t.equal((await asWaiter('POST', `/tickets/${bill}/payments`, { method: 'cash', amount: 109.96 })).status, 201);
  const o = (await asWaiter('GET', `/orders/${placed.body.id}`)).body;
  for (const status of ['preparing', 'ready', 'completed']) {
    t.equal((await asWaiter('PUT', `/orders/${placed.body.id}`, { user_id: o.user_id, table_id: o.table_id, waiter: o.waiter, status })).status, 200, status);
  }
  const mix = await asManager('GET', '/reports/product-mix?from=2026-11-23&to=2026-11-23');
  // 4 × 19.99 = 79.96 against 4 × 25.50 = 102.00.
  t.same(mix.body.sections.by_price_level, [{ price_level: 'Happy hour', quantity: 4, revenue: 79.96, at_regular_prices: 102, below_regular: 22.04 }]);

  // After its hours the regular price again; a level removed prices nothing.
  await setClock('2026-11-23', '19:00');
  t.notOk('price_now' in (await dish(r.dishes.pastor)));
  const changed = await asManager('PUT', `/price-levels/${id}`, { ...HAPPY, windows: [{ days: ['mon'], from: '18:00', to: '20:00' }], prices: [{ dish_id: r.dishes.pastor, price: 20 }] }, { 'if-match': '"1"' });
  t.match(changed, { status: 200, body: { version: 2, hours: 'Mon 18:00–20:00' } });
  t.equal((await asManager('PUT', `/price-levels/${id}`, { ...HAPPY, prices: [] }, { 'if-match': '"1"' })).status, 412);
  t.match(await dish(r.dishes.pastor), { price_now: 20, price_level: 'Happy hour' });
  t.equal((await asManager('DELETE', `/price-levels/${id}`)).status, 204);
  t.notOk('price_now' in (await dish(r.dishes.pastor)));
  t.equal((await asManager('GET', `/price-levels/${id}`)).status, 404);

  // A level's prices are price changes: the audit trail names who set them, the hours and each price.
  const audit = (await asManager('GET', '/audit?kind=price_level')).body.entries as Array<Record<string, unknown>>;
  t.match(audit, [
    { kind: 'price_level', staff: 'manager-1', detail: 'Happy hour (Mon–Fri 17:00–19:00): Taco al pastor 19.99' },
    { kind: 'price_level', staff: 'manager-1', detail: 'Happy hour (Mon 18:00–20:00): Taco al pastor 20.00' },
    { kind: 'price_level', staff: 'manager-1', detail: 'Happy hour removed' },
  ]);
  t.equal(audit.length, 3);
});
