import pino from 'pino';
import t from 'tap';
import { Reactor, allReactions } from '@comanda/projector';
import { servedApp } from './harness.js';
import { eventually, memoryCheckpoint } from './kitchen-harness.js';
import { setUpRestaurant } from './restaurant.js';

// Closing a paid table (POST /orders/{id}/close), over HTTP, with the process managers running as in
// the standalone: the kitchen's tickets close with the order, and COMANDA_CLOSE_PAID_ORDERS closes by itself.

async function service(t: Tap.Test, env: Record<string, string> = {}) {
  const s = await servedApp(env);
  const reactor = new Reactor(s.store, memoryCheckpoint(), allReactions(s.commands, s.config), pino({ level: 'silent' }));
  await reactor.start();
  t.teardown(async () => (await reactor.stop(), await s.close()));
  const [admin, waiter, kitchen] = [await s.as('admin'), await s.as('waiter'), await s.as('kitchen')];
  const r = await setUpRestaurant(s.app, admin);
  const call = (cookie: string) => async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await s.request(path, cookie, headers, method, body);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const asWaiter = call(waiter);
  await call(admin)('POST', '/stations', { name: 'Grill' });
  const waiterId = (await asWaiter('GET', '/auth/me')).body.id as string;
  const seat = async (table: 't1' | 't2', dishes: Array<'pastor' | 'agua'>) => {
    const placed = await asWaiter('POST', '/orders/with-dishes', { order: { user_id: waiterId, table_id: r.tables[table], waiter: 'Marisol' }, dishes: dishes.map((d) => ({ dish_id: r.dishes[d] })) });
    t.equal(placed.status, 201);
    return placed.body.id as string;
  };
  const payAll = async (orderId: string) => {
    const bills = (await asWaiter('POST', `/orders/${orderId}/tickets`, { split: 'none' })).body.tickets as Array<{ id: string; total: number }>;
    for (const b of bills) t.equal((await asWaiter('POST', `/tickets/${b.id}/payments`, { method: 'credit_card', amount: b.total })).status, 201);
  };
  const tableStatus = async (table: 't1' | 't2') => (await asWaiter('GET', `/tables/${r.tables[table]}`)).body.status as string;
  return { s, r, asWaiter, asKitchen: call(kitchen), seat, payAll, tableStatus };
}

t.test('a table paid in full is closed from the POS whatever the kitchen did; its tickets close with it', async (t) => {
  const { asWaiter, asKitchen, seat, payAll, tableStatus } = await service(t);
  // Table 1: fired, the kitchen never bumps. Table 2: nothing sent to the kitchen at all.
  const fired = await seat('t1', ['pastor', 'agua']);
  t.equal((await asWaiter('POST', `/orders/${fired}/fire`)).status, 200);
  await eventually(async () => (await asKitchen('GET', '/kitchen/tickets')).body?.length === 1, 'the kitchen ticket');
  const never = await seat('t2', ['agua']);

  t.match(await asWaiter('POST', `/orders/${fired}/close`), { status: 409, body: { message: 'The order cannot be closed: some dishes are on no bill' } }, 'not billed: refused');
  const bill = (await asWaiter('POST', `/orders/${fired}/tickets`, { split: 'none' })).body.tickets[0] as { id: string; total: number };
  t.match(await asWaiter('POST', `/orders/${fired}/close`), { status: 409, body: { message: 'The order cannot be closed before every bill is paid' } }, 'billed, not paid: refused');
  t.equal(await tableStatus('t1'), 'occupied', 'a refused close leaves the table as it was');
  t.equal((await asWaiter('POST', `/tickets/${bill.id}/payments`, { method: 'cash', amount: bill.total, tendered: bill.total })).status, 409, 'no shift: cash is refused, so pay by card');
  t.equal((await asWaiter('POST', `/tickets/${bill.id}/payments`, { method: 'credit_card', amount: bill.total })).status, 201);
  await payAll(never);

  t.same(await asWaiter('POST', `/orders/${fired}/close`), { status: 200, body: { message: 'Order closed' } });
  t.same(await asWaiter('POST', `/orders/${never}/close`, undefined, { 'idempotency-key': 'close-t2' }), { status: 200, body: { message: 'Order closed' } });
  t.same(await asWaiter('POST', `/orders/${never}/close`, undefined, { 'idempotency-key': 'close-t2' }), { status: 200, body: { message: 'Order closed' } }, 'a retry answers the same');
  t.match((await asWaiter('GET', `/orders/${fired}`)).body, { status: 'completed' });
  t.match((await asWaiter('GET', `/orders/${never}`)).body, { status: 'completed' }, 'pending → completed: nothing was ever fired');
  t.same([await tableStatus('t1'), await tableStatus('t2')], ['available', 'available'], 'both tables free for the next guests');
  await eventually(async () => (await asKitchen('GET', '/kitchen/tickets')).body?.length === 0, 'the unbumped ticket off the board');
  t.match((await asKitchen('GET', '/kitchen/tickets?status=closed')).body, [{ order_id: fired }], 'closed with its order, never bumped');
  t.equal(await seat('t1', ['agua']).then((id) => typeof id), 'string', 'table 1 seats new guests');
});

t.test('closing is refused for what cannot close: no dishes, cancelled, unknown; the kitchen may not close a table', async (t) => {
  const { s, r, asWaiter, asKitchen } = await service(t);
  const waiterId = (await asWaiter('GET', '/auth/me')).body.id as string;
  const empty = (await asWaiter('POST', '/orders', { user_id: waiterId, table_id: r.tables.t1, waiter: 'Marisol' })).body.id as string;
  t.match(await asWaiter('POST', `/orders/${empty}/close`), { status: 409, body: { message: 'An order with no dishes is cancelled, not closed' } });
  t.match(await asKitchen('POST', `/orders/${empty}/close`), { status: 403 });
  t.equal((await asWaiter('PUT', `/orders/${empty}`, { user_id: waiterId, table_id: r.tables.t1, waiter: 'Marisol', status: 'cancelled' })).status, 200);
  t.match(await asWaiter('POST', `/orders/${empty}/close`), { status: 409, body: { message: 'A cancelled order cannot be closed' } });
  t.match(await asWaiter('POST', '/orders/7c9e6679-7425-40de-944b-e07fc1f90ae7/close'), { status: 404 });
  t.match(await asWaiter('POST', '/orders/nope/close'), { status: 400 });
  t.ok(s);
});

t.test('COMANDA_CLOSE_PAID_ORDERS=true: the last bill paid closes the order and frees the table by itself', async (t) => {
  const { asWaiter, seat, tableStatus } = await service(t, { COMANDA_CLOSE_PAID_ORDERS: 'true' });
  const id = await seat('t1', ['pastor', 'agua']);
  const dishes = (await asWaiter('GET', `/orders/${id}/dishes`)).body as Array<{ id: string }>;
  const bills = (await asWaiter('POST', `/orders/${id}/tickets`, { split: 'lines', groups: [[dishes[0]!.id], [dishes[1]!.id]] })).body.tickets as Array<{ id: string; total: number }>;
  t.equal(bills.length, 2);
  t.equal((await asWaiter('POST', `/tickets/${bills[0]!.id}/payments`, { method: 'credit_card', amount: bills[0]!.total })).status, 201);
  // The reactions run after the write's answer: give them their moment, then the order must still be open.
  await new Promise((r) => setTimeout(r, 300));
  t.match((await asWaiter('GET', `/orders/${id}`)).body, { status: 'pending' }, 'one bill of two paid: still open');
  t.equal(await tableStatus('t1'), 'occupied');
  t.equal((await asWaiter('POST', `/tickets/${bills[1]!.id}/payments`, { method: 'credit_card', amount: bills[1]!.total })).status, 201);
  await eventually(async () => (await asWaiter('GET', `/orders/${id}`)).body.status === 'completed', 'the order closed by itself');
  await eventually(async () => (await tableStatus('t1')) === 'available', 'its table freed');
});

t.test('without the setting a paid order stays open until someone closes it', async (t) => {
  const { asWaiter, seat, payAll, tableStatus } = await service(t);
  const id = await seat('t1', ['agua']);
  await payAll(id);
  await new Promise((r) => setTimeout(r, 300));
  t.match((await asWaiter('GET', `/orders/${id}`)).body, { status: 'pending' });
  t.equal(await tableStatus('t1'), 'occupied');
});
