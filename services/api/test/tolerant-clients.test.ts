import t from 'tap';
import { billsService } from './bills-helpers.js';

/** Issue 42: what ordinary clients send — a JSON content type on body-less requests, whole records PUT back. */

t.test('a body-less POST or DELETE sent with Content-Type: application/json and an empty body has no body', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const json = { 'content-type': 'application/json' };
  t.equal((await s.admin('POST', '/stations', { name: 'Cocina' })).status, 201);
  const o = await s.orderWith(['pastor']);
  const fire = await s.app.inject({ method: 'POST', url: `/orders/${o.id}/fire`, headers: { cookie: s.cookies.waiter, ...json }, payload: '' });
  t.equal(fire.statusCode, 200, fire.body);
  const del = await s.app.inject({ method: 'DELETE', url: `/categories/${s.r.category}`, headers: { cookie: s.cookies.admin, ...json } });
  t.not(del.statusCode, 400, 'a delete is not "body is not valid JSON"');
  const logout = await s.app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: s.cookies.manager, ...json }, payload: '   ' });
  t.equal(logout.statusCode, 200, 'whitespace is no body either');
  const broken = await s.app.inject({ method: 'POST', url: '/categories', headers: { cookie: s.cookies.admin, ...json }, payload: '{"name":' });
  t.match([broken.statusCode, broken.json()], [400, { errors: [{ field: 'body', message: 'is not valid JSON' }] }], 'malformed JSON is still refused');
  const missing = await s.app.inject({ method: 'POST', url: '/categories', headers: { cookie: s.cookies.admin, ...json }, payload: '' });
  t.equal(missing.statusCode, 400, 'a route that needs a body still says so');
});

t.test('PUT the record as GET answered it: read-only fields equal to the stored ones are ignored, different ones are 400', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const edit = async (path: string, change: Record<string, unknown>, role: 'admin' | 'waiter' = 'admin') => {
    const got = (await s.as(role)('GET', path)).body as Record<string, unknown>;
    return s.as(role)('PUT', path, { ...got, ...change });
  };
  const table = await edit(`/tables/${s.r.tables.t2}`, { name: 'Terraza 2' });
  t.equal(table.status, 200, JSON.stringify(table.body));
  t.equal((await s.admin('GET', `/tables/${s.r.tables.t2}`)).body.name, 'Terraza 2');
  t.equal((await edit(`/dishes/${s.r.dishes.pastor}`, { price: 26.5 })).status, 200, 'a dish');
  t.equal((await edit(`/categories/${s.r.category}`, { name: 'Tacos' })).status, 200, 'a category');
  const user = (await s.admin('GET', '/users')).body.find((u: { name: string }) => u.name === 'kitchen-1');
  t.equal((await edit(`/users/${user.id}`, { role: 'kitchen' })).status, 200, 'a user (created_at sent back)');
  const o = await s.orderWith(['pastor', 'agua']);
  const order = await edit(`/orders/${o.id}`, { waiter: 'Beto' }, 'waiter');
  t.equal(order.status, 200, `an order, its total and dates sent back: ${JSON.stringify(order.body)}`);
  const line = ((await s.waiter('GET', `/orders/${o.id}/dishes`)).body as Array<Record<string, unknown>>)[0]!;
  t.equal((await s.waiter('PUT', `/orders/${o.id}/dishes/${line.id}`, { ...line, notes: 'sin cebolla' })).status, 200, 'an order line');

  const changedId = await edit(`/tables/${s.r.tables.t2}`, { id: '00000000-0000-4000-8000-000000000000' });
  t.same([changedId.status, changedId.body], [400, { message: 'Validation failed', errors: [{ field: 'id', message: 'is read-only and differs from the stored value' }] }]);
  const changedLine = await s.waiter('PUT', `/orders/${o.id}/dishes/${line.id}`, { ...line, order_id: s.r.tables.t1 });
  t.match([changedLine.status, changedLine.body], [400, { errors: [{ field: 'order_id' }] }]);
  const unknown = await edit(`/tables/${s.r.tables.t2}`, { colour: 'blue' });
  t.match([unknown.status, unknown.body], [400, { errors: [{ field: 'colour' }] }], 'a field the resource does not have is still refused');
});
