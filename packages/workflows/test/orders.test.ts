import t from 'tap';
import { newId, orderNumbersStream, orderStream, ownAuthority } from '@comanda/domain';
import { CommandHandler } from '@comanda/event-store';
import { deleteOrder, giveDiscount, placeOrder, releaseTableUnlessSeated, removeDiscount, seat, updateOrder } from '../src/index.js';
import { restaurant } from './restaurant.js';

type R = Awaited<ReturnType<typeof restaurant>>;
const lineIds = (i: number) => `line-${i}`;
const place = (r: R, changes: Partial<Parameters<typeof placeOrder>[1]> = {}) => placeOrder(r.commands, {
  orderId: newId(), userId: r.ids.waiter, tableId: r.ids.t1, waiter: ' Beto ', dishes: [{ dishId: r.ids.pastor, notes: ' sin cebolla ' }], lineId: lineIds, at: 1000, timezone: 'UTC', authority: ownAuthority(r.ids.waiter, 'waiter'), context: {}, ...changes,
});
const policy = { completeRequiresPayment: false };

t.test('placing an order seats its table, then writes the order with its lines at menu prices', async (t) => {
  const r = await restaurant();
  const from = await r.mark();
  const { orderId, position } = await place(r);
  t.same(await r.seatings(from), [{ type: 'TableOccupied', data: { tableId: r.ids.t1, orderId } }]);
  t.match(await r.appended(orderStream(orderId)), [
    { type: 'OrderPlaced', data: { orderId, userId: r.ids.waiter, tableId: r.ids.t1, waiter: 'Beto' } },
    { type: 'DishesAdded', data: { lines: [{ lineId: 'line-0', dishId: r.ids.pastor, priceCents: 2550, notes: 'sin cebolla' }] } },
  ]);
  t.equal(position, (await r.store.readStream(orderStream(orderId))).at(-1)!.position, 'the reader waits for the later append');
});

t.test('each order takes the next number of its business day; a refused order takes none', async (t) => {
  const r = await restaurant();
  const at = Date.parse('2026-11-26T05:00:00Z'); // 23:00 on the 25th in Mexico City
  const first = await place(r, { at, timezone: 'America/Mexico_City' });
  await t.rejects(place(r, { at, timezone: 'America/Mexico_City' }), { kind: 'conflict' }, 'T1 is taken');
  const second = await place(r, { at, timezone: 'America/Mexico_City', tableId: null });
  t.same(await r.appended(orderNumbersStream('2026-11-25')), [
    { type: 'OrderNumberTaken', data: { orderId: first.orderId, number: 1, day: '2026-11-25' } },
    { type: 'OrderNumberTaken', data: { orderId: second.orderId, number: 2, day: '2026-11-25' } },
  ]);
  t.match(await r.appended(orderStream(second.orderId)), [{ type: 'OrderPlaced', data: { number: 2 } }]);
  const utc = await place(r, { at, tableId: null });
  t.equal((await r.orderOf(utc.orderId)).number, 1, 'in UTC it is already the 26th: a new day');
});

t.test('two replicas on one store lease blocks of numbers: every order a number of its own, one append per block', async (t) => {
  const r = await restaurant({ soleWriter: false });
  const replicas = [r.commands, new CommandHandler(r.store)];
  const at = Date.parse('2026-11-26T20:00:00Z');
  const placed = await Promise.all(Array.from({ length: 30 }, (_, i) => placeOrder(replicas[i % 2]!, {
    orderId: newId(), userId: r.ids.waiter, tableId: null, waiter: 'Beto', dishes: [], lineId: lineIds, at, timezone: 'UTC', authority: ownAuthority(r.ids.waiter, 'waiter'), context: {},
  })));
  const numbers = await Promise.all(placed.map(async (p) => (await r.orderOf(p.orderId)).number!));
  t.equal(new Set(numbers).size, 30, 'thirty orders, thirty different numbers');
  t.ok(numbers.every((n) => n >= 1 && n <= 40), 'from the blocks leased: 1 to 40 at most');
  const day = await r.appended(orderNumbersStream('2026-11-26'));
  t.ok(day.length <= 4 && day.every((e) => e.type === 'OrderNumbersLeased'), `${day.length} appends to the day's stream for 30 orders`);
});

t.test('an order on a table another open order holds is refused and writes nothing', async (t) => {
  const r = await restaurant();
  await place(r);
  const from = await r.mark();
  const orderId = newId();
  await t.rejects(place(r, { orderId }), { kind: 'conflict' });
  t.same(await r.seatings(from), []);
  t.same(await r.appended(orderStream(orderId)), []);
});

t.test('a refused order gives its seat back (seat first, order second, unseat on failure)', async (t) => {
  const r = await restaurant();
  const { orderId } = await place(r, { tableId: null });
  // The same order id again: the floor seats it, the order's stream refuses a second placement.
  const from = await r.mark();
  await t.rejects(place(r, { orderId, tableId: r.ids.t2 }), { kind: 'conflict' });
  t.same((await r.seatings(from)).map((e) => e.type), ['TableOccupied', 'TableReleased']);
  t.equal((await r.table(r.ids.t2)).orderId, null);
});

t.test('placing checks the user, the status and every dish before writing anything', async (t) => {
  const r = await restaurant();
  const from = await r.mark();
  await t.rejects(place(r, { userId: newId(), status: 'ready' }), {
    kind: 'validation', details: { errors: [{ field: 'status', message: 'a new order is pending' }, { field: 'user_id', message: 'must reference an existing user' }] },
  });
  await t.rejects(place(r, { dishes: [{ dishId: newId() }, { dishId: r.ids.pastor, priceAtOrder: 0.001 }] }), {
    kind: 'validation', details: { errors: [{ field: 'dishes[0].dish_id' }, { field: 'dishes[1].price_at_order' }] },
  });
  t.same(await r.seatings(from), []);
});

t.test('updating: kitchen staff may change the status only', async (t) => {
  const r = await restaurant();
  const { orderId } = await place(r);
  const base = { orderId, userId: r.ids.waiter, tableId: r.ids.t1, waiter: 'Beto', at: 2000, context: {} };
  await t.rejects(updateOrder(r.commands, policy, { ...base, tableId: r.ids.t2, authority: ownAuthority(null, 'kitchen') }), { kind: 'forbidden' });
  await updateOrder(r.commands, policy, { ...base, status: 'preparing', authority: ownAuthority(null, 'kitchen') });
  t.equal((await r.orderOf(orderId)).status, 'preparing');
  await t.rejects(updateOrder(r.commands, policy, { ...base, userId: newId(), authority: ownAuthority(r.ids.waiter, 'waiter') }), { kind: 'validation', details: { errors: [{ field: 'user_id' }] } });
  await t.rejects(updateOrder(r.commands, policy, { ...base, status: 'eaten', authority: ownAuthority(r.ids.waiter, 'waiter') }), { kind: 'validation', details: { errors: [{ field: 'status' }] } });
  await t.rejects(updateOrder(r.commands, policy, { ...base, orderId: newId(), authority: ownAuthority(r.ids.waiter, 'waiter') }), { kind: 'not_found' });
});

t.test('moving to another table seats the new one and frees the old; finishing frees the table', async (t) => {
  const r = await restaurant();
  const { orderId } = await place(r);
  const base = { orderId, userId: r.ids.waiter, waiter: 'Beto', at: 2000, authority: ownAuthority(r.ids.waiter, 'waiter'), context: {} };
  await updateOrder(r.commands, policy, { ...base, tableId: r.ids.t2 });
  t.match([await r.table(r.ids.t1), await r.table(r.ids.t2)], [{ orderId: null }, { orderId, status: 'occupied' }]);
  await updateOrder(r.commands, policy, { ...base, tableId: r.ids.t2, status: 'cancelled' });
  t.match(await r.table(r.ids.t2), { orderId: null });
});

t.test('completing may require payment (COMANDA_COMPLETE_REQUIRES_PAYMENT)', async (t) => {
  const r = await restaurant();
  const { orderId } = await place(r);
  const base = { orderId, userId: r.ids.waiter, tableId: r.ids.t1, waiter: 'Beto', at: 2000, authority: ownAuthority(r.ids.waiter, 'waiter'), context: {} };
  for (const status of ['preparing', 'ready']) await updateOrder(r.commands, policy, { ...base, status });
  await t.rejects(updateOrder(r.commands, { completeRequiresPayment: true }, { ...base, status: 'completed' }), {
    kind: 'conflict', message: 'The order cannot be completed before it is paid: 25.50 due',
  });
  await updateOrder(r.commands, policy, { ...base, status: 'completed' });
  t.equal((await r.orderOf(orderId)).status, 'completed');
});

t.test('deleting a pending order frees its table', async (t) => {
  const r = await restaurant();
  const { orderId } = await place(r);
  await deleteOrder(r.commands, { orderId, context: {} });
  t.match(await r.table(r.ids.t1), { orderId: null });
});

t.test('releaseTableUnlessSeated: frees a seat whose order never came, keeps a seated open order', async (t) => {
  const r = await restaurant();
  const { orderId } = await place(r);
  t.equal(await releaseTableUnlessSeated(r.commands, r.ids.t1, orderId, {}), null, 'the order sits there, open');
  const ghost = newId();
  await seat(r.commands, r.ids.t2, ghost, {});
  t.not(await releaseTableUnlessSeated(r.commands, r.ids.t2, ghost, {}), null);
  t.match(await r.table(r.ids.t2), { orderId: null });
});

t.test('discounts: a waiter within COMANDA_WAITER_DISCOUNT_MAX_PERCENT, a manager beyond; taken off again', async (t) => {
  const r = await restaurant();
  const { orderId } = await place(r);
  const give = (role: 'waiter' | 'manager', value: number, discountId: string) =>
    giveDiscount(r.commands, { orderId, discountId, lineId: null, kind: 'percent', value, reason: 'regular', authority: ownAuthority(role === 'waiter' ? r.ids.waiter : r.ids.manager, role), waiterMaxPercent: 10, at: 5, context: { userId: r.ids.waiter } });
  await t.rejects(give('waiter', 10.01, 'd1'), { kind: 'forbidden' });
  await t.rejects(give('waiter', 10.001, 'd1'), { kind: 'validation' }, 'two decimals at most');
  await give('waiter', 10, 'd1');
  await give('manager', 50, 'd2');
  t.match(await r.appended(orderStream(orderId), 2), [
    { type: 'DiscountGiven', data: { discountId: 'd1', value: 1000, amountCents: 255, by: r.ids.waiter } },
    { type: 'DiscountGiven', data: { discountId: 'd2', value: 5000, amountCents: 1148, by: r.ids.manager, approvedBy: r.ids.manager } },
  ]);
  await removeDiscount(r.commands, orderId, 'd1', {});
  t.same(Object.keys((await r.orderOf(orderId)).discounts), ['d2']);
});
