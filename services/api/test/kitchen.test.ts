import t from 'tap';
import { eventually, kitchenService } from './kitchen-harness.js';

const UNKNOWN = '99999999-9999-4999-8999-999999999999';

t.test('stations: roles, validation, unique names, the default, ETag, and a station in use cannot be deleted', async (t) => {
  const s = await kitchenService();
  t.teardown(s.close);
  t.equal((await s.asAdmin('GET', '/stations')).status, 204, 'no stations yet: 204');
  t.equal((await s.anonymous('POST', '/stations', { name: 'Grill' })).status, 401);
  t.equal((await s.asWaiter('POST', '/stations', { name: 'Grill' })).status, 403);
  t.equal((await s.asKitchen('POST', '/stations', { name: 'Grill' })).status, 403);
  t.match(await s.asManager('POST', '/stations', { nom: 'Grill' }), { status: 400, body: { message: 'Validation failed' } });
  t.match(await s.asManager('POST', '/stations', { name: '  ' }), { status: 400 });
  const grill = await s.asManager('POST', '/stations', { name: ' Grill ' });
  t.match(grill, { status: 201, body: { message: 'Station added successfully' } });
  t.match(await s.asManager('POST', '/stations', { name: 'GRILL' }), { status: 409, body: { message: 'A kitchen station named Grill already exists' } });
  const bar = await s.asAdmin('POST', '/stations', { name: 'Bar' });
  const [grillId, barId] = [grill.body.id, bar.body.id];
  t.same((await s.asKitchen('GET', '/stations')).body, [{ id: barId, name: 'Bar', is_default: false }, { id: grillId, name: 'Grill', is_default: true }], 'the first created is the default');
  const one = await s.asWaiter('GET', `/stations/${barId}`);
  t.same([one.status, one.headers.etag], [200, '"1"']);
  t.equal((await s.asAdmin('PUT', `/stations/${barId}`, { name: 'Barra', default: true }, { 'if-match': '"2"' })).status, 412);
  t.equal((await s.asAdmin('PUT', `/stations/${barId}`, { name: 'Barra', default: true }, { 'if-match': '"1"' })).status, 200);
  t.same((await s.asKitchen('GET', '/stations')).body.map((x: { name: string; is_default: boolean }) => [x.name, x.is_default]), [['Barra', true], ['Grill', false]]);
  t.equal((await s.asAdmin('GET', `/stations/${UNKNOWN}`)).body, 'Resource not found');
  t.equal((await s.asAdmin('GET', '/stations/nope')).body, 'Missing or malformed ID');
  t.equal((await s.asAdmin('DELETE', `/stations/${UNKNOWN}`)).status, 404);

  // Categories and dishes route to stations; unknown stations are refused.
  t.match(await s.asAdmin('POST', '/categories', { name: 'Bebidas', station_id: UNKNOWN }), { status: 400, body: { errors: [{ field: 'station_id' }] } });
  const drinks = await s.asAdmin('POST', '/categories', { name: 'Bebidas', station_id: barId });
  t.equal(drinks.status, 201);
  t.match((await s.asAdmin('GET', `/categories/${drinks.body.id}`)).body, { name: 'Bebidas', station_id: barId });
  t.match(await s.asAdmin('POST', '/dishes', { name: 'Mezcal', price: 90, category_id: s.r.category, station_id: UNKNOWN }), { status: 400 });
  const dish = await s.asAdmin('POST', '/dishes', { name: 'Mezcal', price: 90, category_id: s.r.category, station_id: grillId });
  t.equal(dish.status, 201);
  const dishId = String(dish.headers.location).split('/').pop();
  t.match((await s.asAdmin('GET', `/dishes/${dishId}`)).body, { station_id: grillId });
  t.match((await s.asAdmin('GET', `/dishes/${s.r.dishes.pastor}`)).body, { station_id: null });

  t.match(await s.asAdmin('DELETE', `/stations/${barId}`), { status: 409, body: { category_count: 1, dish_count: 0 } });
  t.match(await s.asAdmin('DELETE', `/stations/${grillId}`), { status: 409, body: { category_count: 0, dish_count: 1 } });
  t.equal((await s.asAdmin('PUT', `/categories/${drinks.body.id}`, { name: 'Bebidas', station_id: null })).status, 200);
  t.match((await s.asAdmin('DELETE', `/stations/${barId}`)), { status: 200, body: { message: 'Station deleted successfully' } });
  t.same((await s.asKitchen('GET', '/stations')).body, [{ id: grillId, name: 'Grill', is_default: true }], 'the default removed: the first remaining is the default');
});

async function withOrder() {
  const s = await kitchenService();
  const grill = (await s.asAdmin('POST', '/stations', { name: 'Grill' })).body.id as string;
  const bar = (await s.asAdmin('POST', '/stations', { name: 'Bar' })).body.id as string;
  const drinks = (await s.asAdmin('POST', '/categories', { name: 'Bebidas', station_id: bar })).body.id as string;
  const agua = String((await s.asAdmin('POST', '/dishes', { name: 'Agua de horchata', price: 30, category_id: drinks })).headers.location).split('/').pop()!;
  const orderId = (await s.asWaiter('POST', '/orders', { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'Marisol' })).body.id as string;
  const added = await s.asWaiter('POST', `/orders/${orderId}/dishes`, [{ dish_id: s.r.dishes.pastor, notes: 'sin cebolla' }, { dish_id: agua }, { dish_id: s.r.dishes.suadero }]);
  const [pastorLine, aguaLine, suaderoLine] = added.body.ids as string[];
  return { s, grill, bar, orderId, lines: { pastor: pastorLine!, agua: aguaLine!, suadero: suaderoLine! } };
}

t.test('firing: one ticket per station, each line once, kitchen_status on the order dishes, roles', async (t) => {
  const s = await kitchenService();
  t.teardown(s.close);
  const orderId = (await s.asWaiter('POST', '/orders', { user_id: s.waiterId, table_id: null, waiter: 'M' })).body.id;
  await s.asWaiter('POST', `/orders/${orderId}/dishes`, [{ dish_id: s.r.dishes.pastor }]);
  t.match(await s.asWaiter('POST', `/orders/${orderId}/fire`), { status: 409, body: { message: /no kitchen station/ } }, 'no station exists yet');

  const o = await withOrder();
  t.teardown(o.s.close);
  const { lines } = o;
  t.equal((await o.s.asKitchen('POST', `/orders/${o.orderId}/fire`)).status, 403, 'the kitchen does not fire orders');
  t.equal((await o.s.asWaiter('POST', `/orders/${UNKNOWN}/fire`)).status, 404);
  t.match(await o.s.asWaiter('POST', `/orders/${o.orderId}/fire`, { line_ids: ['x'] }), { status: 400 });
  t.equal((await o.s.asWaiter('POST', `/orders/${o.orderId}/fire`, { line_ids: [UNKNOWN] })).status, 404);
  t.same((await o.s.asWaiter('GET', `/orders/${o.orderId}/dishes`)).body.map((d: { kitchen_status: string }) => d.kitchen_status), ['pending', 'pending', 'pending']);

  const first = await o.s.asWaiter('POST', `/orders/${o.orderId}/fire`, { line_ids: [lines.pastor, lines.agua] });
  t.equal(first.status, 200);
  t.same(first.body.tickets.map((k: { station_id: string; line_ids: string[] }) => [k.station_id, k.line_ids]).sort(), [[o.grill, [lines.pastor]], [o.bar, [lines.agua]]].sort());
  t.same((await o.s.asWaiter('GET', `/orders/${o.orderId}/dishes`)).body.map((d: { kitchen_status: string }) => d.kitchen_status), ['sent', 'sent', 'pending']);
  const rest = await o.s.asWaiter('POST', `/orders/${o.orderId}/fire`);
  t.same(rest.body.tickets.map((k: { line_ids: string[] }) => k.line_ids), [[lines.suadero]], 'no body: every line not fired yet');
  t.same((await o.s.asWaiter('POST', `/orders/${o.orderId}/fire`)).body, { message: 'Nothing left to send to the kitchen', tickets: [] });

  const retried = await Promise.all([1, 2].map(() => o.s.asWaiter('POST', `/orders/${o.orderId}/fire`, undefined, { 'idempotency-key': 'fire-1' })));
  t.same(retried[0]!.body, retried[1]!.body, 'the same Idempotency-Key answers the same');

  t.equal((await o.s.asWaiter('GET', '/kitchen/tickets')).status, 403, 'waiters do not read the kitchen screens');
  t.equal((await o.s.anonymous('GET', '/kitchen/tickets')).status, 401);
  t.equal((await o.s.asKitchen('GET', '/kitchen/tickets?status=later')).status, 400);
  const grill = (await o.s.asKitchen('GET', `/kitchen/tickets?station_id=${o.grill}`)).body;
  t.equal(grill.length, 2, 'two firings, two grill tickets, oldest first');
  t.match(grill[0], {
    order_id: o.orderId, station_id: o.grill, table_name: 'T1', waiter: 'waiter-1', status: 'open', started_at: null,
    lines: [{ line_id: lines.pastor, dish_name: 'Taco al pastor', notes: 'sin cebolla', kitchen_status: 'sent' }],
  });
  t.ok(grill[0].fired_at <= grill[1].fired_at);
  t.equal((await o.s.asManager('GET', `/kitchen/tickets?station_id=${o.bar}`)).body.length, 1);
});

t.test('taps: start, line done, bump (two screens at once), recall; idempotent; 404 and 409; the order follows', async (t) => {
  const o = await withOrder();
  t.teardown(o.s.close);
  const { s, lines } = o;
  const fired = (await s.asWaiter('POST', `/orders/${o.orderId}/fire`)).body.tickets as Array<{ id: string; station_id: string }>;
  const grill = fired.find((k) => k.station_id === o.grill)!.id;
  const bar = fired.find((k) => k.station_id === o.bar)!.id;
  t.equal((await s.asWaiter('POST', `/kitchen/tickets/${grill}/start`)).status, 403);
  t.equal((await s.asKitchen('POST', `/kitchen/tickets/${UNKNOWN}/start`)).body, 'Resource not found');
  t.equal((await s.asKitchen('POST', `/kitchen/tickets/${grill}/lines/${UNKNOWN}/done`)).status, 404);
  t.equal((await s.asKitchen('POST', '/kitchen/tickets/nope/bump')).status, 400);

  const taps = await Promise.all([s.asKitchen('POST', `/kitchen/tickets/${grill}/start`), s.asManager('POST', `/kitchen/tickets/${grill}/start`)]);
  t.same(taps.map((x) => x.status), [200, 200]);
  t.match(taps[0]!.body, { status: 'open', lines: [{ kitchen_status: 'in_progress' }, { kitchen_status: 'in_progress' }] });
  await eventually(async () => (await s.asWaiter('GET', `/orders/${o.orderId}`)).body.status === 'preparing', 'the order to be preparing');

  const done = await s.asKitchen('POST', `/kitchen/tickets/${grill}/lines/${lines.pastor}/done`);
  t.match(done.body.lines.find((l: { line_id: string }) => l.line_id === lines.pastor), { kitchen_status: 'done' });
  t.same((await s.asKitchen('POST', `/kitchen/tickets/${grill}/lines/${lines.pastor}/done`)).body, done.body, 'tapping again changes nothing');

  const bumps = await Promise.all([s.asKitchen('POST', `/kitchen/tickets/${grill}/bump`), s.asAdmin('POST', `/kitchen/tickets/${grill}/bump`)]);
  t.same(bumps.map((x) => x.status), [200, 200], 'two screens bumping one ticket at once');
  const events = await s.store.readStream(`kitchenticket-${grill}`);
  t.equal(events.filter((e) => e.type === 'KitchenTicketBumped').length, 1, 'bumped once');
  t.equal(events.filter((e) => e.type === 'KitchenTicketStarted').length, 1, 'started once');
  t.equal((await s.asKitchen('GET', `/kitchen/tickets?station_id=${o.grill}`)).body.length, 0, 'a bumped ticket leaves the open list');
  t.match((await s.asKitchen('GET', `/kitchen/tickets?station_id=${o.grill}&status=done`)).body, [{ id: grill, status: 'done' }]);
  t.match(await s.asKitchen('POST', `/kitchen/tickets/${grill}/start`), { status: 200, body: { status: 'done' } }, 'a late start tap after the bump changes nothing');
  t.equal((await s.asWaiter('GET', `/orders/${o.orderId}`)).body.status, 'preparing', 'the bar has not finished');

  const recalled = await s.asKitchen('POST', `/kitchen/tickets/${grill}/recall`);
  t.match(recalled.body, { status: 'open', bumped_at: null });
  t.equal((await s.asKitchen('POST', `/kitchen/tickets/${grill}/recall`)).status, 200, 'recalling again changes nothing');
  t.equal((await s.asKitchen('POST', `/kitchen/tickets/${grill}/bump`)).status, 200);

  await s.asKitchen('POST', `/kitchen/tickets/${bar}/bump`);
  await eventually(async () => (await s.asWaiter('GET', `/orders/${o.orderId}`)).body.status === 'ready', 'the order to be ready');
  t.same((await s.asWaiter('GET', `/orders/${o.orderId}/dishes`)).body.map((d: { kitchen_status: string }) => d.kitchen_status), ['done', 'done', 'done']);

  // The order is served and completed: its bumped tickets cannot come back onto the board.
  t.equal((await s.asWaiter('PUT', `/orders/${o.orderId}`, { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'Marisol', status: 'completed' })).status, 200);
  t.match(await s.asKitchen('POST', `/kitchen/tickets/${grill}/recall`), { status: 409, body: { message: /order is finished/ } }, 'no recall once the order is finished');
  t.match((await s.asKitchen('GET', `/kitchen/tickets?station_id=${o.grill}&status=done`)).body, [{ id: grill, status: 'done' }], 'still in the bumped list');
});

t.test('changes after firing reach open tickets: notes, a removed line struck through, a table move', async (t) => {
  const o = await withOrder();
  t.teardown(o.s.close);
  const { s, lines } = o;
  await s.asWaiter('POST', `/orders/${o.orderId}/fire`);
  const grillTicket = async () => (await s.asKitchen('GET', `/kitchen/tickets?station_id=${o.grill}`)).body[0];
  t.equal((await s.asWaiter('PUT', `/orders/${o.orderId}/dishes/${lines.pastor}`, { notes: 'con piña' })).status, 200);
  t.equal((await s.asManager('DELETE', `/orders/${o.orderId}/dishes/${lines.suadero}`)).status, 200, 'a fired line: a manager voids it');
  t.equal((await s.asWaiter('PUT', `/orders/${o.orderId}`, { user_id: s.waiterId, table_id: s.r.tables.t2, waiter: 'Marisol', status: 'pending' })).status, 200);
  await eventually(async () => {
    const k = await grillTicket();
    return k.table_name === 'T2' && k.lines[1].kitchen_status === 'cancelled' && k.lines[0].notes === 'con piña';
  }, 'the changes on the grill ticket');
  t.match(await grillTicket(), { table_id: s.r.tables.t2, lines: [{ line_id: lines.pastor, notes: 'con piña', kitchen_status: 'sent' }, { line_id: lines.suadero, kitchen_status: 'cancelled' }] });
  t.equal((await s.asKitchen('POST', `/kitchen/tickets/${(await grillTicket()).id}/lines/${lines.suadero}/done`)).status, 409, 'a cancelled line cannot be done');

  t.equal((await s.asWaiter('PUT', `/orders/${o.orderId}`, { user_id: s.waiterId, table_id: s.r.tables.t2, waiter: 'Marisol', status: 'cancelled' })).status, 200);
  await eventually(async () => (await s.asKitchen('GET', `/kitchen/tickets?station_id=${o.bar}`)).body.length === 0, 'a cancelled order off the board');
  t.match((await s.asKitchen('GET', `/kitchen/tickets?station_id=${o.bar}&status=closed`)).body, [{ status: 'closed', closed_reason: 'order_cancelled', lines: [{ kitchen_status: 'cancelled' }] }], 'closed, saying why, its lines struck through');
});
