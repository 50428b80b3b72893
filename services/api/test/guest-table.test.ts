import t from 'tap';
import { OPEN_REQUESTS_PER_TABLE } from '../src/features/guest/table-requests.js';
import { servedApp } from './harness.js';
import { setUpRestaurant } from './restaurant.js';

// Ordering from the table (issue 63), over HTTP: the table's QR opens the menu served now; a guest asks
// for dishes; nothing is ordered until the table's waiter accepts (the lines go on the table's order,
// unfired, the waiter's) or declines with a reason the guest reads.

async function service(t: Tap.Test) {
  const s = await servedApp();
  t.teardown(s.close);
  const [admin, waiter] = [await s.as('admin'), await s.as('waiter')];
  const r = await setUpRestaurant(s.app, admin);
  const call = (cookie: string | null) => async (method: string, path: string, body?: unknown) => {
    const res = await s.request(path, cookie, {}, method, body);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const [asAdmin, asWaiter, guest] = [call(admin), call(waiter), call(null)];
  const link = async (table: string) => (await asWaiter('GET', `/tables/${table}/guest-link`)).body as { token: string; path: string };
  return { r, asAdmin, asWaiter, guest, link };
}

t.test('a guest reads the menu served now and asks; the waiter accepts onto a new order, then onto the open one; declines with a reason', async (t) => {
  const { r, asAdmin, asWaiter, guest, link } = await service(t);
  const { token, path } = await link(r.tables.t1);
  t.equal(path, `/t/${token}`);
  t.equal((await link(r.tables.t1)).token, token, 'the same table, the same link');
  const menu = await guest('GET', `/guest/table/${token}`);
  t.match(menu, { status: 200, body: { table: 'T1', currency: String } });
  t.same(menu.body.categories.flatMap((c: { dishes: Array<{ name: string }> }) => c.dishes.map((d) => d.name)).sort(), ['Agua de jamaica', 'Taco de suadero', 'Taco al pastor'].sort());
  t.equal((await asAdmin('PUT', `/dishes/${r.dishes.suadero}/stock`, { sold_out: true })).status, 200, 'the suadero 86\'d');
  const after86 = await guest('GET', `/guest/table/${token}`);
  t.notOk(JSON.stringify(after86.body).includes('suadero'), 'a sold-out dish is not on the guest\'s menu');
  t.match(await guest('POST', `/guest/table/${token}/requests`, { lines: [{ dish_id: r.dishes.suadero, quantity: 1 }] }), { status: 409, body: { message: /not served now/ } });

  const asked = await guest('POST', `/guest/table/${token}/requests`, { lines: [{ dish_id: r.dishes.pastor, quantity: 2, notes: ' sin cebolla ' }, { dish_id: r.dishes.agua, quantity: 1 }] });
  t.match(asked, { status: 201, body: { status: 'open', lines: [{ name: 'Taco al pastor', quantity: 2, notes: 'sin cebolla' }, { name: 'Agua de jamaica', quantity: 1 }] } });
  t.equal(((await asAdmin('GET', `/tables/${r.tables.t1}`)).body as { status: string }).status, 'available', 'asking seats nothing and orders nothing');
  const waiting = await asWaiter('GET', '/guest-requests');
  t.match(waiting.body, [{ id: asked.body.id, table: 'T1', lines: [{ name: 'Taco al pastor', quantity: 2 }, { name: 'Agua de jamaica' }] }], 'the floor lists it');

  const accepted = await asWaiter('POST', `/guest-requests/${asked.body.id}/accept`);
  t.match(accepted, { status: 200, body: { message: 'Request accepted' } });
  const orderId = accepted.body.order_id as string;
  t.same((await asWaiter('POST', `/guest-requests/${asked.body.id}/accept`)).body, accepted.body, 'accepted again: the same order, nothing added twice');
  const order = (await asWaiter('GET', `/orders/${orderId}`)).body as { table_id: string; user_id: string; total: number };
  const me = (await asWaiter('GET', '/auth/me')).body as { id: string };
  t.match(order, { table_id: r.tables.t1, user_id: me.id }, 'a new order at the table, the accepting waiter\'s');
  const lines = (await asWaiter('GET', `/orders/${orderId}/dishes`)).body as Array<{ dish_id: string; quantity: number; notes: string; kitchen_status: string }>;
  t.same(lines.map((l) => [l.dish_id, l.quantity, l.notes, l.kitchen_status]), [[r.dishes.pastor, 2, 'sin cebolla', 'pending'], [r.dishes.agua, 1, '', 'pending']], 'unfired: the waiter fires them');
  t.match((await guest('GET', `/guest/table/${token}/requests/${asked.body.id}`)).body, { status: 'accepted' }, 'the guest\'s phone reads it');
  t.same((await asWaiter('GET', '/guest-requests')).body, [], 'answered: off the list');

  // A second request goes on the order now open at the table.
  const more = await guest('POST', `/guest/table/${token}/requests`, { lines: [{ dish_id: r.dishes.agua, quantity: 2 }] });
  t.equal((await asWaiter('POST', `/guest-requests/${more.body.id}/accept`)).body.order_id, orderId, 'onto the table\'s open order');
  t.equal(((await asWaiter('GET', `/orders/${orderId}/dishes`)).body as unknown[]).length, 3);

  const third = await guest('POST', `/guest/table/${token}/requests`, { lines: [{ dish_id: r.dishes.pastor, quantity: 1 }] });
  t.match(await asWaiter('POST', `/guest-requests/${third.body.id}/decline`, { reason: 'the grill is closing' }), { status: 200, body: { message: 'Request declined' } });
  t.match((await guest('GET', `/guest/table/${token}/requests/${third.body.id}`)).body, { status: 'declined', reason: 'the grill is closing' });
  t.match(await asWaiter('POST', `/guest-requests/${third.body.id}/accept`), { status: 409, body: { message: 'This request was already declined' } });
  t.equal(((await asWaiter('GET', `/orders/${orderId}/dishes`)).body as unknown[]).length, 3, 'declined: nothing added');
});

t.test('a table\'s link opens that table only: other tokens, other tables\' requests, a bill\'s token, bad input, too many waiting', async (t) => {
  const { r, asWaiter, guest, link } = await service(t);
  const [t1, t2] = [await link(r.tables.t1), await link(r.tables.t2)];
  const asked = await guest('POST', `/guest/table/${t1.token}/requests`, { lines: [{ dish_id: r.dishes.agua, quantity: 1 }] });
  t.equal((await guest('GET', `/guest/table/${t2.token}/requests/${asked.body.id}`)).status, 404, 'another table\'s request is not there');
  t.equal((await guest('GET', `/guest/table/${t1.token.slice(0, -2)}AA`)).status, 404, 'a forged token');
  const order = await asWaiter('POST', '/orders/with-dishes', { order: { user_id: (await asWaiter('GET', '/auth/me')).body.id, table_id: r.tables.t3, waiter: 'Marisol' }, dishes: [{ dish_id: r.dishes.agua }] });
  const billId = (await asWaiter('POST', `/orders/${order.body.id}/tickets`, { split: 'none' })).body.ids[0] as string;
  const billToken = (await asWaiter('GET', `/tickets/${billId}/guest-link`)).body.token as string;
  t.equal((await guest('GET', `/guest/table/${billToken}`)).status, 404, 'a bill\'s token opens no table');
  t.equal((await guest('GET', `/guest/${t1.token}`)).status, 404, 'nor a table\'s a bill');
  t.equal((await asWaiter('GET', '/tables/99999999-9999-4999-8999-999999999999/guest-link')).status, 404);
  for (const body of [{}, { lines: [] }, { lines: [{ dish_id: r.dishes.agua, quantity: 0 }] }, { lines: [{ dish_id: r.dishes.agua, quantity: 1, price: 1 }] }]) {
    t.equal((await guest('POST', `/guest/table/${t1.token}/requests`, body)).status, 400, `400: ${JSON.stringify(body)}`);
  }
  t.equal((await guest('GET', '/guest-requests')).status, 401, 'the waiting list is the staff\'s');
  for (let i = 1; i < OPEN_REQUESTS_PER_TABLE; i++) t.equal((await guest('POST', `/guest/table/${t1.token}/requests`, { lines: [{ dish_id: r.dishes.agua, quantity: 1 }] })).status, 201);
  t.match(await guest('POST', `/guest/table/${t1.token}/requests`, { lines: [{ dish_id: r.dishes.agua, quantity: 1 }] }), { status: 409, body: { message: /earlier requests/ } }, `at most ${OPEN_REQUESTS_PER_TABLE} waiting per table`);
  t.equal((await asWaiter('POST', '/guest-requests/99999999-9999-4999-8999-999999999999/accept')).status, 404);
  t.equal((await asWaiter('POST', `/guest-requests/${asked.body.id}/decline`, {})).status, 400, 'a decline says why');
});
