import t from 'tap';
import { MENU_STREAM, dishStock, dishStockStream, menu, newId, ownAuthority, seating, tableStream } from '@comanda/domain';
import { placeOrder } from '../src/index.js';
import { restaurant } from './restaurant.js';

// Placing an order against a dish's hours and a price level (issue 60), over the memory store.

type R = Awaited<ReturnType<typeof restaurant>>;
/** Friday 2026-11-27 in UTC, the restaurant's zone here. */
const at = (hhmm: string) => Date.parse(`2026-11-27T${hhmm}:00Z`);
const place = (r: R, when: number, dishes: Parameters<typeof placeOrder>[1]['dishes'], tableId: string | null = null) => placeOrder(r.commands, {
  orderId: newId(), userId: r.ids.waiter, tableId, dishes, lineId: (i) => `line-${i}`, at: when, timezone: 'UTC', authority: ownAuthority(r.ids.waiter, 'waiter'), context: {},
});

t.test('outside its hours a dish is refused by name with its hours; nothing is held, seated or written', async (t) => {
  const r = await restaurant();
  await r.commands.handle(menu, MENU_STREAM, { type: 'setDishAvailability', dishId: r.ids.pastor, windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '12:00', to: '16:00' }], by: r.ids.manager });
  await r.commands.handle(dishStock, dishStockStream(r.ids.pastor), { type: 'setCount', dishId: r.ids.pastor, day: '2026-11-27', remaining: 5, by: r.ids.manager });
  await t.rejects(place(r, at('11:59'), [{ dishId: r.ids.pastor }], r.ids.t1), { kind: 'conflict', message: 'Taco al pastor is not served now (served Mon–Fri 12:00–16:00)' });
  t.equal((await r.commands.state(dishStock, dishStockStream(r.ids.pastor))).state.remaining, 5, 'no portion held');
  t.equal((await r.commands.state(seating, tableStream(r.ids.t1))).state.orderId, null, 'the table stays free');
  const { orderId } = await place(r, at('12:00'), [{ dishId: r.ids.pastor }], r.ids.t1);
  t.match((await r.orderOf(orderId)).lines['line-0'], { priceCents: 2550 });
});

t.test("in a price level's hours a line takes its price and names it; the regular price sent by an old menu is the level's, any other an override", async (t) => {
  const r = await restaurant();
  await r.commands.handle(menu, MENU_STREAM, {
    type: 'setPriceLevel', priceLevelId: newId(), create: true, by: r.ids.manager, name: 'Happy hour',
    windows: [{ days: ['fri'], from: '17:00', to: '19:00' }], prices: [{ dishId: r.ids.pastor, priceCents: 1999 }],
  });
  const happy = await place(r, at('17:30'), [{ dishId: r.ids.pastor }, { dishId: r.ids.pastor, priceAtOrder: 25.5 }]);
  const lines = (await r.orderOf(happy.orderId)).lines;
  t.match(lines['line-0'], { priceCents: 1999, priceLevel: 'Happy hour' });
  t.match(lines['line-1'], { priceCents: 1999, priceLevel: 'Happy hour' });
  t.notOk(lines['line-1']!.override, 'no override: the guest gets the happy-hour price');
  await t.rejects(place(r, at('17:30'), [{ dishId: r.ids.pastor, priceAtOrder: 10 }]), { kind: 'forbidden' }, 'another price is a waiter\'s override: a manager\'s');
  const after = await place(r, at('19:00'), [{ dishId: r.ids.pastor }]);
  const regular = (await r.orderOf(after.orderId)).lines['line-0']!;
  t.match(regular, { priceCents: 2550 });
  t.notOk('priceLevel' in regular, 'after its hours: the menu price, no level');
});
