import t from 'tap';
import { FLOOR_STREAM, floor, newId, seating, tableStream, ownAuthority } from '@comanda/domain';
import { addTable, deleteOrder, placeOrder, removeTable, seat, setUpTable } from '../src/index.js';
import { restaurant } from './restaurant.js';

type Restaurant = Awaited<ReturnType<typeof restaurant>>;

const place = (r: Restaurant, tableId: string | null) =>
  placeOrder(r.commands, { orderId: newId(), userId: r.ids.waiter, tableId, waiter: 'Beto', dishes: [], lineId: String, at: 1, timezone: 'UTC', authority: ownAuthority(r.ids.waiter, 'waiter'), context: {} });

const floorLength = async (r: Restaurant) => (await r.store.readStream(FLOOR_STREAM)).length;

t.test('seating writes only the table\'s own stream: the floor is left alone', async (t) => {
  const r = await restaurant();
  const before = await floorLength(r);
  const { orderId } = await place(r, r.ids.t1);
  await place(r, r.ids.t2);
  await deleteOrder(r.commands, { orderId, context: {} });
  t.equal(await floorLength(r), before);
  t.same((await r.store.readStream(tableStream(r.ids.t1))).map((e) => e.type), ['TableOccupied', 'TableReleased']);
  t.same((await r.store.readStream(tableStream(r.ids.t2))).map((e) => e.type), ['TableOccupied']);
});

t.test('removing a table: refused while an order sits there; closed in its own stream, then gone from the floor', async (t) => {
  const r = await restaurant();
  const { orderId } = await place(r, r.ids.t1);
  await t.rejects(removeTable(r.commands, { tableId: r.ids.t1, context: {} }), { kind: 'conflict', details: { order_id: orderId } });
  await deleteOrder(r.commands, { orderId, context: {} });
  await removeTable(r.commands, { tableId: r.ids.t1, context: {} });
  t.same((await r.store.readStream(tableStream(r.ids.t1))).map((e) => e.type), ['TableOccupied', 'TableReleased', 'TableClosed']);
  t.equal((await r.commands.state(floor, FLOOR_STREAM)).state.tables[r.ids.t1], undefined);
  await t.rejects(place(r, r.ids.t1), { kind: 'validation', details: { errors: [{ field: 'table_id' }] } });
  await t.rejects(removeTable(r.commands, { tableId: r.ids.t1, context: {} }), { kind: 'not_found' });
  const again = { tableId: r.ids.t1, setup: { name: 'T1', spaceId: r.ids.space, status: 'available' as const, orderId: null }, context: {} };
  await t.rejects(addTable(r.commands, again), { kind: 'conflict' }, 'a removed table\'s id does not come back');
});

t.test('a crash between closing a table and removing it from the floor: it seats nobody, and deleting it again completes', async (t) => {
  const r = await restaurant();
  const table = await r.table(r.ids.t2);
  await r.commands.handle(seating, tableStream(r.ids.t2), { type: 'closeTable', tableId: r.ids.t2, floor: table });
  await t.rejects(seat(r.commands, r.ids.t2, newId(), {}), { kind: 'validation' });
  await t.rejects(setUpTable(r.commands, { tableId: r.ids.t2, setup: { name: 'T2', spaceId: r.ids.space, status: 'reserved', orderId: null }, context: {} }), { kind: 'not_found' });
  await removeTable(r.commands, { tableId: r.ids.t2, context: {} });
  t.equal((await r.commands.state(floor, FLOOR_STREAM)).state.tables[r.ids.t2], undefined);
});

t.test('setting up a table by hand: If-Match names the version of both streams; a refused request writes nothing', async (t) => {
  const r = await restaurant();
  const setup = (changes: object = {}) => ({ name: 'T1', spaceId: r.ids.space, status: 'available' as const, orderId: null, ...changes });
  const { orderId } = await place(r, r.ids.t1);
  await deleteOrder(r.commands, { orderId, context: {} });
  t.equal((await r.table(r.ids.t1)).version, 3, 'added, seated, released');
  const before = [await floorLength(r), (await r.store.readStream(tableStream(r.ids.t1))).length];
  const unchanged = async () => [await floorLength(r), (await r.store.readStream(tableStream(r.ids.t1))).length];
  await t.rejects(setUpTable(r.commands, { tableId: r.ids.t1, setup: setup({ status: 'reserved', name: 'Window' }), ifMatch: 1, context: {} }), { kind: 'precondition' });
  await t.rejects(setUpTable(r.commands, { tableId: r.ids.t1, setup: setup({ status: 'reserved', name: 'T2' }), ifMatch: 3, context: {} }), { kind: 'conflict' }, 'a name taken in the space');
  await t.rejects(setUpTable(r.commands, { tableId: r.ids.t1, setup: setup({ status: 'reserved', name: ' ' }), ifMatch: 3, context: {} }), { kind: 'validation' });
  t.same(await unchanged(), before, 'nothing written by a refused request');
  await setUpTable(r.commands, { tableId: r.ids.t1, setup: setup({ status: 'reserved', name: 'Window' }), ifMatch: 3, context: {} });
  t.match(await r.table(r.ids.t1), { name: 'Window', status: 'reserved', version: 5 });
  await setUpTable(r.commands, { tableId: r.ids.t1, setup: setup({ status: 'available', name: 'Window' }), ifMatch: 5, context: {} });
  t.match(await r.table(r.ids.t1), { name: 'Window', status: 'available', version: 6 });
});

t.test('a seat racing a manager\'s change of status: never half done, never decided on a stale version', async (t) => {
  const outcomes = new Set<string>();
  for (let round = 0; round < 20; round++) {
    const r = await restaurant();
    const [seated, reserved] = await Promise.allSettled([
      place(r, r.ids.t1),
      setUpTable(r.commands, { tableId: r.ids.t1, setup: { name: 'Window', spaceId: r.ids.space, status: 'reserved', orderId: null }, ifMatch: 1, context: {} }),
    ]);
    t.equal(seated.status, 'fulfilled', 'a reserved table may be occupied');
    const table = await r.table(r.ids.t1);
    if (reserved.status === 'fulfilled') {
      // Reserved and renamed first (two events), then seated.
      t.match(table, { name: 'Window', status: 'occupied', version: 4 }, `round ${round}`);
      outcomes.add('reserved, then seated');
    } else {
      t.match(reserved.reason, { kind: 'precondition' }, 'the version moved under the request');
      t.match(table, { name: 'T1', status: 'occupied', version: 2 }, `round ${round}: the rename was not applied either`);
      outcomes.add('seated, then refused');
    }
  }
  t.ok(outcomes.size > 0);
});
