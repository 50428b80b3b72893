import t from 'tap';
import { REFRESH_REUSE_GRACE_MS } from '@comanda/domain';
import { ADMIN, testApp } from './harness.js';

/** Issue 42: bearer tokens for clients that are not browsers, with the cookies' rotation rules. */

t.test('sign in for tokens, call with Authorization: Bearer, refresh with rotation, reuse revokes, revoke ends', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  const post = (url: string, payload: object, headers: Record<string, string> = {}) => h.app.inject({ method: 'POST', url, payload, headers });
  const me = (token: string) => h.app.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${token}` } });
  const signed = await post('/auth/token', { name: ADMIN.name, pin: ADMIN.pin });
  t.equal(signed.statusCode, 200);
  t.notOk(signed.headers['set-cookie'], 'no cookie for a token client');
  const first = signed.json();
  t.match(first, { token_type: 'Bearer', expires_in: 60, refresh_expires_in: 2592000, user: { name: ADMIN.name, role: 'admin' } });
  t.equal((await me(first.access_token)).statusCode, 200);
  t.equal((await me('not-a-token')).statusCode, 401);
  t.equal((await h.app.inject({ method: 'GET', url: '/auth/me', headers: { authorization: 'Bearer' } })).statusCode, 401);
  t.equal((await me(first.refresh_token)).statusCode, 401, 'a refresh token is not an access token');
  t.equal((await post('/auth/token', { name: ADMIN.name, pin: '000000' })).statusCode, 401);

  const second = (await post('/auth/token/refresh', { refresh_token: first.refresh_token })).json();
  t.not(second.refresh_token, first.refresh_token, 'rotated');
  t.equal((await me(second.access_token)).statusCode, 200);
  h.clock.now += REFRESH_REUSE_GRACE_MS + 1_000; // within the grace it would get `second` again (refresh-grace.test.ts)
  const reuse = await post('/auth/token/refresh', { refresh_token: first.refresh_token });
  t.same([reuse.statusCode, reuse.json()], [401, { message: 'Unauthorized' }], 'a used refresh token presented again');
  t.equal((await me(second.access_token)).statusCode, 401, 'revokes the whole session at once');
  t.equal((await post('/auth/token/refresh', { refresh_token: second.refresh_token })).statusCode, 401);

  const third = (await post('/auth/token', { name: ADMIN.name, pin: ADMIN.pin })).json();
  t.equal((await post('/auth/token/revoke', { refresh_token: third.refresh_token })).statusCode, 200);
  t.equal((await me(third.access_token)).statusCode, 401, 'revoked');

  const cookie = await h.login(ADMIN.name, ADMIN.pin);
  t.equal((await h.app.inject({ method: 'GET', url: '/auth/me', headers: { cookie, authorization: 'Basic abc' } })).statusCode, 200, 'another scheme leaves the cookie in charge');
  t.equal((await h.app.inject({ method: 'GET', url: '/auth/me', headers: { cookie, authorization: 'Bearer expired.or.bad' } })).statusCode, 401, 'a bad bearer token is refused, not passed over');
});

t.test('token sign-in shares the login lockout', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  for (let i = 0; i < 5; i++) await h.app.inject({ method: 'POST', url: '/auth/login', payload: { name: ADMIN.name, pin: '000000' } });
  const locked = await h.app.inject({ method: 'POST', url: '/auth/token', payload: { name: ADMIN.name, pin: ADMIN.pin } });
  t.equal(locked.statusCode, 429);
});
