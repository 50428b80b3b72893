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

t.test('updating a table: the floor decides its name and space; its status, the table\'s own stream', async (t) => {
  const g = given(floor, [terrace, hall, table1]);
  t.same(g.when({ type: 'updateTable', tableId: T1, ...setup() }), { events: [] }, 'nothing changes');
  t.same(g.when({ type: 'updateTable', tableId: T1, ...setup({ status: 'reserved' }) }), { events: [] }, 'a status alone is not the floor\'s');
  t.same(g.when({ type: 'updateTable', tableId: T1, ...setup({ name: 'Window', spaceId: HALL }) }), {
    events: [{ type: 'TableUpdated', data: { tableId: T1, name: 'Window', spaceId: HALL } }],
  }, 'renamed and moved');
  t.match(g.when({ type: 'updateTable', tableId: T1, ...setup({ status: 'available', orderId: ORDER_A }) }), {
    error: { kind: 'validation', details: { errors: [{ field: 'status', message: 'must be occupied when order_id is set' }] } },
  }, 'the whole setup is validated in one answer');
  t.match(g.when({ type: 'updateTable', tableId: T2, ...setup() }), { error: { kind: 'not_found' } });
  t.match(given(floor, [terrace, table1, { type: 'TableAdded', data: { ...setup({ name: 'T2' }), tableId: T2 } }]).when({ type: 'updateTable', tableId: T2, ...setup() }), {
    error: { kind: 'conflict', message: 'A table named T1 already exists in space Terrace' },
  });
});

t.test('If-Match on a table names the version of its floor events and its own stream\'s together', async (t) => {
  const g = given(floor, [terrace, table1]);
  const rename = { type: 'updateTable' as const, tableId: T1, ...setup({ name: 'T9' }) };
  t.match(g.when({ ...rename, ifMatch: 1 }), { events: [{ type: 'TableUpdated' }] });
  t.match(g.when({ ...rename, ifMatch: 1, seatingChanges: 2 }), { error: { kind: 'precondition' } }, 'seated and released since');
  t.match(g.when({ ...rename, ifMatch: 3, seatingChanges: 2 }), { events: [{ type: 'TableUpdated' }] });
  // A floor written before tables had their own streams counts its seatings itself.
  t.match(given(floor, [terrace, table1, seatedA]).when({ ...rename, ifMatch: 2 }), { events: [{ type: 'TableUpdated' }] });
});

t.test('removing a table: the floor forgets it (its own stream was closed first, refusing an active order)', async (t) => {
  const removed = { events: [{ type: 'TableRemoved', data: { tableId: T1 } }] };
  t.same(given(floor, [terrace, table1]).when({ type: 'removeTable', tableId: T1 }), removed);
  t.match(given(floor, [terrace]).when({ type: 'removeTable', tableId: T1 }), { error: { kind: 'not_found' } });
  t.match(given(floor, [terrace, table1, { type: 'TableRemoved', data: { tableId: T1 } }]).when({ type: 'removeTable', tableId: T1 }), { error: { kind: 'not_found' } });
});

t.test('a floor written before tables had their own streams still folds their seatings', async (t) => {
  const released = given(floor, [terrace, table1, seatedA, { type: 'TableReleased', data: { tableId: T1, orderId: ORDER_A } }]).state.tables[T1];
  t.same(released, { id: T1, name: 'T1', spaceId: TERRACE, status: 'available', orderId: null, version: 3 });
  t.same(given(floor, [terrace, table1, seatedA]).state.tables[T1], { id: T1, name: 'T1', spaceId: TERRACE, status: 'occupied', orderId: ORDER_A, version: 2 });
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
