import { get as httpGet } from 'node:http';
import t from 'tap';
import Fastify from 'fastify';
import { MemoryReadStore, type ReadStore } from '@comanda/read-store';
import answerCache from '../src/plugins/answer-cache.js';
import type { AppDeps } from '../src/deps.js';
import { testApp } from './harness.js';

/** A bare Fastify with the plugin, a store whose generation the test moves, and routes that count their calls. */
async function withCache(store: Partial<ReadStore>) {
  const app = Fastify();
  await app.register(answerCache, { readStore: store } as unknown as AppDeps);
  let calls = 0;
  let status = 200;
  app.get('/list', { config: { answerFrom: ['things'] } }, async (_request, reply) => {
    calls++;
    reply.header('x-total-count', calls).header('etag', `"${calls}"`);
    return reply.code(status).send({ calls });
  });
  app.get('/uncached', async () => ({ calls: ++calls }));
  app.get('/with-cookie', { config: { answerFrom: ['things'] } }, async (_request, reply) => {
    calls++;
    return reply.header('set-cookie', `seen=${calls}`).send({ calls });
  });
  let answered = 0;
  app.addHook('onResponse', (_request, _reply, done) => {
    answered++;
    done();
  });
  await app.ready();
  return { app, calls: () => calls, answered: () => answered, fail: (s: number) => (status = s) };
}

t.test('an answer is reused, headers and all, until its collection changes', async (t) => {
  let generation = 0;
  const c = await withCache({ generation: () => generation });
  t.teardown(() => c.app.close());
  const first = await c.app.inject('/list');
  const again = await c.app.inject('/list');
  t.equal(c.calls(), 1, 'the route ran once');
  t.equal(again.body, first.body, 'the same bytes');
  t.same([again.headers['x-total-count'], again.headers.etag, again.headers['content-type']], ['1', '"1"', 'application/json; charset=utf-8']);
  await c.app.inject('/list?limit=5');
  t.equal(c.calls(), 2, 'another URL is another answer');
  generation++;
  t.same((await c.app.inject('/list')).json(), { calls: 3 }, 'a write to the collection: computed again');
  t.equal((await c.app.inject('/list')).headers.etag, '"3"');
  t.equal(c.calls(), 3);
  await c.app.inject('/uncached');
  await c.app.inject('/uncached');
  t.equal(c.calls(), 5, 'routes that do not declare their collections are never cached');
  t.equal(c.answered(), 7, 'a hit still ends through the response hooks (logged, counted)');
});

t.test('over a socket, a hit is sent with every header the miss was sent with, in the same order', async (t) => {
  const c = await withCache({ generation: () => 0 });
  t.teardown(() => c.app.close());
  const base = await c.app.listen({ host: '127.0.0.1', port: 0 });
  // Node's client keeps the headers as they came on the wire; the date is the only one that may move.
  const get = (path: string) => new Promise<{ headers: string[]; body: string }>((resolve, reject) => {
    httpGet(base + path, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => {
        const headers = res.rawHeaders.flatMap((v, i, all) => (i % 2 === 0 && v.toLowerCase() !== 'date' ? [v, all[i + 1]!] : []));
        resolve({ headers, body });
      });
    }).on('error', reject);
  });
  const miss = await get('/list');
  const hit = await get('/list');
  t.equal(c.calls(), 1);
  t.equal(hit.body, miss.body);
  t.same(hit.headers, miss.headers);
  t.match(hit.headers, ['x-total-count', '1', 'etag', '"1"', 'content-type', 'application/json; charset=utf-8', 'content-length', String(Buffer.byteLength(miss.body))]);
  await get('/with-cookie');
  const again = await get('/with-cookie');
  t.equal(c.calls(), 3, 'an answer that sets a cookie is never kept: the cookie is one request\'s');
  t.same(again.headers.slice(0, 2), ['set-cookie', 'seen=3']);
});

t.test('over 1,000 answers the least recently used goes first; a hit keeps its answer', async (t) => {
  const c = await withCache({ generation: () => 0 });
  t.teardown(() => c.app.close());
  for (let i = 0; i < 1000; i++) await c.app.inject(`/list?i=${i}`);
  t.equal(c.calls(), 1000);
  await c.app.inject('/list?i=0');
  t.equal(c.calls(), 1000, 'the first answer is hit');
  await c.app.inject('/list?i=1000');
  await c.app.inject('/list?i=0');
  t.equal(c.calls(), 1001, 'the 1,001st answer did not push out the one just used');
  await c.app.inject('/list?i=1');
  t.equal(c.calls(), 1002, 'the oldest one unused since went');
  await c.app.inject('/list?i=999');
  t.equal(c.calls(), 1002, 'the newer ones stay');
});

t.test('only 200s are kept; a store without generations caches nothing', async (t) => {
  const c = await withCache({ generation: () => 0 });
  t.teardown(() => c.app.close());
  c.fail(503);
  await c.app.inject('/list');
  c.fail(200);
  t.equal((await c.app.inject('/list')).statusCode, 200);
  t.equal(c.calls(), 2, 'the 503 was not kept');

  const shared = await withCache({});
  t.teardown(() => shared.app.close());
  await shared.app.inject('/list');
  await shared.app.inject('/list');
  t.equal(shared.calls(), 2, 'a shared store (other processes write it): every request computed');
});

t.test('an answer made from no collection (the greeting) is kept however the collections change', async (t) => {
  let generation = 0;
  const app = Fastify();
  await app.register(answerCache, { readStore: { generation: () => generation } } as unknown as AppDeps);
  let calls = 0;
  app.get('/greeting', { config: { answerFrom: [] } }, async () => `hello ${++calls}`);
  t.teardown(() => app.close());
  const first = await app.inject('/greeting');
  generation++;
  const again = await app.inject('/greeting');
  t.equal(calls, 1, 'the route ran once');
  t.equal(again.body, first.body);

  const { app: product, close } = await testApp();
  t.teardown(close);
  const greetings = [await product.inject('/'), await product.inject('/')];
  t.same(greetings.map((g) => [g.statusCode, g.body, g.headers['content-type'], g.headers['x-content-type-options']]), [0, 1].map(() => [200, '"Welcome to the Comanda POS API"', 'application/json; charset=utf-8', 'nosniff']),
    "the product's greeting, sent and then from the cache, with the same headers");
});

t.test('a route that validates headers cannot declare answerFrom: a hit skips validation', async (t) => {
  const app = Fastify();
  t.teardown(() => app.close());
  await app.register(answerCache, { readStore: { generation: () => 0 } } as unknown as AppDeps);
  t.throws(() => app.get('/by-header', { config: { answerFrom: ['things'] }, schema: { headers: { type: 'object', properties: { 'x-a': { type: 'string' } } } } }, async () => ({})), /validates headers/);
});

t.test('over the API: authorisation and validation on every request, writes seen at once', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  t.ok(h.readStore instanceof MemoryReadStore);
  const admin = await h.as('admin');
  const waiter = await h.as('waiter');
  const get = (url: string, cookie?: string) => h.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const category = (await h.app.inject({ method: 'POST', url: '/categories', headers: { cookie: admin }, payload: { name: 'Tacos' } })).json().id;
  await h.app.inject({ method: 'POST', url: '/dishes', headers: { cookie: admin }, payload: { name: 'Pastor', price: 25.5, category_id: category } });

  const list = await get('/dishes', admin);
  const again = await get('/dishes', admin);
  t.equal(again.body, list.body);
  t.match(again.headers, { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'x-total-count': '1' }, 'a cached answer keeps its headers and the signed-in no-store');
  t.equal((await get('/dishes')).statusCode, 401, 'a cached URL still needs a signed-in user');
  t.equal((await get('/dishes?limit=0', admin)).statusCode, 400, 'and valid parameters');

  const today = new Date().toISOString().slice(0, 10);
  t.equal((await get(`/orders/total-sales/${today}`, admin)).statusCode, 200);
  t.equal((await get(`/orders/total-sales/${today}`, waiter)).statusCode, 403, 'and the permission, after an admin had the answer');

  await h.app.inject({ method: 'POST', url: '/dishes', headers: { cookie: admin }, payload: { name: 'Suadero', price: 25.5, category_id: category } });
  const after = await get('/dishes', admin);
  t.equal(after.json().length, 2, 'a write is seen by the next read');
  t.equal(after.headers['x-total-count'], '2');

  const id = after.json()[0].id as string;
  const one = await get(`/dishes/${id}`, admin);
  t.equal((await get(`/dishes/${id}`, admin)).headers.etag, one.headers.etag, 'the ETag comes back with a cached answer');
  const renamed = await h.app.inject({ method: 'PUT', url: `/dishes/${id}`, headers: { cookie: admin, 'if-match': one.headers.etag as string }, payload: { name: 'Al pastor', price: 26, category_id: category } });
  t.equal(renamed.statusCode, 200, renamed.body);
  const fresh = await get(`/dishes/${id}`, admin);
  t.not(fresh.headers.etag, one.headers.etag, 'a new version, a new ETag');
  t.equal(fresh.json().name, 'Al pastor');
});
