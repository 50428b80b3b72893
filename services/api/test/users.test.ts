import t from 'tap';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { STAFF_STREAM, roster } from '@comanda/domain';
import { bootstrapFirstAdmin } from '../src/index.js';
import { ADMIN, testApp } from './harness.js';

t.test('admins and managers manage staff; responses never carry hashes', async (t) => {
  const { app, close, as, login } = await testApp();
  t.teardown(close);
  const admin = await as('admin');
  const created = await app.inject({ method: 'POST', url: '/users', headers: { cookie: admin }, payload: { name: ' Rosa ', pin: '5555', role: 'waiter' } });
  t.equal(created.statusCode, 201);
  const { id, message } = created.json();
  t.equal(message, 'User added successfully');
  t.equal(created.headers.location, `/users/${id}`);

  const one = await app.inject({ method: 'GET', url: `/users/${id}`, headers: { cookie: admin } });
  t.match(one.json(), { id, name: 'Rosa', role: 'waiter', created_at: /^\d{4}-\d\d-\d\dT/ });
  t.equal(one.headers.etag, '"1"');
  const list = await app.inject({ method: 'GET', url: '/users', headers: { cookie: admin } });
  t.same(list.json().map((u: { name: string }) => u.name), ['admin', 'Rosa']);
  for (const body of [one.body, list.body]) t.notMatch(body, /pin|hash|token|password/i);

  t.ok(await login('rosa', '5555'), 'the new user can log in (name ignoring case)');
  const dup = await app.inject({ method: 'POST', url: '/users', headers: { cookie: admin }, payload: { name: 'ROSA', pin: '1111', role: 'kitchen' } });
  t.same([dup.statusCode, dup.json()], [409, { message: 'A user named ROSA already exists' }]);

  const renameWithoutPin = await app.inject({ method: 'PUT', url: `/users/${id}`, headers: { cookie: admin }, payload: { name: 'Rosa María' } });
  t.same([renameWithoutPin.statusCode, renameWithoutPin.json().errors[0].field], [400, 'pin']);
  const renamed = await app.inject({ method: 'PUT', url: `/users/${id}`, headers: { cookie: admin, 'if-match': '"1"' }, payload: { name: 'Rosa María', pin: '6666', role: 'manager' } });
  t.same([renamed.statusCode, renamed.json()], [200, { id, message: 'User updated successfully' }]);
  t.ok(await login('Rosa María', '6666'), 'PIN re-hashed with the new name');
  const stale = await app.inject({ method: 'PUT', url: `/users/${id}`, headers: { cookie: admin, 'if-match': '"1"' }, payload: { role: 'waiter' } });
  t.equal(stale.statusCode, 412);
  t.equal((await app.inject({ method: 'GET', url: `/users/${id}`, headers: { cookie: admin } })).json().role, 'manager');

  const deleted = await app.inject({ method: 'DELETE', url: `/users/${id}`, headers: { cookie: admin } });
  t.same([deleted.statusCode, deleted.json()], [200, { id, message: 'User deleted successfully' }]);
  t.same([(await app.inject({ method: 'GET', url: `/users/${id}`, headers: { cookie: admin } })).body], ['"Resource not found"']);
  t.equal((await app.inject({ method: 'DELETE', url: `/users/${id}`, headers: { cookie: admin } })).statusCode, 404);
  t.equal((await app.inject({ method: 'GET', url: '/users/not-a-uuid', headers: { cookie: admin } })).body, '"Missing or malformed ID"');
});

t.test('the last admin can be neither deleted nor demoted', async (t) => {
  const { app, close, as } = await testApp();
  t.teardown(close);
  const admin = await as('admin');
  const me = (await app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: admin } })).json();
  const del = await app.inject({ method: 'DELETE', url: `/users/${me.id}`, headers: { cookie: admin } });
  t.same([del.statusCode, del.json()], [409, { message: 'The last admin cannot be deleted' }]);
  const demote = await app.inject({ method: 'PUT', url: `/users/${me.id}`, headers: { cookie: admin }, payload: { role: 'waiter' } });
  t.same([demote.statusCode, demote.json()], [409, { message: 'The last admin cannot be demoted' }]);
  const second = await app.inject({ method: 'POST', url: '/users', headers: { cookie: admin }, payload: { name: 'Second', pin: '1212', role: 'admin' } });
  t.equal((await app.inject({ method: 'DELETE', url: `/users/${second.json().id}`, headers: { cookie: admin } })).statusCode, 200);
});

t.test('two admins removing each other at once: one admin always remains', async (t) => {
  const { app, close, login, commands } = await testApp();
  t.teardown(close);
  let actor = { name: ADMIN.name, pin: ADMIN.pin };
  for (let round = 0; round < 10; round++) {
    // Each round is run by whichever admin survived the last one (deleted users are signed out at once).
    const cookie = await login(actor.name, actor.pin);
    const other = await app.inject({ method: 'POST', url: '/users', headers: { cookie }, payload: { name: `Boss ${round}`, pin: '1212', role: 'admin' } });
    t.equal(other.statusCode, 201, `round ${round}: second admin created`);
    const { state } = await commands.state(roster, STAFF_STREAM);
    const admins = Object.values(state.members).filter((m) => m.role === 'admin').map((m) => m.id);
    t.equal(admins.length, 2);
    const results = await Promise.all(admins.map((id) => app.inject({ method: 'DELETE', url: `/users/${id}`, headers: { cookie } })));
    const codes = results.map((r) => r.statusCode).sort();
    // The loser meets the last-admin rule (409), or, when the actor deleted itself first, is signed out (401).
    t.ok(codes[0] === 200 && (codes[1] === 409 || codes[1] === 401), `round ${round}: exactly one delete wins (${codes})`);
    const after = (await commands.state(roster, STAFF_STREAM)).state;
    const left = Object.values(after.members).filter((m) => m.role === 'admin');
    t.equal(left.length, 1, `round ${round}: one admin remains`);
    actor = left[0]!.name === actor.name ? actor : { name: left[0]!.name, pin: '1212' };
  }
});

t.test('managers cannot touch admins; waiters and kitchen cannot manage staff', async (t) => {
  const { app, close, as } = await testApp();
  t.teardown(close);
  const manager = await as('manager');
  const admin = await as('admin');
  const adminId = (await app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: admin } })).json().id;
  const forbidden = { message: 'Unauthorized API access' };
  const makeAdmin = await app.inject({ method: 'POST', url: '/users', headers: { cookie: manager }, payload: { name: 'Sneaky', pin: '1234', role: 'admin' } });
  t.same([makeAdmin.statusCode, makeAdmin.json()], [403, forbidden]);
  t.equal((await app.inject({ method: 'DELETE', url: `/users/${adminId}`, headers: { cookie: manager } })).statusCode, 403);
  t.equal((await app.inject({ method: 'PUT', url: `/users/${adminId}`, headers: { cookie: manager }, payload: { pin: '0000' } })).statusCode, 403);
  const waiter = await app.inject({ method: 'POST', url: '/users', headers: { cookie: manager }, payload: { name: 'Paco', pin: '1234', role: 'waiter' } });
  t.equal(waiter.statusCode, 201, 'a manager adds a waiter');
  const promote = await app.inject({ method: 'PUT', url: `/users/${waiter.json().id}`, headers: { cookie: manager }, payload: { role: 'admin' } });
  t.equal(promote.statusCode, 403);
  for (const role of ['waiter', 'kitchen'] as const) {
    const cookie = await as(role);
    for (const [method, url] of [['GET', '/users'], ['POST', '/users'], ['GET', `/users/${adminId}`], ['PUT', `/users/${adminId}`], ['DELETE', `/users/${adminId}`]] as const) {
      const res = await app.inject({ method, url, headers: { cookie }, payload: method === 'POST' || method === 'PUT' ? { name: 'X', pin: '1234', role: 'waiter' } : undefined });
      t.same([res.statusCode, res.json()], [403, forbidden], `${role} ${method} ${url}`);
    }
  }
  for (const [method, url] of [['GET', '/users'], ['POST', '/users'], ['DELETE', `/users/${adminId}`]] as const) {
    const res = await app.inject({ method, url });
    t.same([res.statusCode, res.json()], [401, { message: 'Unauthorized' }], `anonymous ${method} ${url}`);
  }
});

t.test('Idempotency-Key: a retried POST /users creates one user and answers the same', async (t) => {
  const { app, close, as } = await testApp();
  t.teardown(close);
  const admin = await as('admin');
  const send = (name: string) =>
    app.inject({ method: 'POST', url: '/users', headers: { cookie: admin, 'idempotency-key': 'hire-lola' }, payload: { name, pin: '1234', role: 'kitchen' } });
  const [a, b] = await Promise.all([send('Lola'), send('Lola')]);
  t.same([a.statusCode, b.statusCode], [201, 201]);
  t.same(a.json(), b.json());
  const users = (await app.inject({ method: 'GET', url: '/users', headers: { cookie: admin } })).json();
  t.equal(users.filter((u: { name: string }) => u.name === 'Lola').length, 1);
  const other = await send('Lolita');
  t.equal(other.statusCode, 409, 'the same key with another body is refused');
});

t.test('validation: names, PINs and roles', async (t) => {
  const { app, close, as } = await testApp();
  t.teardown(close);
  const admin = await as('admin');
  for (const payload of [
    { name: '', pin: '1234', role: 'waiter' },
    { name: 'x'.repeat(65), pin: '1234', role: 'waiter' },
    { name: 'Ok', pin: '123', role: 'waiter' },
    { name: 'Ok', pin: '1234567890123', role: 'waiter' },
    { name: 'Ok', pin: '12a4', role: 'waiter' },
    { name: 'Ok', pin: '1234', role: 'owner' },
    { pin: '1234', role: 'waiter' },
  ]) {
    const res = await app.inject({ method: 'POST', url: '/users', headers: { cookie: admin }, payload });
    t.same([res.statusCode, res.json().message], [400, 'Validation failed'], JSON.stringify(payload));
  }
});

t.test('two replicas bootstrapping at once create one admin', async (t) => {
  const store = new MemoryEventStore();
  const settings = { adminName: 'admin', adminPin: '1234', walletPassword: 'w' };
  const results = await Promise.all([
    bootstrapFirstAdmin(new CommandHandler(store), 'k'.repeat(64), settings, () => {}),
    bootstrapFirstAdmin(new CommandHandler(store), 'k'.repeat(64), settings, () => {}),
  ]);
  t.same(results.filter(Boolean).length, 1);
  const { state } = await new CommandHandler(store).state(roster, STAFF_STREAM);
  t.equal(Object.keys(state.members).length, 1);
});
