import t from 'tap';
import { createHmac, pbkdf2Sync } from 'node:crypto';
import http from 'node:http';
import { REFRESH_REUSE_GRACE_MS } from '@comanda/domain';
import { PIN_HASH, hashSecret, verifySecret } from '../src/index.js';
import { ADMIN, cookieHeader, testApp } from './harness.js';

/** PBKDF2-HMAC-SHA256 computed by hand from HMAC (RFC 8018, one 32-byte block), independent of pbkdf2(). */
function pbkdf2ByHand(password: string, salt: string, iterations: number): Buffer {
  let u = createHmac('sha256', password).update(Buffer.concat([Buffer.from(salt), Buffer.from([0, 0, 0, 1])])).digest();
  const out = Buffer.from(u);
  for (let i = 1; i < iterations; i++) {
    u = createHmac('sha256', password).update(u).digest();
    for (let j = 0; j < out.length; j++) out[j]! ^= u[j]!;
  }
  return out;
}

t.test("PINs are hashed with the seed's PBKDF2 parameters, salt = master key + name", async (t) => {
  t.same(PIN_HASH, { iterations: 10_000, keyLength: 32, digest: 'sha256' });
  const stored = await hashSecret('2468', 'master-key-0123456789', 'Ana');
  t.equal(stored, pbkdf2ByHand('2468', 'master-key-0123456789Ana', 10_000).toString('base64'));
  // RFC 7914 §11's PBKDF2-HMAC-SHA256 vector (c=1) checks the hand-written reference itself.
  t.equal(pbkdf2ByHand('passwd', 'salt', 1).toString('hex'), '55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc');
  t.equal(pbkdf2Sync('2468', 'master-key-0123456789Ana', 10_000, 32, 'sha256').toString('base64'), stored);
  t.ok(await verifySecret('2468', 'master-key-0123456789', 'Ana', stored));
  t.notOk(await verifySecret('2469', 'master-key-0123456789', 'Ana', stored));
  t.notOk(await verifySecret('2468', 'master-key-0123456789', 'ana', stored), 'the name is part of the salt');
});

t.test('login sets both cookies with the right attributes and answers the user', async (t) => {
  const { app, close } = await testApp();
  t.teardown(close);
  const res = await app.inject({ method: 'POST', url: '/auth/login', payload: { name: 'ADMIN', pin: ADMIN.pin } });
  t.equal(res.statusCode, 200);
  t.match(res.json(), { message: 'Login successful', user: { id: String, name: 'admin', role: 'admin' } });
  const byName = Object.fromEntries(res.cookies.map((c) => [c.name, c]));
  for (const [name, maxAge] of [['accessToken', 60], ['refreshToken', 30 * 24 * 3600]] as const) {
    t.match(byName[name], { httpOnly: true, sameSite: 'Strict', path: '/', maxAge }, name);
    t.notOk(byName[name]!.secure, 'not Secure over plain HTTP outside production');
  }
  t.notOk(res.body.includes(byName.accessToken!.value), 'tokens only in cookies');
  const me = await app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: cookieHeader(res.cookies) } });
  t.same(me.json(), res.json().user);
});

t.test('cookies are Secure in production and over HTTPS (from a trusted proxy only)', async (t) => {
  const { app, close } = await testApp({ NODE_ENV: 'production' });
  t.teardown(close);
  const res = await app.inject({ method: 'POST', url: '/auth/login', payload: { name: 'admin', pin: ADMIN.pin } });
  t.equal(res.statusCode, 200);
  t.equal(res.cookies.length, 2);
  t.ok(res.cookies.every((c) => c.secure));
  const proxied = await testApp({ COMANDA_TRUSTED_PROXIES: '127.0.0.1' });
  t.teardown(proxied.close);
  const https = await proxied.app.inject({ method: 'POST', url: '/auth/login', headers: { 'x-forwarded-proto': 'https' }, payload: { name: 'admin', pin: ADMIN.pin } });
  t.equal(https.statusCode, 200);
  t.equal(https.cookies.length, 2);
  t.ok(https.cookies.every((c) => c.secure));
  const dev = await testApp();
  t.teardown(dev.close);
  const spoofed = await dev.app.inject({ method: 'POST', url: '/auth/login', headers: { 'x-forwarded-proto': 'https' }, payload: { name: 'admin', pin: ADMIN.pin } });
  t.equal(spoofed.statusCode, 200);
  t.equal(spoofed.cookies.length, 2);
  t.ok(spoofed.cookies.every((c) => !c.secure), 'X-Forwarded-Proto from a client that is not a trusted proxy is ignored');
});

t.test('wrong PIN and unknown name get the same 401', async (t) => {
  const { app, close } = await testApp();
  t.teardown(close);
  const wrong = await app.inject({ method: 'POST', url: '/auth/login', payload: { name: 'admin', pin: '9999' } });
  const unknown = await app.inject({ method: 'POST', url: '/auth/login', payload: { name: 'nobody', pin: '9999' } });
  t.same([wrong.statusCode, wrong.json()], [401, { message: 'Invalid credentials' }]);
  t.same([unknown.statusCode, unknown.json()], [401, { message: 'Invalid credentials' }]);
  t.same(wrong.cookies, []);
  const bad = await app.inject({ method: 'POST', url: '/auth/login', payload: { name: 'admin' } });
  t.same([bad.statusCode, bad.json().message], [400, 'Validation failed']);
});

t.test('lockout after five failures, growing waits, reset by a success', async (t) => {
  const { app, close, clock } = await testApp();
  t.teardown(close);
  const attempt = (name: string, pin: string, ip = '10.0.0.1') =>
    app.inject({ method: 'POST', url: '/auth/login', remoteAddress: ip, payload: { name, pin } });
  for (let i = 0; i < 5; i++) t.equal((await attempt('admin', '0000')).statusCode, 401);
  let locked = await attempt('admin', ADMIN.pin);
  t.equal(locked.statusCode, 429, 'even the right PIN waits while locked');
  t.same(locked.json(), { message: 'Too many failed attempts; try again later', retryAfter: 60 });
  t.equal(locked.headers['retry-after'], '60');
  clock.now += 61_000;
  t.equal((await attempt('admin', '0000')).statusCode, 401);
  locked = await attempt('admin', ADMIN.pin);
  t.equal(locked.json().retryAfter, 120, 'the wait doubles');
  clock.now += 121_000;
  t.equal((await attempt('admin', ADMIN.pin)).statusCode, 200, 'success after the wait');
  t.equal((await attempt('admin', '0000')).statusCode, 401, 'counter reset: a failure is a plain 401 again');
  t.equal((await attempt('admin', ADMIN.pin)).statusCode, 200);
  // Per (address, name) since issue 18; the address ceiling is tested in login-throttle.test.ts.
});

t.test('refresh rotates tokens; a reused refresh token revokes the session', async (t) => {
  const { app, close, login, clock } = await testApp();
  t.teardown(close);
  const first = await login('admin', ADMIN.pin);
  const refreshed = await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: first } });
  t.same([refreshed.statusCode, refreshed.json()], [200, { message: 'Access token refreshed successfully' }]);
  const second = cookieHeader(refreshed.cookies);
  t.not(second, first);
  t.equal((await app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: second } })).statusCode, 200);

  clock.now += REFRESH_REUSE_GRACE_MS + 1_000; // past the grace for two tabs or a retry (refresh-grace.test.ts)
  const stolen = await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: first } });
  t.same([stolen.statusCode, stolen.json()], [401, { message: 'Unauthorized' }]);
  const legit = await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: second } });
  t.equal(legit.statusCode, 401, 'the whole session is revoked, the legitimate copy too');
});

t.test('refreshes racing with one token: one rotation, and every one of them answered its cookies (issue 58)', async (t) => {
  const { app, close, login } = await testApp();
  t.teardown(close);
  const cookie = await login('admin', ADMIN.pin);
  const results = await Promise.all(Array.from({ length: 5 }, () => app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie } })));
  t.same(results.map((r) => r.statusCode), [200, 200, 200, 200, 200]);
  t.equal(new Set(results.map((r) => cookieHeader(r.cookies))).size, 1, 'the same new cookies for all');
  t.equal((await app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: cookieHeader(results[0]!.cookies) } })).statusCode, 200);
});

t.test('tokens expire: access after 1 minute, refresh after 30 days', async (t) => {
  const { app, close, login, clock } = await testApp();
  t.teardown(close);
  const cookie = await login('admin', ADMIN.pin);
  clock.now += 59_000;
  t.equal((await app.inject({ method: 'GET', url: '/users', headers: { cookie } })).statusCode, 200);
  clock.now += 2_000;
  const expired = await app.inject({ method: 'GET', url: '/users', headers: { cookie } });
  t.same([expired.statusCode, expired.json()], [401, { message: 'Unauthorized' }]);
  const renewed = await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie } });
  t.equal(renewed.statusCode, 200, 'the refresh token still works');
  clock.now += 31 * 24 * 3600 * 1000;
  t.equal((await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie: cookieHeader(renewed.cookies) } })).statusCode, 401);
});

t.test('logout clears both cookies and revokes the refresh token', async (t) => {
  const { app, close, login } = await testApp();
  t.teardown(close);
  const cookie = await login('admin', ADMIN.pin);
  const out = await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie } });
  t.same([out.statusCode, out.json()], [200, { message: 'Logout successful' }]);
  const cleared = Object.fromEntries(out.cookies.map((c) => [c.name, c]));
  for (const name of ['accessToken', 'refreshToken']) {
    t.equal(cleared[name]?.value, '', `${name} emptied`);
    t.equal(cleared[name]?.path, '/', 'same Path as set');
    t.ok((cleared[name]?.expires?.getTime() ?? Infinity) <= Date.now());
  }
  t.equal((await app.inject({ method: 'POST', url: '/auth/refresh', headers: { cookie } })).statusCode, 401);
  t.equal((await app.inject({ method: 'POST', url: '/auth/logout' })).statusCode, 200, 'logout without cookies is harmless');
});

t.test('one connection, cookies that change: each request is authorised by the cookie it carries', async (t) => {
  const s = await testApp();
  t.teardown(s.close);
  const base = await s.app.listen({ host: '127.0.0.1', port: 0 });
  const manager = await s.as('manager');
  const waiter = await s.as('waiter');
  // One keep-alive socket for every request: a tablet handed from one member of staff to another.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const sockets = new Set<unknown>();
  const get = (path: string, cookie: string | null) => new Promise<number>((resolve, reject) => {
    const req = http.get(base + path, { agent, headers: cookie ? { cookie } : {} }, (res) => {
      sockets.add(req.socket);
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
  });
  t.equal(await get('/users', manager), 200, 'the manager lists the staff');
  t.equal(await get('/users', waiter), 403, 'the waiter may not, on the same connection');
  t.equal(await get('/users', manager), 200);
  t.equal(await get('/users', null), 401, 'no cookie: no one');
  t.equal(await get('/users', manager.replace(/accessToken=([^;]+)/, (_m, v: string) => `accessToken=${v.slice(0, -2)}xx`)), 401, 'a forged token');
  t.equal(await get('/users', manager), 200);
  t.equal(sockets.size, 1, 'all on one connection');
});

t.test('forged, wrong-type and garbage tokens are refused', async (t) => {
  const { app, close, login } = await testApp();
  t.teardown(close);
  const cookie = await login('admin', ADMIN.pin);
  const refresh = /refreshToken=([^;]+)/.exec(cookie)![1];
  const asAccess = await app.inject({ method: 'GET', url: '/users', headers: { cookie: `accessToken=${refresh}` } });
  t.equal(asAccess.statusCode, 401, 'a refresh token is not an access token');
  const access = /accessToken=([^;]+)/.exec(cookie)![1]!;
  const [h, p] = access.split('.');
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
  const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, role: 'admin', sub: 'someone' })).toString('base64url')}.${access.split('.')[2]}`;
  t.equal((await app.inject({ method: 'GET', url: '/users', headers: { cookie: `accessToken=${forged}` } })).statusCode, 401);
  t.equal((await app.inject({ method: 'GET', url: '/users', headers: { cookie: 'accessToken=garbage' } })).statusCode, 401);
  t.equal((await app.inject({ method: 'GET', url: '/auth/me' })).statusCode, 401);
});

t.test('secrets never reach the log: PINs, cookies, tokens', async (t) => {
  const { app, close, logs } = await testApp({ LOG_LEVEL: 'trace' });
  t.teardown(close);
  const res = await app.inject({ method: 'POST', url: '/auth/login', payload: { name: 'admin', pin: ADMIN.pin } });
  const tokens = res.cookies.map((c) => c.value);
  await app.inject({ method: 'GET', url: '/users', headers: { cookie: cookieHeader(res.cookies) } });
  await app.inject({ method: 'POST', url: '/users', headers: { cookie: cookieHeader(res.cookies) }, payload: { name: 'Luz', pin: '86420', role: 'waiter' } });
  const all = logs.join('\n');
  t.ok(all.includes('/auth/login'), 'requests were logged');
  for (const secret of [...tokens, '86420']) t.notOk(all.includes(secret), 'secret absent from logs');
});

t.test('first admin: created once, generated values announced once', async (t) => {
  const { commands, announced, close } = await testApp();
  t.teardown(close);
  t.same(announced, ['First admin "admin" created']);
  const { bootstrapFirstAdmin } = await import('../src/index.js');
  const lines: string[] = [];
  t.equal(await bootstrapFirstAdmin(commands, 'k'.repeat(64), { adminName: 'boss', adminPin: null, walletPassword: null }, (l) => lines.push(l)), false);
  t.same(lines, [], 'never created twice');
});
