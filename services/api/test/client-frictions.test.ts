import t from 'tap';
import { testApp } from './harness.js';

/** Issue 58, client frictions: what ordinary HTTP clients send, over a real connection. */

async function served() {
  const s = await testApp();
  const base = await s.app.listen({ host: '127.0.0.1', port: 0 });
  const admin = await s.as('admin');
  const send = async (method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) => {
    const res = await fetch(base + path, { method, headers: { cookie: admin, ...init.headers }, ...(init.body !== undefined ? { body: init.body } : {}) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch { /* not JSON */ }
    return { status: res.status, body };
  };
  const json = (method: string, path: string, value: unknown) => send(method, path, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
  return { ...s, base, send, json };
}

t.test('an unknown route answers 404 whatever the headers, a JSON content type without a body included', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const json = { 'content-type': 'application/json' };
  t.match(await s.send('DELETE', '/no-such-route', { headers: json }), { status: 404, body: { message: 'Route DELETE /no-such-route not found' } });
  t.match(await s.send('POST', '/no-such-route', { headers: json }), { status: 404 }, 'a POST likewise');
  t.match(await s.send('POST', '/no-such-route', { headers: json, body: '{"broken":' }), { status: 404 }, 'a broken body on no route: the route is what is missing');
  t.match(await s.send('POST', '/no-such-route', { body: 'hello' }), { status: 404 }, 'a text body');
  t.match(await s.send('PUT', '/no-such-route', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' }), { status: 404 }, 'a form');
  t.match(await s.send('POST', '/no-such-route', { headers: { 'content-type': 'not a media type' }, body: 'x' }), { status: 404 }, 'a malformed Content-Type');
  t.match(await s.send('DELETE', '/no-such-route'), { status: 404 }, 'no headers at all, as before');
});

t.test('a value outside a closed set is one error listing the allowed values', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const chef = await s.json('POST', '/users', { name: 'Chef', pin: '2580', role: 'chef' });
  t.same(chef, { status: 400, body: { message: 'Validation failed', errors: [{ field: 'role', message: 'must be one of admin, manager, waiter, kitchen' }] } });
  const table = await s.json('POST', '/tables', { name: 'T9', status: 'dirty', space_id: '00000000-0000-4000-8000-000000000000' });
  t.same(table.body, { message: 'Validation failed', errors: [{ field: 'status', message: 'must be one of available, occupied, reserved' }] }, 'an enum, as before');
});

t.test('a JSON body sent as text/plain (fetch with a string body) is 415, saying what to send', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const plain = await s.send('POST', '/spaces', { body: JSON.stringify({ name: 'Barra' }) });
  t.equal(plain.status, 415);
  t.match(plain.body, { message: /send the body as application\/json/i });
  t.match(await s.send('POST', '/spaces', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Barra' }), { status: 415, body: { message: /application\/json/ } }, 'a form likewise');
  t.equal((await s.json('POST', '/spaces', { name: 'Barra' })).status, 201, 'JSON as JSON is fine');
  t.equal((await s.send('POST', '/auth/logout', { body: '' })).status, 200, 'an empty text body is no body');
  t.equal((await s.send('POST', '/auth/logout', { body: 'bye' })).status, 200, 'a route that takes no body ignores one of any type');
});

t.test('null for an optional field is taken as the field left out; a field that may be null keeps its null', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const space = await s.json('POST', '/spaces', { name: 'Terraza' });
  t.equal(space.status, 201, JSON.stringify(space.body));
  const spaceId = (space.body as { id: string }).id;
  const table = await s.json('POST', '/tables', { name: 'T1', status: null, space_id: spaceId, order_id: null });
  t.equal(table.status, 201, JSON.stringify(table.body));
  const got = await s.send('GET', `/tables/${(table.body as { id: string }).id}`);
  t.match(got.body, { status: 'available', order_id: null }, 'status took its default; order_id (nullable) kept null');
  const user = await s.json('POST', '/users', { name: 'Rosa', pin: '2580', role: 'waiter' });
  t.equal(user.status, 201, JSON.stringify(user.body));
  const userId = (user.body as { id: string }).id;
  const promoted = await s.json('PUT', `/users/${userId}`, { name: null, pin: null, role: 'manager' });
  t.equal(promoted.status, 200, JSON.stringify(promoted.body));
  t.match((await s.send('GET', `/users/${userId}`)).body, { name: 'Rosa', role: 'manager' }, 'null left the name (and the PIN) as they were');
  const required = await s.json('POST', '/tables', { name: null, space_id: spaceId });
  t.match(required, { status: 400, body: { message: 'Validation failed', errors: [{ field: 'name' }] } }, 'a required field is still required');
});
