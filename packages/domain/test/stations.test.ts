import t from 'tap';
import { type MenuEvent, defaultStation, menu, order, stationOf, type OrderEvent } from '../src/index.js';
import { given } from './given.js';

const GRILL = '55555555-5555-4555-8555-555555555555';
const BAR = '66666666-6666-4666-8666-666666666666';
const DRINKS = '11111111-1111-4111-8111-111111111111';
const LEMONADE = '33333333-3333-4333-8333-333333333333';
const grill: MenuEvent = { type: 'StationAdded', data: { stationId: GRILL, name: 'Grill' } };
const bar: MenuEvent = { type: 'StationAdded', data: { stationId: BAR, name: 'Bar' } };
const drinks: MenuEvent = { type: 'CategoryAdded', data: { categoryId: DRINKS, name: 'Drinks', stationId: BAR } };
const lemonade: MenuEvent = { type: 'DishAdded', data: { dishId: LEMONADE, name: 'Lemonade', price: 3500, categoryId: DRINKS } };

t.test('stations: unique names, the first created is the default until another is chosen', async (t) => {
  t.same(given(menu, []).when({ type: 'addStation', stationId: GRILL, name: 'Grill' }), { events: [grill] });
  t.match(given(menu, [grill]).when({ type: 'addStation', stationId: BAR, name: 'GRILL' }), { error: { kind: 'conflict', message: 'A kitchen station named Grill already exists' } });
  t.match(given(menu, [grill]).when({ type: 'addStation', stationId: GRILL, name: 'Other' }), { error: { kind: 'conflict' } });
  t.equal(defaultStation(given(menu, [grill, bar]).state)?.id, GRILL);
  t.same(given(menu, [grill, bar]).when({ type: 'renameStation', stationId: BAR, name: 'Bar', makeDefault: true }), { events: [{ type: 'StationMadeDefault', data: { stationId: BAR } }] });
  t.same(given(menu, [grill, bar]).when({ type: 'renameStation', stationId: GRILL, name: 'Grill', makeDefault: true }), { events: [] }, 'already the default');
  const chosen = given(menu, [grill, bar, { type: 'StationMadeDefault', data: { stationId: BAR } }]);
  t.equal(defaultStation(chosen.state)?.id, BAR);
  t.equal(defaultStation(given(menu, [grill, bar, { type: 'StationMadeDefault', data: { stationId: BAR } }, { type: 'StationRemoved', data: { stationId: BAR } }]).state)?.id, GRILL, 'the default removed: the first remaining');
  t.match(chosen.when({ type: 'renameStation', stationId: BAR, name: 'Barra', ifMatch: 1 }), { error: { kind: 'precondition' } }, 'If-Match pins the station version');
});

t.test('routing: the dish, else its category, else the default station', async (t) => {
  const g = given(menu, [grill, bar, drinks, lemonade]);
  t.equal(stationOf(g.state, LEMONADE)?.id, BAR, 'by the category');
  const own = given(menu, [grill, bar, drinks, { type: 'DishAdded', data: { dishId: LEMONADE, name: 'Lemonade', price: 3500, categoryId: DRINKS, stationId: GRILL } }]);
  t.equal(stationOf(own.state, LEMONADE)?.id, GRILL, 'the dish overrides its category');
  const plain = given(menu, [grill, bar, { type: 'CategoryAdded', data: { categoryId: DRINKS, name: 'Drinks' } }, lemonade]);
  t.equal(stationOf(plain.state, LEMONADE)?.id, GRILL, 'the default station');
  t.equal(stationOf(given(menu, []).state, LEMONADE), null, 'no station at all');
});

t.test('a station in use by a category or dish cannot be removed; category and dish stations must exist', async (t) => {
  t.same(given(menu, [grill, bar, drinks, lemonade]).when({ type: 'removeStation', stationId: BAR }), {
    error: { kind: 'conflict', message: 'Kitchen station Bar is used by 1 dish categories and 0 dishes: route them elsewhere first', details: { category_count: 1, dish_count: 0 } },
  });
  t.same(given(menu, [grill, bar]).when({ type: 'removeStation', stationId: BAR }), { events: [{ type: 'StationRemoved', data: { stationId: BAR } }] });
  t.match(given(menu, [grill]).when({ type: 'addCategory', categoryId: DRINKS, name: 'Drinks', stationId: BAR }), { error: { kind: 'validation', details: { errors: [{ field: 'station_id' }] } } });
  t.match(given(menu, [grill, drinks]).when({ type: 'addDish', dishId: LEMONADE, name: 'L', price: 100, categoryId: DRINKS, stationId: BAR }), { error: { kind: 'validation' } }, 'bar never added here');
  t.same(given(menu, [grill, bar, drinks]).when({ type: 'renameCategory', categoryId: DRINKS, name: 'Drinks', stationId: GRILL }), {
    events: [{ type: 'CategoryStationChanged', data: { categoryId: DRINKS, stationId: GRILL } }],
  });
  t.same(given(menu, [grill, bar, drinks]).when({ type: 'renameCategory', categoryId: DRINKS, name: 'Drinks' }), { events: [] }, 'no station given: kept');
  const dishOnGrill = given(menu, [grill, bar, drinks, { type: 'DishAdded', data: { dishId: LEMONADE, name: 'L', price: 100, categoryId: DRINKS, stationId: GRILL } }]);
  t.same(dishOnGrill.when({ type: 'updateDish', dishId: LEMONADE, name: 'L', price: 100, categoryId: DRINKS }), { events: [] }, 'an update without station keeps it');
  t.same(dishOnGrill.when({ type: 'updateDish', dishId: LEMONADE, name: 'L', price: 100, categoryId: DRINKS, stationId: null }), {
    events: [{ type: 'DishUpdated', data: { dishId: LEMONADE, name: 'L', price: 100, categoryId: DRINKS } }],
  }, 'null: back to the category');
  t.match(dishOnGrill.when({ type: 'removeStation', stationId: GRILL }), { error: { kind: 'conflict', details: { dish_count: 1 } } });
});

t.test('firing lines: each line once, whatever the races; only while dishes may change', async (t) => {
  const placed: OrderEvent = { type: 'OrderPlaced', data: { orderId: 'o1', userId: 'u1', tableId: 't1', waiter: 'Ana', placedAt: 1 } };
  const added: OrderEvent = { type: 'DishesAdded', data: { lines: [{ lineId: 'l1', dishId: 'd1', priceCents: 100, notes: '' }, { lineId: 'l2', dishId: 'd2', priceCents: 100, notes: '' }] } };
  const f = (lineId: string, firing = 'f1') => ({ lineId, firingId: firing, dishId: 'd', stationId: 's1', ticketId: `k-${firing}`, dishName: 'X' });
  const fired: OrderEvent = { type: 'OrderLinesFired', data: { firingId: 'f1', lines: [f('l1')], at: 5 } };
  t.same(given(order, [placed, added]).when({ type: 'fireLines', firingId: 'f1', lines: [f('l1')], at: 5 }), { events: [fired] });
  t.same(given(order, [placed, added, fired]).when({ type: 'fireLines', firingId: 'f2', lines: [f('l1', 'f2'), f('l2', 'f2')], at: 6 }), {
    events: [{ type: 'OrderLinesFired', data: { firingId: 'f2', lines: [f('l2', 'f2')], at: 6 } }],
  }, 'a line fired by a racing request is left out');
  t.same(given(order, [placed, added, fired]).when({ type: 'fireLines', firingId: 'f1', lines: [f('l2')], at: 6 }), { events: [] }, 'a repeated firing changes nothing');
  t.match(given(order, [placed, added]).when({ type: 'fireLines', firingId: 'f1', lines: [f('nope')], at: 5 }), { error: { kind: 'not_found' } });
  const done: OrderEvent[] = [{ type: 'OrderStatusChanged', data: { from: 'pending', to: 'cancelled', at: 2 } }];
  t.match(given(order, [placed, added, ...done]).when({ type: 'fireLines', firingId: 'f1', lines: [f('l1')], at: 5 }), { error: { kind: 'conflict' } });
  const s = given(order, [placed, added, fired, { type: 'OrderLineRemoved', data: { lineId: 'l1' } }]).state;
  t.same(s.fired.l1, f('l1'), 'a removed line stays known as fired');
  t.equal(s.version, 3, 'firing does not move the order version (its ETag)');

  // The starters are ready; the mains are fired: the order is preparing again, and only then.
  const ready: OrderEvent[] = [
    { type: 'OrderStatusChanged', data: { from: 'pending', to: 'preparing', at: 6 } },
    { type: 'OrderStatusChanged', data: { from: 'preparing', to: 'ready', at: 7 } },
  ];
  t.same(given(order, [placed, added, fired, ...ready]).when({ type: 'fireLines', firingId: 'f2', lines: [f('l2', 'f2')], at: 8 }), {
    events: [
      { type: 'OrderLinesFired', data: { firingId: 'f2', lines: [f('l2', 'f2')], at: 8 } },
      { type: 'OrderStatusChanged', data: { from: 'ready', to: 'preparing', at: 8 } },
    ],
  }, 'the next course of a ready order');
  t.same(given(order, [placed, added, fired, ...ready]).when({ type: 'fireLines', firingId: 'f2', lines: [f('l1', 'f2')], at: 8 }), { events: [] }, 'nothing new fired: still ready');
});
