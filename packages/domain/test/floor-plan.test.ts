import t from 'tap';
import { type FloorEvent, floor } from '../src/index.js';
import { given } from './given.js';

const TERRACE = '11111111-1111-4111-8111-111111111111';
const HALL = '22222222-2222-4222-8222-222222222222';
const T1 = '33333333-3333-4333-8333-333333333333';
const T2 = '44444444-4444-4444-8444-444444444444';
const WINDOW = '55555555-5555-4555-8555-555555555555';
const ANA = '66666666-6666-4666-8666-666666666666';

const terrace: FloorEvent = { type: 'SpaceCreated', data: { spaceId: TERRACE, name: 'Terrace' } };
const hall: FloorEvent = { type: 'SpaceCreated', data: { spaceId: HALL, name: 'Hall' } };
const added = (tableId: string, name: string): FloorEvent => ({ type: 'TableAdded', data: { tableId, name, spaceId: TERRACE, status: 'available', orderId: null } });
const moved = (tableId: string, column: number, row: number): FloorEvent => ({ type: 'TableMoved', data: { tableId, column, row } });
const window: FloorEvent = { type: 'SectionCreated', data: { sectionId: WINDOW, spaceId: TERRACE, name: 'Window', tableIds: [T1], waiterId: ANA } };
const floorWithTwo = [terrace, hall, added(T1, 'T1'), added(T2, 'T2'), moved(T1, 2, 3)];

t.test('a table added with a cell and a look is placed and shaped in the same append', async (t) => {
  const setup = { name: 'T1', spaceId: TERRACE, status: 'available' as const, orderId: null };
  t.same(given(floor, [terrace]).when({ type: 'addTable', tableId: T1, ...setup, place: { column: 0, row: 1 }, look: { shape: 'round', seats: 6 } }), {
    events: [added(T1, 'T1'), moved(T1, 0, 1), { type: 'TableReshaped', data: { tableId: T1, shape: 'round', seats: 6 } }],
  });
  t.same(given(floor, floorWithTwo).state.tables[T1], { id: T1, name: 'T1', spaceId: TERRACE, status: 'available', orderId: null, version: 2, column: 2, row: 3 });
  t.same(given(floor, floorWithTwo).when({ type: 'addTable', tableId: WINDOW, ...setup, name: 'T3', place: { column: 2, row: 3 } }), {
    error: { kind: 'conflict', message: 'Table T1 already stands at column 2, row 3: pick a free cell', details: { table_id: T1 } },
  });
  t.same(given(floor, [terrace]).when({ type: 'addTable', tableId: T1, ...setup, place: { column: 12, row: -1 }, look: { shape: 'oval' as 'round', seats: 0 } }), {
    error: { kind: 'validation', message: 'Validation failed', details: { errors: [
      { field: 'column', message: 'must be a whole number from 0 to 11' },
      { field: 'row', message: 'must be a whole number from 0 to 7' },
      { field: 'shape', message: 'must be one of square, round, rectangle' },
      { field: 'seats', message: 'must be a whole number from 1 to 40' },
    ] } },
  });
});

t.test('a table moves onto a free cell of its grid, never onto another table', async (t) => {
  const g = given(floor, floorWithTwo);
  t.same(g.when({ type: 'moveTable', tableId: T2, column: 11, row: 7 }), { events: [moved(T2, 11, 7)] });
  t.same(g.when({ type: 'moveTable', tableId: T1, column: 2, row: 3 }), { events: [] }, 'already there');
  t.same(g.when({ type: 'moveTable', tableId: T2, column: 2, row: 3 }), {
    error: { kind: 'conflict', message: 'Table T1 already stands at column 2, row 3: pick a free cell', details: { table_id: T1 } },
  });
  t.match(g.when({ type: 'moveTable', tableId: T2, column: 1.5, row: 0 }), { error: { kind: 'validation', details: { errors: [{ field: 'column' }] } } });
  t.match(g.when({ type: 'moveTable', tableId: HALL, column: 1, row: 0 }), { error: { kind: 'not_found' } });
  const elsewhere: FloorEvent = { type: 'TableUpdated', data: { tableId: T1, name: 'T1', spaceId: HALL } };
  const after = given(floor, [...floorWithTwo, elsewhere]);
  t.same([after.state.tables[T1]!.column, after.state.tables[T1]!.row], [undefined, undefined], 'moved to another space: unplaced there');
  t.same(after.when({ type: 'moveTable', tableId: T2, column: 2, row: 3 }), { events: [moved(T2, 2, 3)] }, 'its old cell is free');
});

t.test('a table is reshaped: shape and seats', async (t) => {
  const g = given(floor, floorWithTwo);
  const round: FloorEvent = { type: 'TableReshaped', data: { tableId: T1, shape: 'round', seats: 2 } };
  t.same(g.when({ type: 'reshapeTable', tableId: T1, shape: 'round', seats: 2 }), { events: [round] });
  t.same(given(floor, [...floorWithTwo, round]).when({ type: 'reshapeTable', tableId: T1, shape: 'round', seats: 2 }), { events: [] });
  t.match(g.when({ type: 'reshapeTable', tableId: T1, shape: 'round', seats: 41 }), { error: { kind: 'validation', details: { errors: [{ field: 'seats' }] } } });
  t.same(given(floor, [...floorWithTwo, round]).state.tables[T1]!.shape, 'round');
});

t.test('a section groups tables of one space under a waiter, each table in one section', async (t) => {
  const g = given(floor, floorWithTwo);
  t.same(g.when({ type: 'createSection', sectionId: WINDOW, spaceId: TERRACE, name: 'Window', tableIds: [T1, T1], waiterId: ANA }), { events: [window] });
  t.same(g.when({ type: 'createSection', sectionId: WINDOW, spaceId: HALL, name: ' ', tableIds: [T1], waiterId: null }), {
    error: { kind: 'validation', message: 'Validation failed', details: { errors: [
      { field: 'name', message: 'must not be blank' },
      { field: 'table_ids', message: `must name tables of this space (not ${T1})` },
    ] } },
  });
  t.match(g.when({ type: 'createSection', sectionId: WINDOW, spaceId: ANA, name: 'W', tableIds: [], waiterId: null }), { error: { kind: 'validation', details: { errors: [{ field: 'space_id' }] } } });
  const w = given(floor, [...floorWithTwo, window]);
  t.same(w.state.sections[WINDOW], { id: WINDOW, spaceId: TERRACE, name: 'Window', tableIds: [T1], waiterId: ANA, version: 1 });
  t.same(w.when({ type: 'createSection', sectionId: HALL, spaceId: TERRACE, name: 'Door', tableIds: [T2, T1], waiterId: null }), {
    error: { kind: 'conflict', message: 'Table T1 is already in section Window: take it out there first' },
  });
  const changed: FloorEvent = { type: 'SectionChanged', data: { sectionId: WINDOW, name: 'Window', tableIds: [T1, T2], waiterId: null } };
  t.same(w.when({ type: 'changeSection', sectionId: WINDOW, name: 'Window', tableIds: [T1, T2], waiterId: null, ifMatch: 1 }), { events: [changed] });
  t.same(w.when({ type: 'changeSection', sectionId: WINDOW, name: 'Window', tableIds: [T1], waiterId: ANA }), { events: [] });
  t.match(w.when({ type: 'changeSection', sectionId: WINDOW, name: 'Window', tableIds: [], waiterId: ANA, ifMatch: 2 }), { error: { kind: 'precondition' } });
  t.match(w.when({ type: 'removeSection', sectionId: WINDOW, ifMatch: 2 }), { error: { kind: 'precondition' } }, 'removed over a change made since');
  t.same(w.when({ type: 'removeSection', sectionId: WINDOW, ifMatch: 1 }), { events: [{ type: 'SectionRemoved', data: { sectionId: WINDOW } }] });
  t.same(w.when({ type: 'removeSection', sectionId: WINDOW }), { events: [{ type: 'SectionRemoved', data: { sectionId: WINDOW } }] });
  t.match(w.when({ type: 'removeSection', sectionId: HALL }), { error: { kind: 'not_found' } });
});

t.test('a table that leaves (removed, or to another space) leaves its section in the same append; a removed space takes its sections', async (t) => {
  const w = given(floor, [...floorWithTwo, window]);
  const emptied: FloorEvent = { type: 'SectionChanged', data: { sectionId: WINDOW, name: 'Window', tableIds: [], waiterId: ANA } };
  t.same(w.when({ type: 'removeTable', tableId: T1 }), { events: [emptied, { type: 'TableRemoved', data: { tableId: T1 } }] });
  t.same(w.when({ type: 'updateTable', tableId: T1, name: 'T1', spaceId: HALL, status: 'available', orderId: null }), {
    events: [emptied, { type: 'TableUpdated', data: { tableId: T1, name: 'T1', spaceId: HALL } }],
  });
  t.same(w.when({ type: 'updateTable', tableId: T1, name: 'T9', spaceId: TERRACE, status: 'available', orderId: null }), {
    events: [{ type: 'TableUpdated', data: { tableId: T1, name: 'T9', spaceId: TERRACE } }],
  }, 'renamed in place: still in its section, still on its cell');
  const empty = given(floor, [terrace, window]);
  t.same(empty.when({ type: 'removeSpace', spaceId: TERRACE }), {
    events: [{ type: 'SectionRemoved', data: { sectionId: WINDOW } }, { type: 'SpaceRemoved', data: { spaceId: TERRACE } }],
  });
});
