import t from 'tap';
import { MemoryEventStore } from '@comanda/event-store';
import { ADMIN, servedApp } from './harness.js';

/** Issue 59: the devices' sessions, listed for a manager and ended from the back office with who and why. */

const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const cookieOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
const FIELDS = ['device', 'id', 'last_refreshed_at', 'role', 'signed_in_at', 'user', 'user_id'];

async function service(log?: MemoryEventStore) {
  const s = await servedApp({}, log);
  const json = async (res: Response) => ({ status: res.status, body: await res.json() });
  const manager = await s.as('manager');
  await s.as('waiter');
  /** The waiter signing in on a tablet over HTTP: its Cookie header, and the tokens it carries. */
  const tablet = async (body: Record<string, string> = {}, headers: Record<string, string> = {}) => {
    const res = await s.request('/auth/login', null, headers, 'POST', { name: 'waiter-1', pin: '4321', ...body });
    t.equal(res.status, 200, 'signed in');
    return cookieOf(res);
  };
  const list = async (cookie = manager) => json(await s.request('/sessions', cookie));
  const revoke = async (id: string, body: unknown, headers: Record<string, string> = {}, cookie = manager) =>
    json(await s.request(`/sessions/${id}/revoke`, cookie, headers, 'POST', body));
  /** The listed session of the waiter on `device`. */
  const find = async (device: string) => (await list()).body.find((x: { device: string }) => x.device === device);
  return { ...s, json, manager, tablet, list, revoke, find };
}

t.test('each sign-in is listed with its member, device, sign-in and last refresh, and nothing that signs in', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const tablet3 = await s.tablet({ device: '  Tablet 3 ' });
  const phone = await s.json(await s.request('/auth/token', null, { 'user-agent': ANDROID_CHROME }, 'POST', { name: 'waiter-1', pin: '4321' }));
  t.equal(phone.status, 200);
  const listed = await s.list();
  t.equal(listed.status, 200);
  const mine = await s.find('Tablet 3');
  t.match(mine, { user: 'waiter-1', role: 'waiter', last_refreshed_at: null }, 'the label trimmed, not refreshed yet');
  // The service's clock (the harness holds it still), not the wall's: a slow start made the wall's 1 s apart.
  t.equal(Date.parse(mine.signed_in_at), s.clock.now, 'signed in now');
  t.match(await s.find('Chrome on Android'), { user: 'waiter-1' }, "without a label, the User-Agent's short form");
  t.same(Object.keys(mine).sort(), FIELDS, 'only these fields');
  const text = JSON.stringify(listed.body);
  for (const secret of [...tablet3.split('; ').map((c) => c.split('=')[1]!), phone.body.access_token, phone.body.refresh_token]) {
    t.notOk(text.includes(secret), 'no token in the list');
  }
  t.notOk(/pin|token|hash/i.test(text), 'no PIN, token or hash field');

  const refreshed = await s.request('/auth/refresh', tablet3, {}, 'POST');
  t.equal(refreshed.status, 200);
  t.ok((await s.find('Tablet 3')).last_refreshed_at, 'the refresh is shown');
  t.ok(listed.body.length >= 4, 'the harness sessions too (admin, manager, waiter)');

  s.clock.now += 31 * 24 * 3600 * 1000;
  const fresh = await s.login('manager-1', '4321');
  t.same((await s.list(fresh)).body.map((x: { user: string }) => x.user), ['manager-1'], 'expired sessions are left out: only the one just signed in');

  const tooLong = await s.request('/auth/login', null, {}, 'POST', { name: 'waiter-1', pin: '4321', device: 'x'.repeat(65) });
  t.same([tooLong.status, (await tooLong.json()).errors[0].field], [400, 'device'], 'a label past 64 characters is refused, nothing signed in');
});

t.test('waiters and kitchen may neither list nor revoke; anonymous callers get 401', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const mine = (await s.list()).body[0];
  for (const role of ['waiter', 'kitchen'] as const) {
    const cookie = await s.as(role);
    t.same(await s.list(cookie), { status: 403, body: { message: 'Unauthorized API access' } }, `${role} lists`);
    t.same(await s.revoke(mine.id, { reason: 'x' }, {}, cookie), { status: 403, body: { message: 'Unauthorized API access' } }, `${role} revokes`);
  }
  t.equal((await s.request('/sessions', null)).status, 401);
  t.ok((await s.list()).body.some((x: { id: string }) => x.id === mine.id), 'still open');
});

t.test("a manager revokes a tablet's session: refresh 401, its access token 401 at the next request, audited with who and why", async (t) => {
  const s = await service();
  t.teardown(s.close);
  const tablet = await s.tablet({ device: 'Tablet 3' });
  t.equal((await s.request('/orders/status/pending', tablet)).status, 200, 'working before');
  const { id } = await s.find('Tablet 3');
  const key = { 'idempotency-key': 'revoke-tablet-3' };
  t.same(await s.revoke(id, { reason: 'tablet left in the bar' }, key), { status: 200, body: { id, message: 'Session revoked' } });
  const access = tablet.split('; ').filter((c) => c.startsWith('accessToken=')).join('; ');
  t.same(await s.json(await s.request('/orders/status/pending', access)), { status: 401, body: { message: 'Unauthorized' } }, 'the access token, well within its minute');
  t.same(await s.json(await s.request('/auth/refresh', tablet, {}, 'POST')), { status: 401, body: { message: 'Unauthorized', reason: 'signed out by a manager' } }, 'no refresh, and the tablet is told why');
  t.notOk(await s.find('Tablet 3'), 'no longer listed');
  t.same(await s.revoke(id, { reason: 'tablet left in the bar' }, key), { status: 200, body: { id, message: 'Session revoked' } }, 'a retry with the key is answered the same');
  t.same(await s.revoke(id, { reason: 'again' }), { status: 409, body: { message: 'The session has already ended' } }, 'without it, the session has ended');

  const managerId = (await s.json(await s.request('/auth/me', s.manager))).body.id;
  const until = Date.now() + 5000;
  let audit = await s.json(await s.request('/audit?kind=session_revoked', s.manager));
  while (Date.now() < until && audit.body.count < 1) audit = await s.json(await s.request('/audit?kind=session_revoked', s.manager));
  t.match(audit.body.entries, [{ kind: 'session_revoked', staff_id: managerId, staff: 'manager-1', approved_by: 'manager-1', reason: 'tablet left in the bar', amount: null, detail: 'waiter-1 signed out of Tablet 3' }], 'once, with who and why');
  t.equal(audit.body.count, 1);
  t.equal((await s.tablet({ device: 'Tablet 3' })) !== '', true, 'the waiter signs in again');
});

t.test('a bearer-token client is told a manager ended its session; a logout is not a manager', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const till = await s.json(await s.request('/auth/token', null, {}, 'POST', { name: 'waiter-1', pin: '4321', device: 'Till app' }));
  const refreshWith = async (token: string) => s.json(await s.request('/auth/token/refresh', null, {}, 'POST', { refresh_token: token }));
  t.equal((await s.revoke((await s.find('Till app')).id, { reason: 'replaced' })).status, 200);
  t.same(await refreshWith(till.body.refresh_token), { status: 401, body: { message: 'Unauthorized', reason: 'signed out by a manager' } });
  const own = await s.json(await s.request('/auth/token', null, {}, 'POST', { name: 'waiter-1', pin: '4321' }));
  t.equal((await s.request('/auth/token/revoke', null, {}, 'POST', { refresh_token: own.body.refresh_token })).status, 200);
  t.same(await refreshWith(own.body.refresh_token), { status: 401, body: { message: 'Unauthorized' } }, 'signed out by itself: no reason given');
});

t.test('bad revokes are 4xx and write nothing', async (t) => {
  const s = await service();
  t.teardown(s.close);
  await s.tablet({ device: 'Tablet 3' });
  const { id } = await s.find('Tablet 3');
  const field = (res: { status: number; body: { errors: Array<{ field: string }> } }) => [res.status, res.body.errors[0]?.field];
  t.same(field(await s.revoke(id, {})), [400, 'reason'], 'no reason');
  t.same(field(await s.revoke(id, { reason: '   ' })), [400, 'reason'], 'a blank reason');
  t.same(field(await s.revoke(id, { reason: 'x', why: 'extra' })), [400, 'why'], 'an unknown field');
  t.same(await s.revoke('not-a-uuid', { reason: 'x' }), { status: 400, body: 'Missing or malformed ID' });
  t.same(await s.revoke('00000000-0000-4000-8000-000000000000', { reason: 'x' }), { status: 404, body: 'Resource not found' });
  const adminCookie = await s.as('admin');
  const adminSession = (await s.list()).body.find((x: { user: string }) => x.user === ADMIN.name);
  t.same(await s.revoke(adminSession.id, { reason: 'x' }), { status: 403, body: { message: 'Unauthorized API access' } }, "an admin's session is not a manager's to end");
  t.ok(await s.find('Tablet 3'), 'still listed');
  t.equal((await s.request('/users', adminCookie)).status, 200, 'the admin is still signed in');
  t.same(await s.revoke(adminSession.id, { reason: 'end of shift' }, {}, adminCookie), { status: 200, body: { id: adminSession.id, message: 'Session revoked' } }, 'an admin may');
});

t.test('revoked on one replica, the access token is refused on another at its next request', async (t) => {
  const log = new MemoryEventStore({ soleWriter: false });
  const a = await service(log);
  t.teardown(a.close);
  // Another API process on the same log: its own folds and caches, as a second replica has.
  const b = await servedApp({}, log);
  t.teardown(b.close);
  const tablet = await a.tablet({ device: 'Tablet 7' });
  t.equal((await b.request('/orders/status/pending', tablet)).status, 200, 'the token works on the other replica');
  const { id } = await a.find('Tablet 7');
  t.equal((await a.revoke(id, { reason: 'lost' })).status, 200);
  t.equal((await b.request('/orders/status/pending', tablet)).status, 401, 'refused there at once');
  t.equal((await b.request('/auth/refresh', tablet, {}, 'POST')).status, 401);
});
