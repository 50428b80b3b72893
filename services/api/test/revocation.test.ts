import t from 'tap';
import { REFRESH_REUSE_GRACE_MS } from '@comanda/domain';
import { ADMIN, cookieHeader, testApp } from './harness.js';

/** Issue 18, items 2 and 3: revocation takes effect on the next request, and refresh cannot be replayed. */

const accessOnly = (cookie: string) => cookie.split('; ').filter((c) => c.startsWith('accessToken=')).join('; ');

t.test('after logout the access token stops working at once', async (t) => {
  const { app, close, login } = await testApp();
  t.teardown(close);
  const cookie = await login('admin', ADMIN.pin);
  t.equal((await app.inject({ method: 'GET', url: '/users', headers: { cookie } })).statusCode, 200);
  t.equal((await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie } })).statusCode, 200);
  const after = await app.inject({ method: 'GET', url: '/users', headers: { cookie: accessOnly(cookie) } });
  t.same([after.statusCode, after.json()], [401, { message: 'Unauthorized' }], 'a copy of the access token kept after logout');
  const other = await login('admin', ADMIN.pin);
  t.equal((await app.inject({ method: 'GET', url: '/users', headers: { cookie: other } })).statusCode, 200, 'other sessions are untouched');
});

t.test('a deleted user is out at once; a demoted one loses the rights at once', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  const admin = await h.as('admin');
  const manager = await h.as('manager');
  const managerId = (await h.app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: manager } })).json().id;
  t.equal((await h.app.inject({ method: 'GET', url: '/users', headers: { cookie: manager } })).statusCode, 200);
  const demoted = await h.app.inject({ method: 'PUT', url: `/users/${managerId}`, headers: { cookie: admin }, payload: { role: 'waiter' } });
  t.equal(demoted.statusCode, 200);
  const denied = await h.app.inject({ method: 'GET', url: '/users', headers: { cookie: manager } });
  t.same([denied.statusCode, denied.json()], [403, { message: 'Unauthorized API access' }], 'the role comes from the roster, not the token');
  t.equal((await h.app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: manager } })).json().role, 'waiter');
  t.equal((await h.app.inject({ method: 'DELETE', url: `/users/${managerId}`, headers: { cookie: admin } })).statusCode, 200);
  const gone = await h.app.inject({ method: 'GET', url: '/orders/status/pending', headers: { cookie: manager } });
  t.same([gone.statusCode, gone.json()], [401, { message: 'Unauthorized' }], 'a deleted user gets 401 on the next request');
  t.equal((await h.app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: manager } })).statusCode, 401);
});

t.test('a session revoked by a reused refresh token ends its access tokens too', async (t) => {
  const { app, close, login, clock } = await testApp();
  t.teardown(close);
  const first = await login('admin', ADMIN.pin);
  const rotated = await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: first } });
  t.equal(rotated.statusCode, 200);
  const current = cookieHeader(rotated.cookies);
  t.equal((await app.inject({ method: 'GET', url: '/users', headers: { cookie: current } })).statusCode, 200);
  clock.now += REFRESH_REUSE_GRACE_MS + 1_000;
  t.equal((await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: first } })).statusCode, 401, 'the stolen copy, past the grace');
  t.equal((await app.inject({ method: 'GET', url: '/users', headers: { cookie: current } })).statusCode, 401, 'the live access token is revoked with its session');
});

t.test('refresh and logout ignore Idempotency-Key: a rotated-out token plus its old key still revokes', async (t) => {
  const { app, close, login, clock } = await testApp();
  t.teardown(close);
  const first = await login('admin', ADMIN.pin);
  const key = { 'idempotency-key': 'refresh-1' };
  const rotated = await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: first, ...key } });
  t.equal(rotated.statusCode, 200);
  const current = cookieHeader(rotated.cookies);
  clock.now += REFRESH_REUSE_GRACE_MS + 1_000;
  const replay = await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: first, ...key } });
  t.same([replay.statusCode, replay.json()], [401, { message: 'Unauthorized' }], 'not answered as a retry');
  t.notOk(replay.cookies.some((c) => c.value !== ''), 'no tokens handed out');
  t.equal((await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: current } })).statusCode, 401, 'the session is revoked: the real client must sign in again');

  const again = await login('admin', ADMIN.pin);
  const k2 = { 'idempotency-key': 'refresh-2' };
  const r1 = await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: again, ...k2 } });
  const r2 = await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: cookieHeader(r1.cookies), ...k2 } });
  t.equal(r2.statusCode, 200, 'the same key on the next generation is a fresh refresh, not a replay');
  const bad = await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: cookieHeader(r2.cookies), 'idempotency-key': '\u0001bad' } });
  t.equal(bad.statusCode, 200, 'logout does not even read the key');
  t.equal((await app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: cookieHeader(r2.cookies) } })).statusCode, 401);
});
