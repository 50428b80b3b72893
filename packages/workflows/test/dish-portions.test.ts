import t from 'tap';
import { dishStock, dishStockStream, newId, ownAuthority } from '@comanda/domain';
import { CommandHandler } from '@comanda/event-store';
import { addDishes, changeLine, placeOrder, setDishStock } from '../src/index.js';
import { restaurant } from './restaurant.js';

type R = Awaited<ReturnType<typeof restaurant>>;
const AT = Date.parse('2026-11-28T20:00:00Z');
const lineIds = (i: number) => `line-${i}`;
const place = (r: R, commands = r.commands, changes: Partial<Parameters<typeof placeOrder>[1]> = {}) => placeOrder(commands, {
  orderId: newId(), userId: r.ids.waiter, tableId: null, dishes: [{ dishId: r.ids.pastor }], lineId: lineIds, at: AT, timezone: 'UTC', authority: ownAuthority(r.ids.waiter, 'waiter'), context: {}, ...changes,
});
const count = (r: R, remaining: number) => r.commands.handle(dishStock, dishStockStream(r.ids.pastor), { type: 'setCount', dishId: r.ids.pastor, day: '2026-11-28', remaining, by: r.ids.manager });
const left = async (r: R) => (await r.commands.state(dishStock, dishStockStream(r.ids.pastor))).state.remaining;

t.test('a dish without a count: ordering it writes nothing to its stream', async (t) => {
  const r = await restaurant();
  await place(r);
  t.same(await r.appended(dishStockStream(r.ids.pastor)), []);
});

t.test('a burst of ten orders on two replicas for a count of 3: exactly three are placed, none oversold', async (t) => {
  const r = await restaurant({ soleWriter: false });
  await count(r, 3);
  const replicas = [r.commands, new CommandHandler(r.store)];
  const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => place(r, replicas[i % 2])));
  const placed = outcomes.filter((o) => o.status === 'fulfilled');
  t.equal(placed.length, 3, 'three orders placed');
  for (const o of outcomes) if (o.status === 'rejected') t.match(o.reason, { kind: 'conflict', message: 'Taco al pastor is sold out' });
  t.equal(await left(r), 0);
});

t.test('three portions whatever the orders: 2 then 1, then the next is refused naming the dish', async (t) => {
  const r = await restaurant();
  await count(r, 3);
  await place(r, r.commands, { dishes: [{ dishId: r.ids.pastor, quantity: 2 }] });
  await t.rejects(place(r, r.commands, { dishes: [{ dishId: r.ids.pastor }, { dishId: r.ids.pastor }] }), { kind: 'conflict', message: 'Only 1 Taco al pastor left' });
  const { orderId } = await place(r);
  await t.rejects(addDishes(r.commands, { orderId, dishes: [{ dishId: r.ids.pastor }], lineId: () => newId(), at: AT, timezone: 'UTC', authority: ownAuthority(r.ids.waiter, 'waiter'), context: {} }),
    { kind: 'conflict', message: 'Taco al pastor is sold out' });
  await t.rejects(changeLine(r.commands, { orderId, lineId: 'line-0', quantity: 2, at: AT, timezone: 'UTC', authority: ownAuthority(r.ids.waiter, 'waiter'), context: {} }),
    { kind: 'conflict', message: 'Taco al pastor is sold out' }, 'raising a quantity');
  t.match((await r.orderOf(orderId)).lines['line-0'], { quantity: 1 }, 'nothing half-written');
  t.same(await place(r, r.commands, { at: Date.parse('2026-11-29T00:00:01Z') }).then(() => 'placed'), 'placed', 'the next business day it is on sale again');
});

t.test('an order refused after its portions were held gives them back', async (t) => {
  const r = await restaurant();
  await count(r, 3);
  await place(r, r.commands, { tableId: r.ids.t1 });
  await t.rejects(place(r, r.commands, { tableId: r.ids.t1 }), { kind: 'conflict', message: 'Table T1 already has an active order' });
  t.equal(await left(r), 2, 'the refused order holds none');
  const { orderId } = await place(r);
  await t.rejects(addDishes(r.commands, { orderId: newId(), dishes: [{ dishId: r.ids.pastor }], lineId: () => newId(), at: AT, timezone: 'UTC', authority: ownAuthority(r.ids.waiter, 'waiter'), context: {} }),
    { kind: 'not_found' }, 'dishes for an order that does not exist');
  t.equal(await left(r), 1, 'given back');
  const key = { idempotency: { key: 'one-more', fingerprint: 'f' } };
  const added = await addDishes(r.commands, { orderId, dishes: [{ dishId: r.ids.pastor }], lineId: () => 'line-9', at: AT, timezone: 'UTC', authority: ownAuthority(r.ids.waiter, 'waiter'), context: key });
  t.same(added.lineIds, ['line-9']);
  t.same((await addDishes(r.commands, { orderId, dishes: [{ dishId: r.ids.pastor }], lineId: () => 'line-9', at: AT, timezone: 'UTC', authority: ownAuthority(r.ids.waiter, 'waiter'), context: key })).lineIds, ['line-9'], 'a retry with the same key');
  t.equal(await left(r), 0, 'added once: one portion held');
  await setDishStock(r.commands, { dishId: r.ids.pastor, remaining: 1, by: r.ids.manager, at: AT, timezone: 'UTC', context: {} });
  await changeLine(r.commands, { orderId, lineId: 'line-0', quantity: 2, at: AT, timezone: 'UTC', authority: ownAuthority(r.ids.waiter, 'waiter'), context: {} });
  t.equal(await left(r), 0, 'a raised quantity holds the extra portion');
});

t.test("setDishStock: a manager's 86, count or back on sale, for the business day it is set on", async (t) => {
  const r = await restaurant();
  const set = (changes: Partial<Parameters<typeof setDishStock>[1]>) => setDishStock(r.commands, { dishId: r.ids.pastor, by: r.ids.manager, at: AT, timezone: 'UTC', context: {}, ...changes });
  t.match(await set({ soldOut: true }), { soldOut: true, remaining: 0 });
  t.match(await set({ remaining: 2 }), { soldOut: false, remaining: 2 });
  t.match(await set({ soldOut: false, remaining: 4 }), { soldOut: false, remaining: 4 }, 'back on sale with a count');
  t.match(await set({ soldOut: false }), { soldOut: false, remaining: null });
  await t.rejects(set({ soldOut: true, remaining: 3 }), { kind: 'validation' });
  await t.rejects(set({}), { kind: 'validation' });
  await t.rejects(set({ dishId: newId(), soldOut: true }), { kind: 'not_found' });
  t.match(await r.appended(dishStockStream(r.ids.pastor)), [
    { type: 'DishSoldOut', data: { by: r.ids.manager, day: '2026-11-28' } }, { type: 'DishCounted', data: { remaining: 2 } }, { type: 'DishCounted', data: { remaining: 4 } }, { type: 'DishBackOnSale' },
  ]);
});

t.test('a key reused for another request is refused and gives back nothing its first request holds', async (t) => {
  const r = await restaurant();
  await count(r, 2);
  const { orderId } = await place(r, r.commands, { dishes: [] });
  const add = (fingerprint: string, notes: string) => addDishes(r.commands, {
    orderId, dishes: [{ dishId: r.ids.pastor, notes }], lineId: () => 'line-k', at: AT, timezone: 'UTC', authority: ownAuthority(r.ids.waiter, 'waiter'), context: { idempotency: { key: 'k', fingerprint } },
  });
  await add('first', '');
  t.equal(await left(r), 1);
  await t.rejects(add('another', 'sin cebolla'), { kind: 'conflict', message: 'Idempotency-Key was already used for a different request' });
  t.equal(await left(r), 1, "the first request's portion stays held: its line is on the order");
});
