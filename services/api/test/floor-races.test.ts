import t from 'tap';
import { type EventStore, WrongExpectedRevision } from '@comanda/event-store';
import { DomainError, FLOOR_STREAM, type FloorEvent, floor, newId, tableStream } from '@comanda/domain';
import { seat as seatOrder } from '@comanda/workflows';
import { testApp } from './harness.js';
import { requests } from './requests.js';

const ROUNDS = 30;

/**
 * A store that takes a turn of the event loop to read a stream, as a real one does, and counts the
 * appends it refuses because the stream moved on: each refusal made a command decide again.
 */
function slowAndCounted(store: EventStore) {
  const counter = { conflicts: 0 };
  const readStream = store.readStream.bind(store);
  const append = store.append.bind(store);
  store.readStream = async (...args) => {
    const events = await readStream(...args);
    await new Promise(setImmediate);
    return events;
  };
  store.append = async (...args) => {
    try {
      return await append(...args);
    } catch (error) {
      if (error instanceof WrongExpectedRevision) counter.conflicts++;
      throw error;
    }
  };
  return counter;
}

/**
 * Runs the contenders at once, each after a random head start of a few turns of the event loop: a
 * request path with fewer steps would otherwise win every round, and the race would run one way only.
 */
const race = <T>(contenders: Array<() => Promise<T>>): Promise<T[]> =>
  Promise.all(contenders.map(async (run) => {
    for (let turns = Math.floor(Math.random() * 6); turns > 0; turns--) await new Promise(setImmediate);
    return run();
  }));

t.test('deleting a space while tables are added to it: a table never outlives its space', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  const { get, post, del } = requests(h.app, await h.as('manager'));
  const counter = slowAndCounted(h.store);
  const outcomes = new Set<string>();
  for (let round = 0; round < ROUNDS; round++) {
    const space = (await post('/spaces', { name: `Room ${round}` })).json().id;
    const [deleted, ...added] = await race([
      () => del(`/spaces/${space}`),
      () => post('/tables', { name: 'A', space_id: space }),
      () => post('/tables', { name: 'B', space_id: space }),
    ]);
    const tablesAdded = added.filter((r) => r.statusCode === 201).length;
    if (deleted!.statusCode === 200) {
      t.equal(tablesAdded, 0, `round ${round}: the space went first, so no table was added`);
      for (const r of added) t.same(r.json().errors, [{ field: 'space_id', message: 'must reference an existing space' }]);
      outcomes.add('space deleted');
    } else {
      t.equal(deleted!.statusCode, 409, `round ${round}: a table went first, so the delete is refused`);
      t.ok(tablesAdded > 0);
      outcomes.add('tables added');
    }
  }
  const { state } = await h.commands.state(floor, FLOOR_STREAM);
  const orphans = Object.values(state.tables).filter((table) => !state.spaces[table.spaceId]);
  t.same(orphans, [], 'the decided floor has no table without a space');
  const spaces = new Set(((await get('/spaces')).json() as Array<{ id: string }>).map((s) => s.id));
  const tables = (await get('/tables')).json() as Array<{ space_id: string }>;
  t.ok(tables.length > 0 && tables.every((table) => spaces.has(table.space_id)), 'and neither has the read model');
  t.same([...outcomes].sort(), ['space deleted', 'tables added'], 'both orders of the race happened');
  // The race is real (both outcomes above happened); one process queues commands per stream, so none
  // of them had to be decided again. Replicas racing on one stream are covered in the command handler's tests.
  t.equal(counter.conflicts, 0, 'no request was decided again: commands on the floor stream queued in the process');
});

t.test('deleting a table while an order is seated at it: an occupied table is never deleted', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  const { post, del } = requests(h.app, await h.as('manager'));
  const space = (await post('/spaces', { name: 'Hall' })).json().id;
  const counter = slowAndCounted(h.store);
  const outcomes = new Set<string>();
  for (let round = 0; round < ROUNDS; round++) {
    const table = (await post('/tables', { name: `T${round}`, space_id: space })).json().id;
    const seat = () => seatOrder(h.commands, table, newId(), {}).then(
      () => 'seated',
      (error: DomainError) => error.kind,
    );
    const [deleted, seated] = await race<unknown>([() => del(`/tables/${table}`).then((r) => r.statusCode), seat]);
    if (seated === 'seated') {
      t.equal(deleted, 409, `round ${round}: seated first, so the delete is refused`);
      outcomes.add('seated');
    } else {
      t.same([deleted, seated], [200, 'validation'], `round ${round}: deleted first, so the order finds no table`);
      outcomes.add('deleted');
    }
  }
  // Walk the log: a table deleted while an order held it would show TableRemoved after TableOccupied
  // (the seatings in each table's own stream, the removals in the floor's).
  const held = new Map<string, string | null>();
  const violations: string[] = [];
  const floorLog = await h.store.readStream(FLOOR_STREAM);
  const tableIds = floorLog.filter((e) => e.type === 'TableAdded').map((e) => (e.data as { tableId: string }).tableId);
  const seatings = (await Promise.all(tableIds.map((id) => h.store.readStream(tableStream(id))))).flat();
  for (const e of [...floorLog, ...seatings].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0))) {
    const event = { type: e.type, data: e.data } as FloorEvent;
    if (event.type === 'TableOccupied') held.set(event.data.tableId, event.data.orderId);
    if (event.type === 'TableReleased') held.delete(event.data.tableId);
    if (event.type === 'TableRemoved' && held.get(event.data.tableId)) violations.push(event.data.tableId);
  }
  t.same(violations, [], 'no table was removed while an order held it');
  t.equal(held.size + violations.length > 0, true, 'some orders were seated');
  t.same([...outcomes].sort(), ['deleted', 'seated'], 'both orders of the race happened');
  // The race is real (both outcomes above happened); one process queues commands per stream, so none
  // of them had to be decided again. Replicas racing on one stream are covered in the command handler's tests.
  t.equal(counter.conflicts, 0, 'no request was decided again: commands on the floor stream queued in the process');
});
