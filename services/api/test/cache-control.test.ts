import t from 'tap';
import { randomUUID } from 'node:crypto';
import { ADMIN, servedApp as served } from './harness.js';

/**
 * No shared cache or back button keeps staff data: every answer to a signed-in request, and every
 * answer that sets or clears a cookie, says `Cache-Control: no-store` — errors included — unless the
 * route chose its own (revalidated lists: `private, no-cache`). Over HTTP, as a browser sees it.
 */
t.test('signed-in answers are not stored, whatever their status', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const manager = await s.as('manager');
  const waiter = await s.as('waiter');
  const cases: Array<[string, string, string | null, unknown, number]> = [
    ['POST', '/spaces', manager, { name: 'Terrace' }, 201],
    ['GET', '/users', manager, undefined, 200],
    ['GET', `/users/${randomUUID()}`, manager, undefined, 404],
    ['POST', '/spaces', manager, { name: '' }, 400],
    ['POST', '/users', waiter, { name: 'x', pin: '1234', role: 'waiter' }, 403],
  ];
  for (const [method, path, cookie, body, status] of cases) {
    const res = await s.request(path, cookie, {}, method, body);
    t.equal(res.status, status, `${method} ${path}`);
    t.equal(res.headers.get('cache-control'), 'no-store', `${method} ${path} (${status}): no-store`);
  }
});

t.test('a revalidated list keeps its own Cache-Control; anonymous answers carry none', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const waiter = await s.as('waiter');
  t.equal((await s.request('/tables', waiter, {}, 'GET')).headers.get('cache-control'), 'private, no-cache');
  t.equal((await s.request('/', null, {}, 'GET')).headers.get('cache-control'), 'private, no-cache', 'the greeting, revalidated');
  for (const [path, status] of [['/health/live', 200], ['/users', 401], ['/no-such-path', 404]] as const) {
    const res = await s.request(path, null, {}, 'GET');
    t.equal(res.status, status, path);
    t.equal(res.headers.get('cache-control'), null, `${path}: nothing of staff's to keep out of caches`);
  }
});

t.test('answers that set or clear cookies are not stored; a refused login sets none', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const login = await s.request('/auth/login', null, {}, 'POST', { name: ADMIN.name, pin: ADMIN.pin });
  t.equal(login.status, 200);
  t.ok(login.headers.getSetCookie().length > 0);
  t.equal(login.headers.get('cache-control'), 'no-store', 'login');
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

  const refreshed = await s.request('/auth/refresh', cookie, {}, 'POST');
  t.equal(refreshed.status, 200);
  t.equal(refreshed.headers.get('cache-control'), 'no-store', 'refresh');
  const refusedRefresh = await s.request('/auth/refresh', null, {}, 'POST');
  t.equal(refusedRefresh.status, 401);
  t.ok(refusedRefresh.headers.getSetCookie().length > 0, 'a refused refresh clears the cookies');
  t.equal(refusedRefresh.headers.get('cache-control'), 'no-store', 'refused refresh');

  const wallet = await s.request('/wallet/auth', cookie, {}, 'POST', { password: ADMIN.walletPassword });
  t.equal(wallet.status, 200);
  t.equal(wallet.headers.get('cache-control'), 'no-store', 'wallet unlock');

  const refused = await s.request('/auth/login', null, {}, 'POST', { name: ADMIN.name, pin: '0000' });
  t.equal(refused.status, 401);
  t.equal(refused.headers.get('cache-control'), null, 'a refused login: no cookie, no staff data');
});
