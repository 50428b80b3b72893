import t from 'tap';
import { type OrderStatus, order as orderDecider, orderStream, ownAuthority } from '@comanda/domain';
import { FLOOR_STREAM, tableStream } from '@comanda/domain';
import { seat, unseat } from '@comanda/workflows';
import { testApp } from './harness.js';
import { requests } from './requests.js';

const UNKNOWN = '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a';
const ORDER_A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const ORDER_B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

async function floorApp(t: Tap.Test) {
  const h = await testApp();
  t.teardown(h.close);
  /** Brings an order's own stream to a status (placing it first): only whether it is open matters to the floor. */
  const order = async (id: string, status: OrderStatus) => {
    const stream = orderStream(id);
    if (!(await h.commands.state(orderDecider, stream)).state.orderId) {
      await h.commands.handle(orderDecider, stream, { type: 'placeOrder', orderId: id, userId: id, tableId: null, waiter: 'W', at: 1, lines: [], authority: ownAuthority('test-manager', 'manager') });
    }
    const path: OrderStatus[] = status === 'cancelled' ? ['cancelled'] : ['preparing', 'ready', 'completed'].slice(0, ['pending', 'preparing', 'ready', 'completed'].indexOf(status)) as OrderStatus[];
    for (const to of path) {
      const current = (await h.commands.state(orderDecider, stream)).state.status;
      if (current !== to && current !== 'completed' && current !== 'cancelled') await h.commands.handle(orderDecider, stream, { type: 'changeStatus', to, at: 2 });
    }
  };
  return { ...h, order, ...requests(h.app, await h.as('admin')) };
}

t.test('spaces: add, list, read with ETag, rename, delete', async (t) => {
  const { get, post, put, del } = await floorApp(t);
  t.same([(await get('/spaces')).statusCode, (await get('/spaces')).body], [204, '']);
  const added = await post('/spaces', { name: ' Terrace ' });
  const id = added.json().id;
  t.same([added.statusCode, added.json(), added.headers.location], [201, { id, message: 'Space added successfully' }, `/spaces/${id}`]);
  await post('/spaces', { name: 'Bar' });
  t.same((await get('/spaces')).json().map((s: { name: string }) => s.name), ['Bar', 'Terrace']);
  const one = await get(`/spaces/${id}`);
  t.same([one.json(), one.headers.etag], [{ id, name: 'Terrace' }, '"1"']);

  t.same((await put(`/spaces/${id}`, { name: 'Patio' }, { 'if-match': '"1"' })).json(), { id, message: 'Space updated successfully' });
  t.equal((await put(`/spaces/${id}`, { name: 'Garden' }, { 'if-match': '"1"' })).statusCode, 412);
  t.equal((await get(`/spaces/${id}`)).json().name, 'Patio');

  const table = (await post('/tables', { name: 'T1', space_id: id })).json().id;
  const refused = await del(`/spaces/${id}`);
  t.same([refused.statusCode, refused.json()], [409, { message: 'Space Patio still has 1 table: move or delete them first', table_count: 1 }]);
  await del(`/tables/${table}`);
  t.same((await del(`/spaces/${id}`)).json(), { id, message: 'Space deleted successfully' });
  t.equal((await get(`/spaces/${id}`)).statusCode, 404);

  for (const body of [{}, { name: '  ' }, { name: 'y'.repeat(101) }]) t.equal((await post('/spaces', body)).statusCode, 400);
  for (const res of [await get('/spaces/x'), await put('/spaces/x', { name: 'A' }), await del('/spaces/x')]) t.same([res.statusCode, res.body], [400, '"Missing or malformed ID"']);
  for (const res of [await get(`/spaces/${UNKNOWN}`), await put(`/spaces/${UNKNOWN}`, { name: 'A' }), await del(`/spaces/${UNKNOWN}`)]) t.same([res.statusCode, res.body], [404, '"Resource not found"']);

  const first = await post('/spaces', { name: 'Hall' }, { 'idempotency-key': 'space-1' });
  const again = await post('/spaces', { name: 'Hall' }, { 'idempotency-key': 'space-1' });
  t.same(again.json(), first.json());
  t.equal((await get('/spaces')).json().filter((s: { name: string }) => s.name === 'Hall').length, 1);
});

t.test('tables: add, list, list by space, read with ETag, update, delete', async (t) => {
  const { get, post, put, del } = await floorApp(t);
  t.same([(await get('/tables')).statusCode, (await get('/tables')).body], [204, '']);
  const terrace = (await post('/spaces', { name: 'Terrace' })).json().id;
  const hall = (await post('/spaces', { name: 'Hall' })).json().id;
  const empty = await get(`/tables/by-space/${terrace}`);
  t.same([empty.statusCode, empty.body], [204, '']);
  t.same([(await get(`/tables/by-space/${UNKNOWN}`)).statusCode, (await get(`/tables/by-space/${UNKNOWN}`)).body], [404, '"Resource not found"']);
  t.same((await get('/tables/by-space/x')).body, '"Missing or malformed ID"');

  const added = await post('/tables', { name: 'T2', status: 'available', space_id: terrace, order_id: null });
  const t2 = added.json().id;
  t.same([added.statusCode, added.json(), added.headers.location], [201, { id: t2, message: 'Table added successfully' }, `/tables/${t2}`]);
  const t1 = (await post('/tables', { name: 'T1', space_id: terrace })).json().id;
  const window = (await post('/tables', { name: 'Window', status: 'reserved', space_id: hall })).json().id;

  t.same((await get('/tables')).json(), [
    { id: t1, name: 'T1', status: 'available', space_id: terrace, order_id: null },
    { id: t2, name: 'T2', status: 'available', space_id: terrace, order_id: null },
    { id: window, name: 'Window', status: 'reserved', space_id: hall, order_id: null },
  ]);
  t.same((await get(`/tables/by-space/${terrace}`)).json().map((x: { id: string }) => x.id), [t1, t2]);
  const one = await get(`/tables/${window}`);
  t.same([one.json().status, one.headers.etag], ['reserved', '"1"']);

  const moved = await put(`/tables/${t2}`, { name: 'Corner', status: 'reserved', space_id: hall, order_id: null }, { 'if-match': '"1"' });
  t.same([moved.statusCode, moved.json()], [200, { id: t2, message: 'Table updated successfully' }]);
  const after = await get(`/tables/${t2}`);
  t.same([after.json(), after.headers.etag], [{ id: t2, name: 'Corner', status: 'reserved', space_id: hall, order_id: null }, '"3"'], 'moved and reserved: two events');
  t.equal((await put(`/tables/${t2}`, { name: 'Corner', status: 'available', space_id: hall, order_id: null }, { 'if-match': '"1"' })).statusCode, 412);
  t.equal((await get(`/tables/${t2}`)).json().status, 'reserved');

  t.same((await del(`/tables/${t1}`)).json(), { id: t1, message: 'Table deleted successfully' });
  t.equal((await get(`/tables/${t1}`)).statusCode, 404);
  t.same((await get(`/tables/by-space/${terrace}`)).statusCode, 204);
});

t.test('tables: validation and conflicts', async (t) => {
  const { get, post, put, del, order } = await floorApp(t);
  const terrace = (await post('/spaces', { name: 'Terrace' })).json().id;
  const t1 = (await post('/tables', { name: 'T1', space_id: terrace })).json().id;
  const fields = async (res: Awaited<ReturnType<typeof post>>) => {
    t.same([res.statusCode, res.json().message], [400, 'Validation failed']);
    return res.json().errors.map((e: { field: string }) => e.field).sort();
  };
  t.same(await fields(await post('/tables', {})), ['name', 'space_id']);
  t.same(await fields(await post('/tables', { name: 'T9', space_id: UNKNOWN })), ['space_id']);
  t.same(await fields(await post('/tables', { name: 'T9', space_id: 'terrace' })), ['space_id']);
  t.same(await fields(await post('/tables', { name: 'T9', space_id: terrace, status: 'closed' })), ['status']);
  t.same(await fields(await post('/tables', { name: 'T9', space_id: terrace, status: 'occupied', order_id: 'x' })), ['order_id']);
  t.same(await fields(await post('/tables', { name: ' ', space_id: terrace })), ['name']);
  t.same(await fields(await put(`/tables/${t1}`, { name: 'T1', space_id: terrace })), ['order_id', 'status'], 'PUT replaces all four fields');

  const dup = await post('/tables', { name: 't1', space_id: terrace });
  t.same([dup.statusCode, dup.json()], [409, { message: 'A table named T1 already exists in space Terrace' }]);

  const noOrder = await post('/tables', { name: 'T9', status: 'occupied', space_id: terrace, order_id: ORDER_A });
  t.same(noOrder.json().errors, [{ field: 'order_id', message: 'must reference an existing order that is not completed or cancelled' }]);
  await order(ORDER_A, 'completed');
  t.same(await fields(await post('/tables', { name: 'T9', status: 'occupied', space_id: terrace, order_id: ORDER_A })), ['order_id']);
  await order(ORDER_B, 'pending');
  const notOccupied = await post('/tables', { name: 'T9', status: 'available', space_id: terrace, order_id: ORDER_B });
  t.same(notOccupied.json().errors, [{ field: 'status', message: 'must be occupied when order_id is set' }]);
  t.equal((await get('/tables')).json().length, 1, 'nothing was added');

  for (const res of [await get('/tables/x'), await put('/tables/x', {}), await del('/tables/x')]) t.same([res.statusCode, res.body], [400, '"Missing or malformed ID"']);
  const body = { name: 'T', status: 'available', space_id: terrace, order_id: null };
  for (const res of [await get(`/tables/${UNKNOWN}`), await put(`/tables/${UNKNOWN}`, body), await del(`/tables/${UNKNOWN}`)]) t.same([res.statusCode, res.body], [404, '"Resource not found"']);
});

t.test('tables: an active order keeps its table until it is finished', async (t) => {
  const { get, post, put, del, order } = await floorApp(t);
  const terrace = (await post('/spaces', { name: 'Terrace' })).json().id;
  await order(ORDER_A, 'preparing');
  await order(ORDER_B, 'pending');
  const seated = await post('/tables', { name: 'T1', status: 'occupied', space_id: terrace, order_id: ORDER_A });
  t.equal(seated.statusCode, 201);
  const id = seated.json().id;
  t.same((await get(`/tables/${id}`)).json(), { id, name: 'T1', status: 'occupied', space_id: terrace, order_id: ORDER_A });

  const refused = await del(`/tables/${id}`);
  t.same([refused.statusCode, refused.json()], [409, { message: 'Table T1 has an active order and cannot be deleted', order_id: ORDER_A }]);
  const taken = await put(`/tables/${id}`, { name: 'T1', status: 'occupied', space_id: terrace, order_id: ORDER_B });
  t.same([taken.statusCode, taken.json()], [409, { message: 'Table T1 already has an active order', order_id: ORDER_A }]);
  t.equal((await put(`/tables/${id}`, { name: 'T1', status: 'available', space_id: terrace, order_id: null })).statusCode, 409);
  t.equal((await put(`/tables/${id}`, { name: 'Terrace 1', status: 'occupied', space_id: terrace, order_id: ORDER_A })).statusCode, 200, 'renaming keeps the order');

  await order(ORDER_A, 'completed');
  const reseated = await put(`/tables/${id}`, { name: 'Terrace 1', status: 'occupied', space_id: terrace, order_id: ORDER_B });
  t.equal(reseated.statusCode, 200, 'a finished order no longer holds the table');
  t.equal((await get(`/tables/${id}`)).json().order_id, ORDER_B);
  t.equal((await del(`/tables/${id}`)).statusCode, 409);
  t.equal((await put(`/tables/${id}`, { name: 'Terrace 1', status: 'occupied', space_id: terrace, order_id: null })).statusCode, 409);

  const walkIn = await post('/tables', { name: 'T2', status: 'occupied', space_id: terrace, order_id: null });
  t.equal(walkIn.statusCode, 201, 'occupied without an order: a walk-in');
  t.equal((await del(`/tables/${walkIn.json().id}`)).statusCode, 200, 'and it has no active order to protect');
});

t.test('tables: the orders process seats and releases orders in the table\'s own stream', async (t) => {
  const { get, post, commands, projector, store } = await floorApp(t);
  const terrace = (await post('/spaces', { name: 'Terrace' })).json().id;
  const id = (await post('/tables', { name: 'T1', status: 'reserved', space_id: terrace })).json().id;
  const floorEvents = (await store.readStream(FLOOR_STREAM)).length;
  await seat(commands, id, ORDER_A, {});
  t.same((await store.readStream(tableStream(id))).map((e) => [e.type, e.data]), [['TableOccupied', { tableId: id, orderId: ORDER_A }]]);
  await t.rejects(seat(commands, id, ORDER_B, {}), { kind: 'conflict', details: { order_id: ORDER_A } });
  t.equal(await unseat(commands, id, ORDER_B, {}), null, 'another order\'s release changes nothing');
  const released = await unseat(commands, id, ORDER_A, {});
  t.equal((await store.readStream(FLOOR_STREAM)).length, floorEvents, 'the floor stream is not written');
  t.ok(await projector.waitFor(released!, 2000), 'the read model catches up');
  const table = await get(`/tables/${id}`);
  t.same([table.json().status, table.json().order_id, table.headers.etag], ['available', null, '"3"']);
});

t.test('tables seated by the older code (in the floor stream) stay seated, and are released, by the new', async (t) => {
  const { get, post, put, del, store, projector, commands } = await floorApp(t);
  const terrace = (await post('/spaces', { name: 'Terrace' })).json().id;
  const id = (await post('/tables', { name: 'T1', space_id: terrace })).json().id;
  // What the older code wrote when ORDER_A was seated: the occupancy in the floor stream itself.
  await commands.handle(orderDecider, orderStream(ORDER_A), { type: 'placeOrder', orderId: ORDER_A, userId: ORDER_A, tableId: id, waiter: 'W', at: 1, lines: [], authority: ownAuthority('test-manager', 'manager') });
  const floorHead = (await store.readStream(FLOOR_STREAM)).length - 1;
  const old = await store.append(FLOOR_STREAM, [{ id: crypto.randomUUID(), type: 'TableOccupied', data: { tableId: id, orderId: ORDER_A }, metadata: {} }], floorHead);
  t.ok(await projector.waitFor(old.position, 2000));
  const seated = await get(`/tables/${id}`);
  t.same([seated.json().status, seated.json().order_id, seated.headers.etag], ['occupied', ORDER_A, '"2"']);
  t.equal((await del(`/tables/${id}`)).statusCode, 409, 'a table held under the older code is not deleted');
  t.match((await put(`/tables/${id}`, { name: 'T1', status: 'available', space_id: terrace, order_id: null }, { 'if-match': '"2"' })).json(), { order_id: ORDER_A });
  // A rename pins the version of both streams together.
  t.equal((await put(`/tables/${id}`, { name: 'Window', status: 'occupied', space_id: terrace, order_id: ORDER_A }, { 'if-match': '"2"' })).statusCode, 200);
  t.equal((await get(`/tables/${id}`)).headers.etag, '"3"');
  const me = (await get('/auth/me')).json().id;
  const placed = await post('/orders', { user_id: me, table_id: id, waiter: 'W', status: 'pending', total: 0 });
  t.match([placed.statusCode, placed.json()], [409, { message: 'Table Window already has an active order' }], 'the table is held: no other order is seated there');
  // The order finishes; its release is decided in the table's own stream on what the older code recorded.
  await del(`/orders/${ORDER_A}`);
  const freed = await get(`/tables/${id}`);
  t.same([freed.json().status, freed.json().order_id, freed.headers.etag], ['available', null, '"4"']);
  t.equal((await del(`/tables/${id}`)).statusCode, 200);
});

t.test('the OpenAPI document states the table rules', async (t) => {
  const { app } = await floorApp(t);
  const spec = (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
  t.match(spec.paths['/tables'].post.description, /walk-in/);
  t.match(spec.paths['/tables/{id}'].put.description, /not completed or cancelled/);
  t.ok(spec.paths['/tables/by-space/{id}'].get.responses['404']);
  t.ok(spec.paths['/spaces/{id}'].delete.responses['409']);
  t.ok(spec.paths['/tables/{id}'].put.responses['412']);
});
