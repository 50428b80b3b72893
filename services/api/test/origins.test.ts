import t from 'tap';
import { testApp } from './harness.js';

/** Issue 39, item 7: a write from another origin is refused; configured origins get CORS with credentials. */

t.test('a state-changing request from another origin is refused; the own origin, none, and reads pass', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  const cookie = await h.as('admin');
  const post = (origin?: string, host = 'pos.local:3000') =>
    h.app.inject({ method: 'POST', url: '/categories', headers: { cookie, host, ...(origin ? { origin } : {}) }, payload: { name: `Cat ${Math.random()}` } });
  const refused = await post('http://pos.local:8080');
  t.equal(refused.statusCode, 403, 'another port of the same host is another origin');
  t.same(refused.json(), { message: 'Cross-origin request refused' });
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
