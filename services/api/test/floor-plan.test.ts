import t from 'tap';
import { servedApp } from './harness.js';

// The floor plan over HTTP: tables placed on their space's grid, shaped, and grouped in sections under a waiter.

const UNKNOWN = '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a';
const STALE = 'The resource was changed by someone else (stale If-Match)';

async function floorPlan(t: Tap.Test) {
  const s = await servedApp();
  t.teardown(s.close);
  const call = (cookie: string) => async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await s.request(path, cookie, headers, method, body);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, etag: res.headers.get('etag') };
  };
  const [manager, waiter] = [call(await s.as('manager')), call(await s.as('waiter'))];
  const users = (await manager('GET', '/users')).body as Array<{ id: string; name: string }>;
  const waiterId = users.find((u) => u.name === 'waiter-1')!.id;
  const space = (await manager('POST', '/spaces', { name: 'Terrace' })).body.id as string;
  const table = async (name: string, extra: object = {}) => (await manager('POST', '/tables', { name, space_id: space, ...extra })).body.id as string;
  return { s, manager, waiter, waiterId, space, table };
}

t.test('a table is placed and shaped; a table never placed answers as before', async (t) => {
  const { manager, waiter, space, table } = await floorPlan(t);
  const plain = await table('T1');
  t.same((await manager('GET', `/tables/${plain}`)).body, { id: plain, name: 'T1', status: 'available', space_id: space, order_id: null });
  const placed = await table('T2', { column: 0, row: 0, shape: 'round', seats: 2 });
  t.same((await waiter('GET', `/tables/${placed}`)).body, { id: placed, name: 'T2', status: 'available', space_id: space, order_id: null, column: 0, row: 0, shape: 'round', seats: 2 });

  t.same(await manager('PUT', `/tables/${plain}/place`, { column: 11, row: 7 }, { 'idempotency-key': 'place-1' }), { status: 200, body: { id: plain, message: 'Table placed successfully' }, etag: null });
  t.equal((await manager('PUT', `/tables/${plain}/place`, { column: 11, row: 7 }, { 'idempotency-key': 'place-1' })).status, 200, 'the same key answers again');
  t.same((await manager('PUT', `/tables/${plain}/shape`, { shape: 'rectangle', seats: 8 })).body, { id: plain, message: 'Table reshaped successfully' });
  const now = await waiter('GET', `/tables/${plain}`);
  t.same([now.body.column, now.body.row, now.body.shape, now.body.seats, now.etag], [11, 7, 'rectangle', 8, '"3"'], 'each change moves the version on');
  // A read-modify-write PUT of the whole table keeps working with the plan's fields in it.
  t.equal((await manager('PUT', `/tables/${plain}`, { ...now.body, name: 'T1b' }, { 'if-match': '"3"' })).status, 200);
  t.equal((await waiter('GET', `/tables/${plain}`)).body.column, 11, 'renamed in its space: still on its cell');
});

t.test('bad places, shapes and writers get a clear 4xx and change nothing', async (t) => {
  const { manager, waiter, space, table } = await floorPlan(t);
  const t1 = await table('T1', { column: 2, row: 3 });
  const t2 = await table('T2');
  t.same(await manager('PUT', `/tables/${t2}/place`, { column: 2, row: 3 }), {
    status: 409, body: { message: 'Table T1 already stands at column 2, row 3: pick a free cell', table_id: t1 }, etag: null,
  });
  t.same((await manager('POST', '/tables', { name: 'T3', space_id: space, column: 2, row: 3 })).status, 409, 'nor added onto a taken cell');
  t.same((await manager('GET', '/tables')).body.map((x: { name: string }) => x.name), ['T1', 'T2'], 'the refused table was not added');
  for (const body of [{ column: 12, row: 0 }, { column: 0, row: 8 }, { column: -1, row: 0 }, { column: 1.5, row: 0 }, { column: 1 }, {}, { column: '1', row: 0, x: 1 }]) {
    t.equal((await manager('PUT', `/tables/${t2}/place`, body)).status, 400, JSON.stringify(body));
  }
  for (const body of [{ shape: 'oval', seats: 2 }, { shape: 'round', seats: 0 }, { shape: 'round', seats: 41 }, { shape: 'round' }]) {
    t.equal((await manager('PUT', `/tables/${t2}/shape`, body)).status, 400, JSON.stringify(body));
  }
  const half = await manager('POST', '/tables', { name: 'T4', space_id: space, column: 1 });
  t.same([half.status, half.body.errors], [400, [{ field: 'row', message: 'must be given with column' }]]);
  t.same((await manager('PUT', `/tables/${UNKNOWN}/place`, { column: 5, row: 5 })).status, 404);
  t.same((await manager('PUT', `/tables/${UNKNOWN}/shape`, { shape: 'round', seats: 2 })).status, 404);
  t.same((await waiter('PUT', `/tables/${t2}/place`, { column: 5, row: 5 })).status, 403, 'waiters read the plan, managers draw it');
  t.same((await waiter('PUT', `/tables/${t2}/shape`, { shape: 'round', seats: 2 })).status, 403);
  t.same(Object.keys((await manager('GET', `/tables/${t2}`)).body), ['id', 'name', 'status', 'space_id', 'order_id'], 'still unplaced');
});

t.test('a burst of moves onto one free cell: exactly one table lands', async (t) => {
  const { manager, table } = await floorPlan(t);
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) ids.push(await table(`T${i}`));
  const answers = await Promise.all(ids.map((id) => manager('PUT', `/tables/${id}/place`, { column: 4, row: 4 })));
  t.same(answers.map((a) => a.status).sort(), [200, 409, 409, 409, 409, 409]);
  const winner = ids[answers.findIndex((a) => a.status === 200)];
  const there = ((await manager('GET', '/tables')).body as Array<{ id: string; column?: number }>).filter((x) => x.column === 4);
  t.same(there.map((x) => x.id), [winner]);
});

t.test('sections: drawn with tables and a waiter, read by everyone, changed, emptied by a removed table, removed', async (t) => {
  const { manager, waiter, waiterId, space, table } = await floorPlan(t);
  const [t1, t2] = [await table('T1', { column: 0, row: 0 }), await table('T2', { column: 1, row: 0 })];
  t.equal((await waiter('GET', '/sections')).status, 204);
  const drawn = await manager('POST', '/sections', { name: ' Window ', space_id: space, table_ids: [t1], waiter_id: waiterId }, { 'idempotency-key': 'window' });
  t.equal(drawn.status, 201);
  const id = drawn.body.id as string;
  t.same((await manager('POST', '/sections', { name: ' Window ', space_id: space, table_ids: [t1], waiter_id: waiterId }, { 'idempotency-key': 'window' })).body, drawn.body, 'replayed');
  t.same((await waiter('GET', '/sections')).body, [{ id, name: 'Window', space_id: space, table_ids: [t1], waiter_id: waiterId }]);

  const taken = await manager('POST', '/sections', { name: 'Door', space_id: space, table_ids: [t2, t1], waiter_id: null });
  t.same([taken.status, taken.body.message], [409, 'Table T1 is already in section Window: take it out there first']);
  const hall = (await manager('POST', '/spaces', { name: 'Hall' })).body.id;
  const stranger = await manager('POST', '/sections', { name: 'Bar', space_id: hall, table_ids: [t1], waiter_id: UNKNOWN });
  t.same([stranger.status, stranger.body.errors.map((e: { field: string }) => e.field)], [400, ['waiter_id']], 'an unknown waiter');
  const wrongSpace = await manager('POST', '/sections', { name: 'Bar', space_id: hall, table_ids: [t1], waiter_id: null });
  t.same([wrongSpace.status, wrongSpace.body.errors.map((e: { field: string }) => e.field)], [400, ['table_ids']]);
  t.equal((await manager('POST', '/sections', { name: 'Bar', space_id: UNKNOWN, table_ids: [], waiter_id: null })).status, 400);
  t.equal((await manager('POST', '/sections', { name: '', space_id: space, table_ids: [], waiter_id: null })).status, 400);
  t.equal((await waiter('POST', '/sections', { name: 'Mine', space_id: space, table_ids: [], waiter_id: waiterId })).status, 403);
  t.equal((await waiter('GET', '/sections')).body.length, 1, 'nothing half-written');

  t.equal((await manager('PUT', `/sections/${id}`, { name: 'Window', table_ids: [t1, t2], waiter_id: null }, { 'if-match': '"1"' })).status, 200);
  t.equal((await manager('PUT', `/sections/${id}`, { name: 'Window', table_ids: [t1], waiter_id: null }, { 'if-match': '"1"' })).status, 412);
  t.equal((await manager('PUT', `/sections/${UNKNOWN}`, { name: 'W', table_ids: [], waiter_id: null })).status, 404);
  await manager('DELETE', `/tables/${t2}`);
  const one = await waiter('GET', `/sections/${id}`);
  t.same([one.body.table_ids, one.body.waiter_id, one.etag], [[t1], null, '"3"'], 'a removed table leaves its section');

  // A removal from a screen that read the section before the table left it: 412, and the section stays.
  const stale = await manager('DELETE', `/sections/${id}`, undefined, { 'if-match': '"2"' });
  t.same([stale.status, stale.body.message], [412, STALE], 'removed over a change made since');
  t.equal((await waiter('GET', `/sections/${id}`)).status, 200, 'nothing removed');
  t.same((await manager('DELETE', `/sections/${id}`, undefined, { 'if-match': '"3"', 'idempotency-key': 'rm-window' })).body, { id, message: 'Section deleted successfully' });
  t.equal((await manager('DELETE', `/sections/${id}`, undefined, { 'if-match': '"3"', 'idempotency-key': 'rm-window' })).status, 200, 'a retry answers the same');
  t.equal((await waiter('GET', `/sections/${id}`)).status, 404);
  t.equal((await manager('DELETE', `/sections/${id}`)).status, 404);
});
