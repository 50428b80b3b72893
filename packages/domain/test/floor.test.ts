import t from 'tap';
import { type FloorEvent, type TableStatus, floor } from '../src/index.js';
import { given } from './given.js';

const TERRACE = '11111111-1111-4111-8111-111111111111';
const HALL = '22222222-2222-4222-8222-222222222222';
const T1 = '33333333-3333-4333-8333-333333333333';
const T2 = '44444444-4444-4444-8444-444444444444';
const ORDER_A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const ORDER_B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

const terrace: FloorEvent = { type: 'SpaceCreated', data: { spaceId: TERRACE, name: 'Terrace' } };
const hall: FloorEvent = { type: 'SpaceCreated', data: { spaceId: HALL, name: 'Hall' } };
const table1: FloorEvent = { type: 'TableAdded', data: { tableId: T1, name: 'T1', spaceId: TERRACE, status: 'available', orderId: null } };
const seatedA: FloorEvent = { type: 'TableOccupied', data: { tableId: T1, orderId: ORDER_A } };

const setup = (changes: Partial<{ name: string; spaceId: string; status: TableStatus; orderId: string | null }> = {}) => ({
  name: 'T1', spaceId: TERRACE, status: 'available' as TableStatus, orderId: null, ...changes,
});

t.test('spaces are created, renamed and removed', async (t) => {
  t.same(given(floor, []).when({ type: 'createSpace', spaceId: TERRACE, name: 'Terrace' }), { events: [terrace] });
  t.match(given(floor, []).when({ type: 'createSpace', spaceId: TERRACE, name: ' ' }), { error: { kind: 'validation', details: { errors: [{ field: 'name' }] } } });
  t.match(given(floor, [terrace]).when({ type: 'createSpace', spaceId: TERRACE, name: 'Again' }), { error: { kind: 'conflict' } });
  const g = given(floor, [terrace]);
  t.same(g.when({ type: 'renameSpace', spaceId: TERRACE, name: 'Patio' }), { events: [{ type: 'SpaceRenamed', data: { spaceId: TERRACE, name: 'Patio' } }] });
  t.same(g.when({ type: 'renameSpace', spaceId: TERRACE, name: 'Terrace' }), { events: [] });
  t.match(g.when({ type: 'renameSpace', spaceId: TERRACE, name: 'Patio', ifMatch: 2 }), { error: { kind: 'precondition' } });
  t.match(g.when({ type: 'renameSpace', spaceId: HALL, name: 'Patio' }), { error: { kind: 'not_found' } });
  t.same(g.when({ type: 'removeSpace', spaceId: TERRACE }), { events: [{ type: 'SpaceRemoved', data: { spaceId: TERRACE } }] });
  t.match(g.when({ type: 'removeSpace', spaceId: HALL }), { error: { kind: 'not_found' } });
});

t.test('a space with tables cannot be removed', async (t) => {
  t.same(given(floor, [terrace, table1]).when({ type: 'removeSpace', spaceId: TERRACE }), {
    error: { kind: 'conflict', message: 'Space Terrace still has 1 table: move or delete them first', details: { table_count: 1 } },
  });
  const moved: FloorEvent = { type: 'TableUpdated', data: { tableId: T1, name: 'T1', spaceId: HALL } };
  t.match(given(floor, [terrace, hall, table1, moved]).when({ type: 'removeSpace', spaceId: TERRACE }), { events: [{ type: 'SpaceRemoved' }] });
});

t.test('a table is added into an existing space, its name unique in that space', async (t) => {
  t.same(given(floor, [terrace]).when({ type: 'addTable', tableId: T1, ...setup() }), { events: [table1] });
  t.same(given(floor, [terrace]).when({ type: 'addTable', tableId: T1, ...setup({ status: 'occupied', orderId: ORDER_A }) }), {
    events: [{ type: 'TableAdded', data: { tableId: T1, name: 'T1', spaceId: TERRACE, status: 'occupied', orderId: ORDER_A } }],
  });
  t.same(given(floor, [terrace, hall, table1]).when({ type: 'addTable', tableId: T2, ...setup({ name: 't1' }) }), {
    error: { kind: 'conflict', message: 'A table named T1 already exists in space Terrace' },
  });
  t.match(given(floor, [terrace, hall, table1]).when({ type: 'addTable', tableId: T2, ...setup({ spaceId: HALL }) }), {
    events: [{ type: 'TableAdded' }],
  }, 'the same name in another space is fine');
  t.same(given(floor, [terrace]).when({ type: 'addTable', tableId: T1, ...setup({ name: '', spaceId: HALL, status: 'reserved', orderId: ORDER_A }) }), {
    error: {
      kind: 'validation',
      message: 'Validation failed',
      details: {
        errors: [
          { field: 'name', message: 'must not be blank' },
          { field: 'space_id', message: 'must reference an existing space' },
          { field: 'status', message: 'must be occupied when order_id is set' },
        ],
      },
    },
  });
  t.match(given(floor, [terrace]).when({ type: 'addTable', tableId: T1, ...setup({ status: 'closed' as TableStatus }) }), {
    error: { kind: 'validation', details: { errors: [{ field: 'status', message: 'must be one of available, occupied, reserved' }] } },
  });
  t.match(given(floor, [terrace, table1]).when({ type: 'addTable', tableId: T1, ...setup({ name: 'T9' }) }), { error: { kind: 'conflict' } });
});

t.test('updating a table: name and space, then the status events that lead to the new status', async (t) => {
  const cases: Array<[string, FloorEvent[], ReturnType<typeof setup>, FloorEvent[]]> = [
    ['nothing changes', [], setup(), []],
    ['renamed and moved', [], setup({ name: 'Window', spaceId: HALL }), [{ type: 'TableUpdated', data: { tableId: T1, name: 'Window', spaceId: HALL } }]],
    ['reserved', [], setup({ status: 'reserved' }), [{ type: 'TableReserved', data: { tableId: T1 } }]],
    ['reservation cancelled', [{ type: 'TableReserved', data: { tableId: T1 } }], setup(), [{ type: 'TableMadeAvailable', data: { tableId: T1 } }]],
    ['walk-in seated', [], setup({ status: 'occupied' }), [{ type: 'TableOccupied', data: { tableId: T1, orderId: null } }]],
    ['walk-in orders', [{ type: 'TableOccupied', data: { tableId: T1, orderId: null } }], setup({ status: 'occupied', orderId: ORDER_A }), [seatedA]],
    ['walk-in leaves', [{ type: 'TableOccupied', data: { tableId: T1, orderId: null } }], setup(), [{ type: 'TableReleased', data: { tableId: T1, orderId: null } }]],
    ['order stays', [seatedA], setup({ status: 'occupied', orderId: ORDER_A, name: 'T1b' }), [{ type: 'TableUpdated', data: { tableId: T1, name: 'T1b', spaceId: TERRACE } }]],
  ];
  for (const [what, past, target, expected] of cases) {
    t.same(given(floor, [terrace, hall, table1, ...past]).when({ type: 'updateTable', tableId: T1, ...target }), { events: expected }, what);
  }
});

t.test('an order seated at a table stays until it is released, unless it is known to be finished', async (t) => {
  const g = given(floor, [terrace, table1, seatedA]);
  for (const target of [setup(), setup({ status: 'reserved' }), setup({ status: 'occupied' }), setup({ status: 'occupied', orderId: ORDER_B })]) {
    t.same(g.when({ type: 'updateTable', tableId: T1, ...target }), {
      error: { kind: 'conflict', message: 'Table T1 already has an active order', details: { order_id: ORDER_A } },
    }, `${target.status} ${target.orderId}`);
  }
  t.same(g.when({ type: 'updateTable', tableId: T1, ...setup({ status: 'occupied', orderId: ORDER_B }), finishedOrders: [ORDER_A] }), {
    events: [{ type: 'TableReleased', data: { tableId: T1, orderId: ORDER_A } }, { type: 'TableOccupied', data: { tableId: T1, orderId: ORDER_B } }],
  });
  t.same(g.when({ type: 'updateTable', tableId: T1, ...setup({ status: 'reserved' }), finishedOrders: [ORDER_A] }), {
    events: [{ type: 'TableReleased', data: { tableId: T1, orderId: ORDER_A } }, { type: 'TableReserved', data: { tableId: T1 } }],
  });
  t.match(g.when({ type: 'updateTable', tableId: T1, ...setup(), finishedOrders: [ORDER_B] }), { error: { kind: 'conflict' } }, 'another finished order does not free this one');
  t.match(g.when({ type: 'updateTable', tableId: T1, ...setup({ status: 'occupied', orderId: ORDER_A }), ifMatch: 1 }), { error: { kind: 'precondition' } });
  t.same(g.when({ type: 'updateTable', tableId: T1, ...setup({ status: 'occupied', orderId: ORDER_A }), ifMatch: 2 }), { events: [] });
  t.match(g.when({ type: 'updateTable', tableId: T2, ...setup() }), { error: { kind: 'not_found' } });
  t.match(given(floor, [terrace, table1, { type: 'TableAdded', data: { ...setup({ name: 'T2' }), tableId: T2 } }]).when({ type: 'updateTable', tableId: T2, ...setup() }), {
    error: { kind: 'conflict', message: 'A table named T1 already exists in space Terrace' },
  });
});

t.test('a table with an active order cannot be removed; a free or walk-in table can', async (t) => {
  t.same(given(floor, [terrace, table1, seatedA]).when({ type: 'removeTable', tableId: T1 }), {
    error: { kind: 'conflict', message: 'Table T1 has an active order and cannot be deleted', details: { order_id: ORDER_A } },
  });
  const removed = { events: [{ type: 'TableRemoved', data: { tableId: T1 } }] };
  t.same(given(floor, [terrace, table1]).when({ type: 'removeTable', tableId: T1 }), removed);
  t.same(given(floor, [terrace, table1, { type: 'TableOccupied', data: { tableId: T1, orderId: null } }]).when({ type: 'removeTable', tableId: T1 }), removed);
  t.same(given(floor, [terrace, table1, seatedA, { type: 'TableReleased', data: { tableId: T1, orderId: ORDER_A } }]).when({ type: 'removeTable', tableId: T1 }), removed);
  t.match(given(floor, [terrace]).when({ type: 'removeTable', tableId: T1 }), { error: { kind: 'not_found' } });
});

t.test('occupyTable: the orders process seats an order', async (t) => {
  t.same(given(floor, [terrace, table1]).when({ type: 'occupyTable', tableId: T1, orderId: ORDER_A }), { events: [seatedA] });
  t.same(given(floor, [terrace, table1, { type: 'TableReserved', data: { tableId: T1 } }]).when({ type: 'occupyTable', tableId: T1, orderId: ORDER_A }), { events: [seatedA] }, 'a reserved table may be occupied');
  t.same(given(floor, [terrace, table1, { type: 'TableOccupied', data: { tableId: T1, orderId: null } }]).when({ type: 'occupyTable', tableId: T1, orderId: ORDER_A }), { events: [seatedA] }, 'a walk-in orders');
  t.same(given(floor, [terrace, table1, seatedA]).when({ type: 'occupyTable', tableId: T1, orderId: ORDER_A }), { events: [] }, 'idempotent');
  t.same(given(floor, [terrace, table1, seatedA]).when({ type: 'occupyTable', tableId: T1, orderId: ORDER_B }), {
    error: { kind: 'conflict', message: 'Table T1 already has an active order', details: { order_id: ORDER_A } },
  });
  t.same(given(floor, [terrace]).when({ type: 'occupyTable', tableId: T1, orderId: ORDER_A }), {
    error: { kind: 'validation', message: 'Validation failed', details: { errors: [{ field: 'table_id', message: 'must reference an existing table' }] } },
  });
});

t.test('releaseTable frees only a table held by that order', async (t) => {
  t.same(given(floor, [terrace, table1, seatedA]).when({ type: 'releaseTable', tableId: T1, orderId: ORDER_A }), {
    events: [{ type: 'TableReleased', data: { tableId: T1, orderId: ORDER_A } }],
  });
  t.same(given(floor, [terrace, table1, seatedA]).when({ type: 'releaseTable', tableId: T1, orderId: ORDER_B }), { events: [] });
  t.same(given(floor, [terrace, table1]).when({ type: 'releaseTable', tableId: T1, orderId: ORDER_A }), { events: [] });
  t.same(given(floor, [terrace]).when({ type: 'releaseTable', tableId: T1, orderId: ORDER_A }), { events: [] });
  const released = given(floor, [terrace, table1, seatedA, { type: 'TableReleased', data: { tableId: T1, orderId: ORDER_A } }]).state.tables[T1];
  t.same(released, { id: T1, name: 'T1', spaceId: TERRACE, status: 'available', orderId: null, version: 3 });
});

t.test('state: each event on a table moves its version; removals forget', async (t) => {
  const { state } = given(floor, [
    terrace, hall, table1,
    { type: 'TableUpdated', data: { tableId: T1, name: 'Window', spaceId: HALL } },
    { type: 'TableReserved', data: { tableId: T1 } },
    { type: 'TableAdded', data: { tableId: T2, ...setup({ name: 'T2' }) } },
    { type: 'TableRemoved', data: { tableId: T2 } },
    { type: 'SpaceRenamed', data: { spaceId: TERRACE, name: 'Patio' } },
  ]);
  t.same(state.tables, { [T1]: { id: T1, name: 'Window', spaceId: HALL, status: 'reserved', orderId: null, version: 3 } });
  t.same(state.spaces[TERRACE], { id: TERRACE, name: 'Patio', version: 2 });
});
