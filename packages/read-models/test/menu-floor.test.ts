import t from 'tap';
import type { FloorEvent, MenuEvent } from '@comanda/domain';
import type { RecordedEvent } from '@comanda/event-store';
import { MemoryReadStore } from '@comanda/read-store';
import {
  CATEGORIES, DISHES, SPACES, TABLES, type Projection, allProjections,
  categoriesProjection, dishesProjection, spacesProjection, tablesProjection,
} from '../src/index.js';

const DRINKS = '11111111-1111-4111-8111-111111111111';
const LEMONADE = '33333333-3333-4333-8333-333333333333';
const TERRACE = '55555555-5555-4555-8555-555555555555';
const T1 = '66666666-6666-4666-8666-666666666666';
const ORDER = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

/** Events as the store records them, at consecutive positions. */
function recorded(stream: string, events: Array<MenuEvent | FloorEvent>): RecordedEvent[] {
  return events.map((e, i) => ({
    id: `${stream}-${i}`, stream, revision: i, position: BigInt(i + 1), type: e.type, data: e.data, metadata: {}, recordedAt: 0,
  }));
}

/** Every projection that handles the event, as the projector calls them. */
async function project(store: MemoryReadStore, events: RecordedEvent[]) {
  for (const event of events) {
    for (const p of allProjections.filter((p: Projection) => p.handles.includes(event.type))) await p.apply(event, store);
  }
}

const strip = <T extends { _id: string; _position: string }>(docs: T[]) => docs.map(({ _id, _position, ...rest }) => rest);

t.test('the menu projects into categories and dishes, prices as decimal numbers', async (t) => {
  const store = new MemoryReadStore();
  const events = recorded('menu', [
    { type: 'CategoryAdded', data: { categoryId: DRINKS, name: 'Drinks' } },
    { type: 'DishAdded', data: { dishId: LEMONADE, name: 'Lemonade', price: 3550, categoryId: DRINKS } },
    { type: 'CategoryRenamed', data: { categoryId: DRINKS, name: 'Beverages' } },
    { type: 'DishUpdated', data: { dishId: LEMONADE, name: 'Lemonade', price: 1999, categoryId: DRINKS } },
  ]);
  await project(store, events);
  t.same(strip(await store.collection(CATEGORIES).find()), [{ id: DRINKS, name: 'Beverages', station_id: null, tax_rate_id: null, display_order: 0, version: 2 }]);
  t.same(strip(await store.collection(DISHES).find()), [{ id: LEMONADE, name: 'Lemonade', price: 19.99, category_id: DRINKS, station_id: null, modifier_group_ids: [], allergens: [], tax_rate_id: null, description: '', version: 2 }]);

  await project(store, events);
  t.same(strip(await store.collection(DISHES).find()), [{ id: LEMONADE, name: 'Lemonade', price: 19.99, category_id: DRINKS, station_id: null, modifier_group_ids: [], allergens: [], tax_rate_id: null, description: '', version: 2 }], 're-delivery changes nothing');

  await project(store, recorded('menu', [
    { type: 'DishRemoved', data: { dishId: LEMONADE } },
    { type: 'CategoryRemoved', data: { categoryId: DRINKS } },
  ]).map((e, i) => ({ ...e, position: BigInt(10 + i) })));
  t.equal(await store.collection(DISHES).count(), 0);
  t.equal(await store.collection(CATEGORIES).count(), 0);
});

t.test('the floor projects into spaces and tables with status and order', async (t) => {
  const store = new MemoryReadStore();
  const events = recorded('floor', [
    { type: 'SpaceCreated', data: { spaceId: TERRACE, name: 'Terrace' } },
    { type: 'TableAdded', data: { tableId: T1, name: 'T1', spaceId: TERRACE, status: 'available', orderId: null } },
    { type: 'TableReserved', data: { tableId: T1 } },
    { type: 'TableOccupied', data: { tableId: T1, orderId: ORDER } },
  ]);
  await project(store, events);
  await project(store, events);
  t.same(strip(await store.collection(SPACES).find()), [{ id: TERRACE, name: 'Terrace', version: 1 }]);
  t.same(strip(await store.collection(TABLES).find()), [{ id: T1, name: 'T1', status: 'occupied', space_id: TERRACE, order_id: ORDER, version: 3 }]);

  const later = (events: Array<MenuEvent | FloorEvent>, from: number) => recorded('floor', events).map((e, i) => ({ ...e, position: BigInt(from + i) }));
  await project(store, later([
    { type: 'TableReleased', data: { tableId: T1, orderId: ORDER } },
    { type: 'TableUpdated', data: { tableId: T1, name: 'Window', spaceId: TERRACE } },
    { type: 'SpaceRenamed', data: { spaceId: TERRACE, name: 'Patio' } },
  ], 10));
  t.same(strip(await store.collection(TABLES).find()), [{ id: T1, name: 'Window', status: 'available', space_id: TERRACE, order_id: null, version: 5 }]);
  t.same(strip(await store.collection(SPACES).find()), [{ id: TERRACE, name: 'Patio', version: 2 }]);

  await project(store, later([{ type: 'TableMadeAvailable', data: { tableId: T1 } }, { type: 'TableRemoved', data: { tableId: T1 } }, { type: 'SpaceRemoved', data: { spaceId: TERRACE } }], 20));
  t.equal(await store.collection(TABLES).count(), 0);
  t.equal(await store.collection(SPACES).count(), 0);
});

t.test('each projection ignores events of its neighbours and is registered once', async (t) => {
  const store = new MemoryReadStore();
  const [foreign] = recorded('floor', [{ type: 'SpaceCreated', data: { spaceId: TERRACE, name: 'Terrace' } }]);
  for (const p of [categoriesProjection, dishesProjection, tablesProjection]) await p.apply(foreign!, store);
  t.equal(await store.collection(CATEGORIES).count() + await store.collection(DISHES).count() + await store.collection(TABLES).count(), 0);
  const [late] = recorded('floor', [{ type: 'TableReserved', data: { tableId: T1 } }]);
  await tablesProjection.apply(late!, store);
  t.equal(await store.collection(TABLES).count(), 0, 'an event for a table never seen creates nothing');
  for (const p of [categoriesProjection, dishesProjection, spacesProjection, tablesProjection]) t.equal(allProjections.filter((q) => q === p).length, 1, p.name);
});
