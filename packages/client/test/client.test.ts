import t from 'tap';
import { SignInRefused, createComandaClient } from '../src/index.js';

/** The client's own rules, against a scripted server: keys on writes, retries, one refresh per 401. */

type Seen = { method: string; path: string; key: string | null; auth: string | null; body: string };
function server(answer: (seen: Seen, n: number) => Response | Promise<Response> | 'drop') {
  const seen: Seen[] = [];
  const fetch = async (request: Request) => {
    const s = { method: request.method, path: new URL(request.url).pathname, key: request.headers.get('idempotency-key'), auth: request.headers.get('authorization'), body: await request.text() };
    seen.push(s);
    const a = await answer(s, seen.length);
    if (a === 'drop') throw new TypeError('fetch failed');
    return a;
  };
  return { seen, fetch };
}
const json = (status: number, body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const tokens = (n: number) => ({ token_type: 'Bearer', access_token: `access-${n}`, refresh_token: `refresh-${n}`, expires_in: 60, refresh_expires_in: 1, user: { id: 'u', name: 'Ana', role: 'waiter' } });

t.test('a write gets an Idempotency-Key that its retries keep; a read gets none', async (t) => {
  const s = server((seen, n) => (seen.path === '/categories' && n < 3 ? 'drop' : json(201, { id: 'c', message: 'Category added successfully' })));
  const { api } = createComandaClient({ baseUrl: 'http://pos.test/', fetch: s.fetch, maxRetryWaitMs: 1 });
  const res = await api.POST('/categories', { body: { name: 'Tacos' } });
  t.equal(res.response.status, 201);
  t.equal(s.seen.length, 3, 'two network failures, then the answer');
  t.match(s.seen[0]!.key, /^[0-9a-f-]{36}$/);
  t.ok(s.seen.every((x) => x.key === s.seen[0]!.key), 'the same key every time');
  t.equal(s.seen[2]!.body, '{"name":"Tacos"}', 'the body every time');
  await api.GET('/categories');
  t.equal(s.seen.at(-1)!.key, null);
  const own = await api.POST('/categories', { params: { header: { 'idempotency-key': 'mine' } }, body: { name: 'X' } });
  t.equal(own.response.status, 201);
  t.equal(s.seen.at(-1)!.key, 'mine', 'a key the caller gave is kept');
});

t.test('network failures and 503s past the retries reach the caller', async (t) => {
  const down = server(() => 'drop');
  await t.rejects(createComandaClient({ baseUrl: 'http://pos.test', fetch: down.fetch, retries: 1, maxRetryWaitMs: 1 }).api.GET('/categories'), /fetch failed/);
  t.equal(down.seen.length, 2);
  const busy = server((_s, n) => (n < 3 ? json(503, { message: 'busy' }, { 'retry-after': '0' }) : json(200, [])));
  const res = await createComandaClient({ baseUrl: 'http://pos.test', fetch: busy.fetch }).api.GET('/categories');
  t.equal(res.response.status, 200, 'a 503 with Retry-After is tried again');
});

t.test('tokens: a 401 refreshes once (concurrent 401s share it) and the request is sent again with the new token', async (t) => {
  let refreshes = 0;
  const s = server((seen) => {
    if (seen.path === '/auth/token') return json(200, tokens(1));
    if (seen.path === '/auth/token/refresh') return json(200, tokens(1 + ++refreshes));
    return seen.auth === 'Bearer access-1' ? json(401, { message: 'Unauthorized' }) : json(200, { id: 'u', name: 'Ana', role: 'waiter' });
  });
  const client = createComandaClient({ baseUrl: 'http://pos.test', fetch: s.fetch, session: 'tokens' });
  t.same(await client.signIn('Ana', '1234'), { id: 'u', name: 'Ana', role: 'waiter' });
  const [a, b] = await Promise.all([client.api.GET('/auth/me'), client.api.GET('/auth/me')]);
  t.same([a.response.status, b.response.status], [200, 200]);
  t.equal(refreshes, 1, 'one refresh for both');
  t.equal(JSON.parse(s.seen.find((x) => x.path === '/auth/token/refresh')!.body).refresh_token, 'refresh-1');
  await client.signOut();
  t.same(JSON.parse(s.seen.at(-1)!.body), { refresh_token: 'refresh-2' }, 'sign-out revokes the current refresh token');
});

t.test('a 401 to a request sent before a refresh finished is sent again, not refreshed again', async (t) => {
  let refreshes = 0;
  let releaseSlow: () => void = () => {};
  const slowHeld = new Promise<void>((r) => (releaseSlow = r));
  const s = server(async (seen) => {
    if (seen.path === '/auth/token') return json(200, tokens(1));
    if (seen.path === '/auth/token/refresh') return json(200, tokens(1 + ++refreshes));
    if (seen.auth === 'Bearer access-1') {
      // The slow read went out with the old token; its 401 comes back after the other's refresh.
      if (seen.path === '/categories') await slowHeld;
      return json(401, { message: 'Unauthorized' });
    }
    return json(200, seen.path === '/categories' ? [] : { id: 'u', name: 'Ana', role: 'waiter' });
  });
  const client = createComandaClient({ baseUrl: 'http://pos.test', fetch: s.fetch, session: 'tokens' });
  await client.signIn('Ana', '1234');
  const slow = client.api.GET('/categories');
  const fast = await client.api.GET('/auth/me');
  t.equal(fast.response.status, 200, 'the first 401 refreshed');
  releaseSlow();
  t.equal((await slow).response.status, 200, 'the late 401 is sent again with the new token');
  t.equal(refreshes, 1, 'one refresh: the second would rotate a token for nothing');
});

t.test('a refused refresh ends the session: onSignedOut, and the 401 reaches the caller', async (t) => {
  const signedOut: Array<{ byManager: boolean }> = [];
  const s = server((seen) => (seen.path === '/auth/token' ? json(200, tokens(1)) : json(401, { message: 'Unauthorized' })));
  const client = createComandaClient({ baseUrl: 'http://pos.test', fetch: s.fetch, session: 'tokens', onSignedOut: (why) => signedOut.push(why) });
  await client.signIn('Ana', '1234');
  t.equal((await client.api.GET('/auth/me')).response.status, 401);
  t.same(signedOut, [{ byManager: false }]);
  t.equal((await client.api.GET('/auth/me')).response.status, 401, 'no tokens left: nothing to refresh');
  t.equal(s.seen.filter((x) => x.path === '/auth/token/refresh').length, 1);
});

t.test('cookies: sign-in, refresh and sign-out go to the cookie routes; refusals are SignInRefused', async (t) => {
  const s = server((seen, n) => {
    if (seen.path === '/auth/login') return n === 1 ? json(429, { message: 'Too many', retryAfter: 60 }, { 'retry-after': '60' }) : json(200, { message: 'Login successful', user: { id: 'u', name: 'Ana', role: 'waiter' } });
    if (seen.path === '/auth/refresh' || seen.path === '/auth/logout') return json(200, { message: 'ok' });
    return n === 3 ? json(401, { message: 'Unauthorized' }) : json(200, []);
  });
  const client = createComandaClient({ baseUrl: 'http://pos.test', fetch: s.fetch, session: 'cookies' });
  await t.rejects(client.signIn('Ana', '1234'), new SignInRefused(429, 60));
  await client.signIn('Ana', '1234');
  t.equal((await client.api.GET('/categories')).response.status, 200, 'after one refresh');
  t.same(s.seen.map((x) => x.path), ['/auth/login', '/auth/login', '/categories', '/auth/refresh', '/categories']);
  t.equal(s.seen[2]!.auth, null, 'no bearer header in cookie mode');
  await client.signOut();
  t.equal(s.seen.at(-1)!.path, '/auth/logout');
  const wrong = server(() => json(401, { message: 'Invalid credentials' }));
  await t.rejects(createComandaClient({ baseUrl: 'http://pos.test', fetch: wrong.fetch }).signIn('Ana', '0000'), { status: 401, retryAfter: null });
});

t.test("a refresh refused because a manager ended the session is told apart; the sign-in names the device", async (t) => {
  for (const session of ['cookies', 'tokens'] as const) {
    const why: Array<{ byManager: boolean }> = [];
    const s = server((seen) => {
      if (seen.path === '/auth/token') return json(200, tokens(1));
      if (seen.path === '/auth/login') return json(200, { message: 'Login successful', user: tokens(1).user });
      return json(401, { message: 'Unauthorized', ...(seen.path.includes('refresh') ? { reason: 'signed out by a manager' } : {}) });
    });
    const client = createComandaClient({ baseUrl: 'http://pos.test', fetch: s.fetch, session, onSignedOut: (w) => why.push(w) });
    await client.signIn('Ana', '1234', 'Tablet 3');
    t.same(JSON.parse(s.seen[0]!.body), { name: 'Ana', pin: '1234', device: 'Tablet 3' }, session);
    t.equal((await client.api.GET('/auth/me')).response.status, 401);
    t.same(why, [{ byManager: true }], session);
  }
});
