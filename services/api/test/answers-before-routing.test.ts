import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { Metrics } from '@comanda/metrics';
import answerCache from '../src/plugins/answer-cache.js';
import { answerBeforeRouting, type Completion } from '../src/http/answers-before-routing.js';
import { Answers } from '../src/http/answers.js';
import { testApp } from './harness.js';

interface Got { status: number; headers: string[]; body: string }

/** A request over a real socket (`inject` calls Fastify's router directly, past the step under test). */
const send = (base: string, path: string, options: { method?: string; cookie?: string; headers?: Record<string, string> } = {}) => new Promise<Got>((resolve, reject) => {
  const headers = { ...options.headers, ...(options.cookie ? { cookie: options.cookie } : {}) };
  const req = httpRequest(base + path, { method: options.method ?? 'GET', headers, agent: false }, (res) => {
    let body = '';
    res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => {
      // Node's client keeps the headers as they came on the wire; the date is the only one that may move.
      const headers = res.rawHeaders.flatMap((v, i, all) => (i % 2 === 0 && v.toLowerCase() !== 'date' ? [v, all[i + 1]!] : []));
      resolve({ status: res.statusCode!, headers, body });
    });
  });
  req.on('error', reject).end();
});

/** A completion that records what it is told. */
function recorder() {
  let next = 0;
  const answered: Array<{ id: string; method: string; url: string; ip: string | undefined; route: string; status: number; elapsedMs: number }> = [];
  const completion: Completion = {
    requestId: () => `early-${++next}`,
    clientAddress: (request) => request.socket.remoteAddress,
    answered: (id, method, url, ip, route, status, elapsedMs) => void answered.push({ id, method, url, ip, route, status, elapsedMs }),
  };
  return { completion, answered };
}

/**
 * A bare Fastify with the cache sending before routing: an open route, one guarded by a hook carrying a
 * permission (as `authorize` makes them; admitted when the cookie says `ok`) and one with a hook of its
 * own; an application-wide onRequest hook counts what reaches Fastify.
 */
async function withCache(admitsNow: (cookie: string | undefined) => boolean, preClose?: (base: string) => Promise<void>) {
  let generation = 0;
  let calls = 0;
  let routed = 0;
  const { completion, answered } = recorder();
  const app = Fastify();
  const guard = Object.assign((request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (request.headers.cookie !== 'ok') return void reply.code(401).send({ message: 'Unauthorized' });
    done();
  }, { permission: 'menu:read' });
  // Known by identity, as the auth plugin knows the hooks `authorize` made; the look-alike is not one.
  const lookAlike = Object.assign((_request: FastifyRequest, _reply: FastifyReply, done: () => void) => done(), { permission: 'menu:read' });
  app.decorate('permissionOf', (hook: unknown) => (hook === guard ? 'menu:read' : undefined));
  app.decorate('admitsNow', (cookie: string | undefined, permission: string) => permission === 'menu:read' && admitsNow(cookie));
  await app.register(answerCache, { readStore: { generation: () => generation }, beforeRouting: completion });
  app.addHook('onRequest', (_request, _reply, done) => {
    routed++;
    done();
  });
  const ownHook = (_request: FastifyRequest, _reply: FastifyReply, done: () => void) => done();
  const handler = async (_request: FastifyRequest, reply: FastifyReply) => reply.header('x-total-count', ++calls).send({ calls });
  const config = { answerFrom: ['things'] };
  app.get('/open', { config }, handler);
  app.get('/guarded', { config, onRequest: guard }, handler);
  app.get('/hooked', { config, onRequest: ownHook }, handler);
  app.get('/guarded-and-hooked', { config, onRequest: [guard, ownHook] }, handler);
  app.get('/look-alike', { config, onRequest: lookAlike }, handler);
  app.get('/followed', { config, onResponse: (_request, _reply, done) => done() }, handler);
  // preClose hooks run in order, after the cache's own and before the server stops listening.
  if (preClose) app.addHook('preClose', () => preClose(base));
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, base, answered, calls: () => calls, routed: () => routed, write: () => generation++ };
}

t.test('a current answer of an open route leaves before routing, with the same bytes, and is completed', async (t) => {
  const c = await withCache(() => true);
  t.teardown(() => c.app.close());
  const miss = await send(c.base, '/open');
  const hit = await send(c.base, '/open');
  t.same([c.calls(), c.routed()], [1, 1], 'the second request never reached Fastify');
  t.same(hit, miss, 'status, every header in its order, body');
  t.equal(c.answered.length, 1, 'the early answer is completed once');
  t.match(c.answered[0], { id: 'early-1', method: 'GET', url: '/open', ip: '127.0.0.1', route: '/open', status: 200 });
  t.ok(c.answered[0]!.elapsedMs >= 0);

  t.equal((await send(c.base, '/open', { method: 'HEAD' })).status, 200);
  t.same([c.calls(), c.routed()], [2, 2], 'a HEAD goes to Fastify (which runs the GET\'s handler)');
  c.write();
  t.same(JSON.parse((await send(c.base, '/open')).body), { calls: 3 }, 'a write to the collection: computed again, by Fastify');
  t.equal(c.routed(), 3);
  t.same(JSON.parse((await send(c.base, '/open')).body), { calls: 3 });
  t.equal(c.routed(), 3, 'and the new answer leaves early');
  t.equal((await send(c.base, '/open?other')).status, 200);
  t.equal(c.routed(), 4, 'another URL is another answer');
});

t.test('a guarded answer leaves early only for a request admitted now; the rest is decided by Fastify', async (t) => {
  let admit: (cookie: string | undefined) => boolean = (cookie) => cookie === 'ok';
  const c = await withCache((cookie) => admit(cookie));
  t.teardown(() => c.app.close());
  await send(c.base, '/guarded', { cookie: 'ok' });
  const hit = await send(c.base, '/guarded', { cookie: 'ok' });
  t.same([hit.status, c.calls(), c.routed()], [200, 1, 1], 'admitted: sent before routing');
  const refused = await send(c.base, '/guarded');
  t.same([refused.status, c.routed()], [401, 2], 'not admitted now: Fastify runs the guard, which refuses');
  admit = () => {
    throw new Error('fold unreadable');
  };
  const thrown = await send(c.base, '/guarded', { cookie: 'ok' });
  t.same([thrown.status, c.calls(), c.routed()], [200, 1, 3], 'a check that throws: Fastify decides it (here the guard admits, the lookup hits)');
  admit = (cookie) => cookie === 'ok';
  for (const [path, what] of [['/hooked', 'a hook of its own'], ['/guarded-and-hooked', 'the guard and another hook'], ['/look-alike', 'a hook that only looks like the guard'], ['/followed', 'an onResponse hook']] as const) {
    const [calls, routed] = [c.calls(), c.routed()];
    for (let i = 0; i < 2; i++) t.equal((await send(c.base, path, { cookie: 'ok' })).status, 200);
    t.same([c.calls() - calls, c.routed() - routed], [1, 2], `a route with ${what}: every request through Fastify, hits included`);
  }
  t.equal(c.answered.length, 1);
});

t.test('once the app is closing, a cached answer goes to Fastify, which answers 503', async (t) => {
  let during: Got | undefined;
  const c = await withCache(() => true, async (base) => {
    during = await send(base, '/open');
  });
  await send(c.base, '/open');
  t.equal((await send(c.base, '/open')).status, 200);
  await c.app.close();
  t.equal(during?.status, 503);
  t.equal(c.answered.length, 1, 'only the hit before the close left early');
});

t.test('while the app closes, and for the requests it does not send, the server\'s own listener answers', async (t) => {
  const answers = new Answers();
  const route = { url: '/x', from: [], beforeRouting: null };
  answers.set('/x', { route, stamp: '', body: Buffer.from('"cached"'), headers: ['content-type', 'application/json', 'content-length', '8'], used: false });
  let closing = false;
  const server = createServer((_request: IncomingMessage, response: ServerResponse) => void response.writeHead(503).end('routed'));
  const { completion, answered } = recorder();
  answerBeforeRouting(server, { answers, stampOf: () => '', closing: () => closing }, completion);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.same([(await send(base, '/x')).body, answered.length], ['"cached"', 1]);
  closing = true;
  t.same((await send(base, '/x')).body, 'routed', 'closing: the router answers (Fastify sends its 503)');
  closing = false;
  t.same((await send(base, '/y')).body, 'routed', 'nothing kept for the URL');
  t.same((await send(base, '/x', { method: 'POST' })).body, 'routed', 'not a GET');
  t.equal(answered.length, 1);
  t.equal(server.listeners('request').length, 1, 'one listener: the step, which calls the router');
});

t.test('in the API: early answers keep every check, their line and their count', async (t) => {
  const TOKEN = 'scrape-token-0123456789';
  const metrics = new Metrics({ processMetrics: false });
  let routed = 0;
  const h = await testApp({ COMANDA_METRICS_TOKEN: TOKEN }, {}, (app) => app.addHook('onRequest', (_request, _reply, done) => {
    routed++;
    done();
  }), { metrics });
  t.teardown(h.close);
  const base = await h.app.listen({ host: '127.0.0.1', port: 0 });
  const admin = await h.as('admin');
  const waiter = await h.as('waiter');

  const before = routed;
  const greetings = [await send(base, '/'), await send(base, '/')];
  t.same(greetings.map((g) => g.body), ['"Welcome to the Comanda POS API"', '"Welcome to the Comanda POS API"']);
  t.same(greetings[1]!.headers, greetings[0]!.headers);
  t.equal(routed - before, 1, 'the greeting is sent before routing once it is cached');

  const category = await h.app.inject({ method: 'POST', url: '/categories', headers: { cookie: admin }, payload: { name: 'Tacos' } });
  const dish = await h.app.inject({ method: 'POST', url: '/dishes', headers: { cookie: admin }, payload: { name: 'Pastor', price: 25.5, category_id: category.json().id } });
  t.equal(dish.statusCode, 201, dish.body);
  const listed = routed;
  const dishes = [await send(base, '/dishes', { cookie: admin }), await send(base, '/dishes', { cookie: admin })];
  t.same(dishes.map((d) => d.status), [200, 200]);
  t.ok(dishes[1]!.headers.includes('no-store'), 'a signed-in answer keeps its no-store');
  t.equal(routed - listed, 1, 'a signed-in list too');
  t.equal((await send(base, '/dishes')).status, 401, 'no token: refused by Fastify');
  const sales = `/orders/total-sales/${new Date().toISOString().slice(0, 10)}`;
  t.equal((await send(base, sales, { cookie: waiter })).status, 403, 'no permission: refused');
  t.same([(await send(base, sales, { cookie: admin })).status, (await send(base, sales, { cookie: admin })).status], [200, 200]);
  t.equal((await send(base, sales, { cookie: waiter })).status, 403, 'not even once an admin has the answer cached');

  // A demotion and an expiry bite at once, with the answer cached and the folds current.
  const manager = await h.as('manager');
  t.same([(await send(base, sales, { cookie: manager })).status, (await send(base, sales, { cookie: manager })).status], [200, 200]);
  const managerId = (await h.app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: manager } })).json().id as string;
  t.equal((await h.app.inject({ method: 'PUT', url: `/users/${managerId}`, headers: { cookie: admin }, payload: { role: 'waiter' } })).statusCode, 200);
  t.equal((await send(base, sales, { cookie: manager })).status, 403, 'demoted: the roster\'s role, at once');
  t.same([(await send(base, sales, { cookie: admin })).status, (await send(base, sales, { cookie: admin })).status], [200, 200]);
  h.clock.now += 61_000;
  t.equal((await send(base, sales, { cookie: admin })).status, 401, 'an expired access token is refused');
  h.clock.now -= 61_000;

  const forwarded = await send(base, '/', { headers: { 'x-forwarded-for': '203.0.113.9' } });
  t.equal(forwarded.status, 200);

  const logout = await h.app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: admin } });
  t.equal(logout.statusCode, 200, logout.body);
  t.equal((await send(base, '/dishes', { cookie: admin })).status, 401, 'a revoked session is refused at once, the answer cached or not');

  const lines = h.logs.filter((l) => l.includes('request completed')).map((l) => JSON.parse(l) as Record<string, unknown>);
  const greetingLines = lines.filter((l) => l.url === '/');
  t.equal(greetingLines.length, 3, 'one line per request, early or not');
  t.equal(greetingLines[2]!.remoteAddress, '127.0.0.1', 'no proxy trusted: the socket\'s address, whatever X-Forwarded-For says');
  t.same(Object.keys(greetingLines[1]!), Object.keys(greetingLines[0]!), 'the same line');
  t.match(greetingLines[1], { level: 30, method: 'GET', url: '/', remoteAddress: '127.0.0.1', statusCode: 200, msg: 'request completed' });
  const ids = lines.map((l) => l.reqId);
  t.equal(new Set(ids).size, ids.length, 'request ids from one sequence: never the same twice');

  const scraped = await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  t.match(scraped.body, /comanda_http_requests_total\{method="GET",route="\/",status="200"\} 3\n/, 'counted under its route, early or not');
  t.match(scraped.body, /comanda_http_requests_total\{method="GET",route="\/dishes",status="200"\} 2\n/);
});

t.test('behind a trusted proxy, an early answer is logged with the client the proxy names, as Fastify logs it', async (t) => {
  const h = await testApp({}, { trustedProxies: ['127.0.0.1'] });
  t.teardown(h.close);
  const base = await h.app.listen({ host: '127.0.0.1', port: 0 });
  for (let i = 0; i < 2; i++) await send(base, '/', { headers: { 'x-forwarded-for': '203.0.113.9, 127.0.0.1' } });
  await send(base, '/', { headers: { 'x-forwarded-for': '203.0.113.7' } });
  const clients = h.logs.filter((l) => l.includes('request completed')).map((l) => (JSON.parse(l) as { remoteAddress: string }).remoteAddress);
  t.same(clients, ['203.0.113.9', '203.0.113.9', '203.0.113.7']);
});

t.test('in the API, every cached route passes no hook but its guard and the lookup, so early answers skip none', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  // The routes as Fastify runs them: their own hooks and those their plugins add around them.
  const lines = h.app.printRoutes({ includeHooks: true, commonPrefix: false }).split('\n');
  const routes: Array<{ route: string; hooks: Record<string, string[]> }> = [];
  for (const line of lines) {
    const hook = /• \((\w+)\) (\[.*\])$/.exec(line);
    if (hook) routes.at(-1)!.hooks[hook[1]!] = JSON.parse(hook[2]!) as string[];
    else if (/\(([A-Z, ]+)\)$/.test(line)) routes.push({ route: line.trim(), hooks: {} });
  }
  const cached = routes.filter((r) => r.hooks.onSend?.includes('keepAnswer()'));
  t.ok(cached.length >= 15, `${cached.length} cached routes found`);
  for (const { route, hooks } of cached) {
    t.ok([['answerFromCache()'], ['authorized()', 'answerFromCache()']].some((allowed) => JSON.stringify(allowed) === JSON.stringify(hooks.onRequest)), `${route}: onRequest ${JSON.stringify(hooks.onRequest)}`);
    t.same(Object.keys(hooks).filter((name) => ['onResponse', 'onTimeout', 'onRequestAbort'].includes(name)), [], `${route}: nothing follows the request`);
  }
  t.equal(h.app.permissionOf(h.app.authorize('sales:read')), 'sales:read', 'a hook authorize made is known');
  t.equal(h.app.permissionOf(Object.assign(() => {}, { permission: 'sales:read' })), undefined, 'a look-alike is not');
});
