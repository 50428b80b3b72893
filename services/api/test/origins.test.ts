import t from 'tap';
import { ADMIN, testApp } from './harness.js';

/** Issue 39, item 7: a write from another origin is refused; configured origins get CORS with credentials. */

t.test('a state-changing request from another origin is refused; the own origin, none, and reads pass', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  const cookie = await h.as('admin');
  const post = (origin?: string, host = 'pos.local:3000') =>
    h.app.inject({ method: 'POST', url: '/categories', headers: { cookie, host, ...(origin ? { origin } : {}) }, payload: { name: `Cat ${Math.random()}` } });
  const refused = await post('http://pos.local:8080');
  t.equal(refused.statusCode, 403, 'another port of the same host is another origin');
  t.same(refused.json(), { message: 'Origin http://pos.local:8080 is not allowed: it is not this server\'s origin (pos.local:3000); list it in COMANDA_ALLOWED_ORIGINS' }, 'the refusal names the origin and the setting');
  t.equal((await post('https://pos.local', 'pos.local:443')).statusCode, 201, 'a default port written out is the same port');
  t.equal((await post('https://evil.example')).statusCode, 403);
  t.equal((await post('null')).statusCode, 403, 'an opaque origin');
  t.equal((await post('http://pos.local:3000')).statusCode, 201, 'the service\'s own origin');
  t.equal((await post('https://pos.local:3000')).statusCode, 201, 'the own host behind a TLS proxy');
  t.equal((await post()).statusCode, 201, 'no Origin: not a browser\'s cross-origin request');
  const logout = await h.app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie, host: 'pos.local:3000', origin: 'http://pos.local:3001' } });
  t.equal(logout.statusCode, 403, 'a body-less POST (logout) likewise');
  t.equal((await h.app.inject({ method: 'GET', url: '/auth/me', headers: { cookie, origin: 'http://pos.local:3001' } })).statusCode, 200, 'the session survived');
  const read = await h.app.inject({ method: 'GET', url: '/categories', headers: { cookie, origin: 'https://evil.example' } });
  t.equal(read.statusCode, 200, 'a read is not a write (and without CORS headers the other page cannot read it)');
  t.notOk(read.headers['access-control-allow-origin']);
  t.equal((await h.app.inject({ method: 'OPTIONS', url: '/orders', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } })).headers['access-control-allow-origin'], undefined, 'no CORS for origins not configured');
});

t.test('COMANDA_ALLOWED_ORIGINS: preflight and credentials for the configured origin, refusal for others', async (t) => {
  const h = await testApp({ COMANDA_ALLOWED_ORIGINS: 'https://tablets.example.com,http://localhost:5173' });
  t.teardown(h.close);
  const cookie = await h.as('admin');
  const preflight = await h.app.inject({
    method: 'OPTIONS', url: '/orders',
    headers: { origin: 'https://tablets.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,idempotency-key' },
  });
  t.equal(preflight.statusCode, 204);
  t.equal(preflight.headers['access-control-allow-origin'], 'https://tablets.example.com');
  t.equal(preflight.headers['access-control-allow-credentials'], 'true');
  t.match(String(preflight.headers['access-control-allow-headers']), /idempotency-key/);
  const post = await h.app.inject({ method: 'POST', url: '/categories', headers: { cookie, origin: 'http://localhost:5173' }, payload: { name: 'Postres' } });
  t.equal(post.statusCode, 201);
  t.equal(post.headers['access-control-allow-origin'], 'http://localhost:5173');
  t.match(String(post.headers['access-control-expose-headers']), /location/);
  t.equal((await h.app.inject({ method: 'POST', url: '/categories', headers: { cookie, origin: 'https://other.example.com' }, payload: { name: 'Otros' } })).statusCode, 403);
  const other = await h.app.inject({ method: 'OPTIONS', url: '/orders', headers: { origin: 'https://other.example.com', 'access-control-request-method': 'POST' } });
  t.notOk(other.headers['access-control-allow-origin'], 'no CORS for an origin not listed');
});

t.test('issue 58: behind a trusted proxy the forwarded host and scheme are the own origin; a refusal says what to set', async (t) => {
  // Over a real connection from 127.0.0.1: the front-end's own server proxies /api to us, passing the
  // browser's Origin and naming the public host in X-Forwarded-Host and the scheme in X-Forwarded-Proto.
  const proxied = { origin: 'https://pos.example', 'x-forwarded-host': 'pos.example', 'x-forwarded-proto': 'https', 'content-type': 'application/json' };
  const login = (base: string, headers: Record<string, string>) =>
    fetch(`${base}/auth/login`, { method: 'POST', headers, body: JSON.stringify({ name: ADMIN.name, pin: ADMIN.pin }) });

  const trusted = await testApp({ COMANDA_TRUSTED_PROXIES: '127.0.0.1' });
  t.teardown(trusted.close);
  const base = await trusted.app.listen({ host: '127.0.0.1', port: 0 });
  const ok = await login(base, proxied);
  t.equal(ok.status, 200, await ok.clone().text());
  t.match(ok.headers.get('set-cookie'), /Secure/, 'the forwarded scheme is believed for the cookies too');
  const http = await login(base, { ...proxied, origin: 'http://pos.example' });
  t.equal(http.status, 403, 'the forwarded scheme counts: an http page is another origin than the https site');
  t.match(await http.json(), { message: 'Origin http://pos.example is not allowed: it is not this server\'s origin (https://pos.example); list it in COMANDA_ALLOWED_ORIGINS' });
  const other = await login(base, { ...proxied, origin: 'https://evil.example' });
  t.equal(other.status, 403);

  const untrusted = await testApp();
  t.teardown(untrusted.close);
  const direct = await untrusted.app.listen({ host: '127.0.0.1', port: 0 });
  const refused = await login(direct, proxied);
  t.equal(refused.status, 403, 'X-Forwarded-Host from an address not listed is not believed');
  const port = new URL(direct).port;
  t.same(await refused.json(), {
    message: `Origin https://pos.example is not allowed: it is not this server's origin (127.0.0.1:${port}); list it in COMANDA_ALLOWED_ORIGINS, `
      + 'or, if a proxy of yours forwards it, list the proxy\'s address in COMANDA_TRUSTED_PROXIES (X-Forwarded-Host is believed only from those)',
  });
});
