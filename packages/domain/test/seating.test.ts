import t from 'tap';
import { type SeatingEvent, type Table, type TableStatus, fold, floor, seatedTable, seating, tableAfter } from '../src/index.js';
import { given } from './given.js';

const TERRACE = '11111111-1111-4111-8111-111111111111';
const T1 = '33333333-3333-4333-8333-333333333333';
const ORDER_A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const ORDER_B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

/** T1 as the floor has it: added (version 1), or as a floor written before tables had their own streams left it. */
const onFloor = (changes: Partial<Table> = {}): Table => ({ id: T1, name: 'T1', spaceId: TERRACE, status: 'available', orderId: null, version: 1, ...changes });
const floorSeatedA = onFloor({ status: 'occupied', orderId: ORDER_A, version: 2 });

const seatedA: SeatingEvent = { type: 'TableOccupied', data: { tableId: T1, orderId: ORDER_A } };
const releasedA: SeatingEvent = { type: 'TableReleased', data: { tableId: T1, orderId: ORDER_A } };
const walkIn: SeatingEvent = { type: 'TableOccupied', data: { tableId: T1, orderId: null } };
const reserved: SeatingEvent = { type: 'TableReserved', data: { tableId: T1 } };
const closed: SeatingEvent = { type: 'TableClosed', data: { tableId: T1 } };

const occupy = (orderId: string, from: Table | null = onFloor()) => ({ type: 'occupyTable' as const, tableId: T1, orderId, floor: from });
const release = (orderId: string, from: Table | null = onFloor()) => ({ type: 'releaseTable' as const, tableId: T1, orderId, floor: from });
const setStatus = (status: TableStatus, orderId: string | null, more: { ifMatch?: number; finishedOrders?: string[]; floor?: Table } = {}) =>
  ({ type: 'setStatus' as const, tableId: T1, status, orderId, floor: onFloor(), ...more });

t.test('occupyTable: an order is seated at a free, reserved or walk-in table, one order at a time', async (t) => {
  t.same(given(seating, []).when(occupy(ORDER_A)), { events: [seatedA] });
  t.same(given(seating, [reserved]).when(occupy(ORDER_A)), { events: [seatedA] }, 'a reserved table may be occupied');
  t.same(given(seating, [walkIn]).when(occupy(ORDER_A)), { events: [seatedA] }, 'a walk-in orders');
  t.same(given(seating, [seatedA]).when(occupy(ORDER_A)), { events: [] }, 'idempotent');
  t.same(given(seating, [seatedA]).when(occupy(ORDER_B)), {
    error: { kind: 'conflict', message: 'Table T1 already has an active order', details: { order_id: ORDER_A } },
  });
  t.same(given(seating, [seatedA, releasedA]).when(occupy(ORDER_B)), { events: [{ type: 'TableOccupied', data: { tableId: T1, orderId: ORDER_B } }] });
  const noTable = { error: { kind: 'validation', message: 'Validation failed', details: { errors: [{ field: 'table_id', message: 'must reference an existing table' }] } } };
  t.same(given(seating, []).when(occupy(ORDER_A, null)), noTable, 'a table the floor does not have');
  t.same(given(seating, [closed]).when(occupy(ORDER_A)), noTable, 'a table being removed');
});

t.test('releaseTable frees only a table held by that order', async (t) => {
  t.same(given(seating, [seatedA]).when(release(ORDER_A)), { events: [releasedA] });
  t.same(given(seating, [seatedA]).when(release(ORDER_B)), { events: [] });
  t.same(given(seating, []).when(release(ORDER_A)), { events: [] });
  t.same(given(seating, [seatedA, releasedA]).when(release(ORDER_A)), { events: [] }, 'a repeated release changes nothing');
  t.same(given(seating, []).when(release(ORDER_A, null)), { events: [] });
});

t.test('a table seated on a floor written before tables had their own streams is released in its own stream', async (t) => {
  t.same(given(seating, []).when(release(ORDER_A, floorSeatedA)), { events: [releasedA] });
  t.same(given(seating, []).when(occupy(ORDER_B, floorSeatedA)), {
    error: { kind: 'conflict', message: 'Table T1 already has an active order', details: { order_id: ORDER_A } },
  });
  t.same(given(seating, [releasedA]).when(occupy(ORDER_B, floorSeatedA)), { events: [{ type: 'TableOccupied', data: { tableId: T1, orderId: ORDER_B } }] });
  t.same(seatedTable(floorSeatedA, given(seating, [releasedA]).state), { ...floorSeatedA, status: 'available', orderId: null, version: 3 });
});

t.test('setStatus: staff set the status by hand; the events lead from where the table is to where they set it', async (t) => {
  const cases: Array<[string, SeatingEvent[], TableStatus, string | null, SeatingEvent[]]> = [
    ['nothing changes', [], 'available', null, []],
    ['reserved', [], 'reserved', null, [reserved]],
    ['reservation cancelled', [reserved], 'available', null, [{ type: 'TableMadeAvailable', data: { tableId: T1 } }]],
    ['walk-in seated', [], 'occupied', null, [walkIn]],
    ['walk-in orders', [walkIn], 'occupied', ORDER_A, [seatedA]],
    ['walk-in leaves', [walkIn], 'available', null, [{ type: 'TableReleased', data: { tableId: T1, orderId: null } }]],
    ['order stays', [seatedA], 'occupied', ORDER_A, []],
  ];
  for (const [what, past, status, orderId, expected] of cases) t.same(given(seating, past).when(setStatus(status, orderId)), { events: expected }, what);
});

t.test('an order seated at a table stays until it is released, unless it is known to be finished', async (t) => {
  const g = given(seating, [seatedA]);
  for (const [status, orderId] of [['available', null], ['reserved', null], ['occupied', null], ['occupied', ORDER_B]] as const) {
    t.same(g.when(setStatus(status, orderId)), {
      error: { kind: 'conflict', message: 'Table T1 already has an active order', details: { order_id: ORDER_A } },
    }, `${status} ${orderId}`);
  }
  t.same(g.when(setStatus('occupied', ORDER_B, { finishedOrders: [ORDER_A] })), {
    events: [releasedA, { type: 'TableOccupied', data: { tableId: T1, orderId: ORDER_B } }],
  });
  t.same(g.when(setStatus('reserved', null, { finishedOrders: [ORDER_A] })), { events: [releasedA, reserved] });
  t.match(g.when(setStatus('available', null, { finishedOrders: [ORDER_B] })), { error: { kind: 'conflict' } }, 'another finished order does not free this one');
  t.match(g.when(setStatus('occupied', ORDER_A, { ifMatch: 1 })), { error: { kind: 'precondition' } });
  t.same(g.when(setStatus('occupied', ORDER_A, { ifMatch: 2 })), { events: [] }, 'the floor\'s version (1) and this stream\'s event');
  t.same(g.when(setStatus('occupied', ORDER_A, { ifMatch: 4, floor: onFloor({ version: 3 }) })), { events: [] }, 'renamed twice on the floor');
  t.match(given(seating, [closed]).when(setStatus('available', null)), { error: { kind: 'not_found' } });
});

t.test('closeTable: refused while an order sits there; a free, walk-in or reserved table closes, once', async (t) => {
  t.same(given(seating, [seatedA]).when({ type: 'closeTable', tableId: T1, floor: onFloor() }), {
    error: { kind: 'conflict', message: 'Table T1 has an active order and cannot be deleted', details: { order_id: ORDER_A } },
  });
  t.match(given(seating, []).when({ type: 'closeTable', tableId: T1, floor: floorSeatedA }), { error: { kind: 'conflict' } }, 'seated on an older floor');
  for (const past of [[], [walkIn], [reserved], [seatedA, releasedA]]) {
    t.same(given(seating, past).when({ type: 'closeTable', tableId: T1, floor: onFloor() }), { events: [closed] });
  }
  t.same(given(seating, [closed]).when({ type: 'closeTable', tableId: T1, floor: onFloor() }), { events: [] }, 'a retried delete goes on to the floor');
  t.match(given(seating, []).when({ type: 'closeTable', tableId: T1, floor: null }), { error: { kind: 'not_found' } });
});

t.test('the table the deciders see is the one the tables projection counts (tableAfter over both streams)', async (t) => {
  const floorEvents = [
    { type: 'SpaceCreated', data: { spaceId: TERRACE, name: 'Terrace' } },
    { type: 'TableAdded', data: { tableId: T1, name: 'T1', spaceId: TERRACE, status: 'available', orderId: null } },
    { type: 'TableOccupied', data: { tableId: T1, orderId: ORDER_A } }, // written by the older code
    { type: 'TableUpdated', data: { tableId: T1, name: 'Window', spaceId: TERRACE } },
  ] as const;
  const own: SeatingEvent[] = [releasedA, reserved, { type: 'TableOccupied', data: { tableId: T1, orderId: ORDER_B } }, closed];
  const f = fold(floor, [...floorEvents]);
  const decided = seatedTable(f.tables[T1]!, fold(seating, own.slice(0, 3)));
  let projected: Table | null | undefined;
  for (const e of [...floorEvents.slice(1), ...own.slice(0, 3)]) projected = tableAfter(projected ?? undefined, e as Parameters<typeof tableAfter>[1]);
  t.same(decided, projected);
  t.same(decided, { id: T1, name: 'Window', spaceId: TERRACE, status: 'occupied', orderId: ORDER_B, version: 6 });
  t.equal(seatedTable(f.tables[T1]!, fold(seating, own)), null, 'closed');
});
