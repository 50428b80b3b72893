import t from 'tap';
import { MemoryEventStore } from '@comanda/event-store';
import { ADMIN, testApp } from './harness.js';

/**
 * Issue 58: two refreshes with one refresh token (two tabs, a retry after a lost answer) both get the
 * pair the first one got, within a short grace; a reuse after it (or of an older token) still revokes.
 */

async function served(log?: MemoryEventStore) {
  const s = await testApp({}, {}, undefined, {}, log);
  const base = await s.app.listen({ host: '127.0.0.1', port: 0 });
  const post = async (path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: await res.json() as Record<string, unknown>, cookies: res.headers.getSetCookie() };
  };
  const me = async (token: unknown) => (await fetch(`${base}/auth/me`, { headers: { authorization: `Bearer ${String(token)}` } })).status;
  const signIn = async () => (await post('/auth/token', { name: ADMIN.name, pin: ADMIN.pin })).body;
  return { ...s, base, post, me, signIn };
}

t.test('two refreshes racing with one refresh token both succeed with the same new pair', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const first = await s.signIn();
  const [a, b] = await Promise.all([0, 1].map(() => s.post('/auth/token/refresh', { refresh_token: first.refresh_token })));
  t.same([a!.status, b!.status], [200, 200], 'both answered');
  t.equal(a!.body.refresh_token, b!.body.refresh_token, 'one refresh token for both');
  t.equal(a!.body.access_token, b!.body.access_token, 'one access token for both');
  t.not(a!.body.refresh_token, first.refresh_token, 'rotated');
  t.equal(await s.me(a!.body.access_token), 200, 'the access token works');

  s.clock.now += 5_000;
  const retry = await s.post('/auth/token/refresh', { refresh_token: first.refresh_token });
  t.same([retry.status, retry.body.refresh_token, retry.body.access_token], [200, a!.body.refresh_token, a!.body.access_token], 'a retry within the grace: the same pair again');

  const next = await s.post('/auth/token/refresh', { refresh_token: a!.body.refresh_token });
  t.equal(next.status, 200, 'the new refresh token rotates on');
  t.equal(await s.me(next.body.access_token), 200);
  t.equal((await s.post('/auth/token/refresh', { refresh_token: first.refresh_token })).status, 401, 'a token two rotations back is a copy, grace or not');
  t.equal(await s.me(next.body.access_token), 401, 'and it revoked the session');
});

t.test('the rotated-out refresh token presented after the grace revokes the session', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const first = await s.signIn();
  const second = (await s.post('/auth/token/refresh', { refresh_token: first.refresh_token })).body;
  t.equal(await s.me(second.access_token), 200);
  s.clock.now += 11_000;
  const late = await s.post('/auth/token/refresh', { refresh_token: first.refresh_token });
  t.same([late.status, late.body], [401, { message: 'Unauthorized' }]);
  t.equal(await s.me(second.access_token), 401, 'the whole session is revoked');
  t.equal((await s.post('/auth/token/refresh', { refresh_token: second.refresh_token })).status, 401, 'its live refresh token too');
});

t.test('browsers: two tabs refreshing with one cookie both get the same new cookies', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const cookie = await s.login(ADMIN.name, ADMIN.pin);
  const results = await Promise.all([0, 1, 2].map(() => s.post('/auth/refresh', undefined, { cookie })));
  t.same(results.map((r) => r.status), [200, 200, 200]);
  const values = results.map((r) => r.cookies.map((c) => c.split(';')[0]).sort().join('; '));
  t.equal(new Set(values).size, 1, 'the same cookies for every tab');
  const res = await fetch(`${s.base}/auth/me`, { headers: { cookie: values[0]! } });
  t.equal(res.status, 200);
});

t.test('two replicas over one log: the refresh that loses the race is answered the winner\'s pair', async (t) => {
  const log = new MemoryEventStore();
  const one = await served(log);
  t.teardown(one.close);
  const two = await served(log);
  t.teardown(two.close);
  const first = await one.signIn();
  const [a, b] = await Promise.all([one, two].map((replica) => replica.post('/auth/token/refresh', { refresh_token: first.refresh_token })));
  t.same([a!.status, b!.status], [200, 200], 'both answered');
  t.same([b!.body.access_token, b!.body.refresh_token], [a!.body.access_token, a!.body.refresh_token], 'the same pair from either replica');
  t.equal(await two.me(a!.body.access_token), 200);
  t.equal(await one.me(b!.body.access_token), 200);
});
