import t from 'tap';
import Fastify from 'fastify';
import revalidation, { matches } from '../src/plugins/revalidation.js';
import { servedApp as served } from './harness.js';

t.test('a list answered from read models carries a strong ETag; If-None-Match with it is answered 304', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const manager = await s.as('manager');
  const waiter = await s.as('waiter');
  const space = await (await s.request('/spaces', manager, {}, 'POST', { name: 'Terrace' })).json() as { id: string };
  t.equal((await s.request('/tables', manager, {}, 'POST', { name: 'T1', space_id: space.id })).status, 201);

  const first = await s.request('/tables', waiter);
  t.equal(first.status, 200);
  const tag = first.headers.get('etag')!;
  t.match(tag, /^"[^"]+"$/, 'strong: no W/ prefix');
  t.equal(first.headers.get('cache-control'), 'private, no-cache');
  t.equal((await first.json() as unknown[]).length, 1);

  const again = await s.request('/tables', waiter, { 'if-none-match': tag });
  t.equal(again.status, 304);
  t.equal(await again.text(), '', 'no body');
  t.equal(again.headers.get('etag'), tag);
  t.equal(again.headers.get('cache-control'), 'private, no-cache');
  t.equal(again.headers.get('x-content-type-options'), 'nosniff', 'the security headers too');
  t.equal((await s.request('/tables', waiter, { 'if-none-match': `"other", W/${tag}` })).status, 304, 'a list, compared weakly');
  t.equal((await s.request('/tables', waiter, { 'if-none-match': '*' })).status, 304);
  t.equal((await s.request('/tables', waiter, { 'if-none-match': '"other"' })).status, 200);
  t.equal((await s.request('/tables', manager, { 'if-none-match': tag })).status, 304, 'the same answer for anyone allowed to read it');

  // A write to the collection: the old tag no longer matches, and the new answer shows the write.
  t.equal((await s.request('/tables', manager, {}, 'POST', { name: 'T2', space_id: space.id })).status, 201);
  const changed = await s.request('/tables', waiter, { 'if-none-match': tag });
  t.equal(changed.status, 200);
  t.not(changed.headers.get('etag'), tag);
  t.equal((await changed.json() as unknown[]).length, 2);
  // A write elsewhere (a space renamed) leaves the tables' tag alone; the by-space list reads both.
  const tablesTag = changed.headers.get('etag')!;
  const bySpace = await s.request(`/tables/by-space/${space.id}`, waiter);
  const bySpaceTag = bySpace.headers.get('etag')!;
  t.equal((await s.request('/spaces', manager, {}, 'POST', { name: 'Bar' })).status, 201);
  t.equal((await s.request('/tables', waiter, { 'if-none-match': tablesTag })).status, 304);
  t.equal((await s.request(`/tables/by-space/${space.id}`, waiter, { 'if-none-match': bySpaceTag })).status, 200);
});

t.test('authorisation comes first, and only a 200 or 204 keeps the tag', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const waiter = await s.as('waiter');
  const empty = await s.request('/tables', waiter);
  t.equal(empty.status, 204, 'no tables yet');
  const tag = empty.headers.get('etag')!;
  t.ok(tag, 'an empty list is revalidated too');
  t.equal((await s.request('/tables', waiter, { 'if-none-match': tag })).status, 304);
  t.equal((await s.request('/tables', null, { 'if-none-match': tag })).status, 401, 'no session: 401, not 304');
  const kitchen = await s.as('kitchen');
  t.equal((await s.request('/users', kitchen, { 'if-none-match': '*' })).status, 403, 'no permission: 403, not 304');
  const missing = await s.request('/tables/by-space/00000000-0000-4000-8000-000000000000', waiter);
  t.equal(missing.status, 404);
  t.equal(missing.headers.get('etag'), null, 'a 404 has no tag');
  t.equal(missing.headers.get('cache-control'), 'no-store');
});

t.test('a 304 is sent without running the handler; a shared store tags by the projector\'s checkpoint', async (t) => {
  let checkpoint: bigint | null = 7n;
  let calls = 0;
  const app = Fastify();
  await app.register(revalidation, { readStore: { getCheckpoint: async () => checkpoint } });
  app.get('/things', { config: { answerFrom: ['things'] } }, async () => ({ calls: ++calls }));
  app.get('/own', { config: { answerFrom: ['things'] } }, async (_request, reply) => reply.header('etag', '"v3"').send({ own: true }));
  app.get('/plain', async () => ({ plain: true }));
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  t.teardown(() => app.close());
  const first = await fetch(`${base}/things`);
  t.equal(first.headers.get('etag'), '"p7"');
  const hit = await fetch(`${base}/things`, { headers: { 'if-none-match': '"p7"' } });
  t.equal(hit.status, 304);
  t.equal(calls, 1, 'the handler ran once');
  checkpoint = 8n;
  t.equal((await fetch(`${base}/things`, { headers: { 'if-none-match': '"p7"' } })).status, 200, 'the projector moved on');
  t.equal(calls, 2);
  t.equal((await fetch(`${base}/own`)).headers.get('etag'), '"v3"', 'a route\'s own ETag is kept');
  const plain = await fetch(`${base}/plain`, { headers: { 'if-none-match': '*' } });
  t.same([plain.status, plain.headers.get('etag')], [200, null], 'routes that name no collections are left alone');
});

t.test('a client without the tag is sent the answer last made while its tag is current, its headers with it', async (t) => {
  let generation = 0;
  let calls = 0;
  const app = Fastify();
  await app.register(revalidation, { readStore: { generation: () => generation, getCheckpoint: async () => null } });
  app.get('/things', { config: { answerFrom: ['things'] } }, async (_request, reply) => reply.header('x-total-count', String(++calls)).send({ calls }));
  app.get('/with-cookie', { config: { answerFrom: ['things'] } }, async (_request, reply) => reply.header('set-cookie', `seen=${++calls}`).send({ calls }));
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  t.teardown(() => app.close());
  const first = await fetch(`${base}/things`);
  const again = await fetch(`${base}/things`);
  t.same([calls, await again.json(), again.headers.get('x-total-count'), again.headers.get('etag')], [1, { calls: 1 }, '1', first.headers.get('etag')], 'made once, sent twice with its headers');
  t.match(again.headers.get('content-type'), /^application\/json/);
  generation++;
  t.same(await (await fetch(`${base}/things`)).json(), { calls: 2 }, 'the collection moved: made again');
  await fetch(`${base}/with-cookie`);
  await fetch(`${base}/with-cookie`);
  t.equal(calls, 4, 'an answer that sets a cookie is never sent again');
  const shared = Fastify();
  await shared.register(revalidation, { readStore: { getCheckpoint: async () => 1n } });
  let sharedCalls = 0;
  shared.get('/things', { config: { answerFrom: ['things'] } }, async () => ({ calls: ++sharedCalls }));
  await shared.inject('/things');
  await shared.inject('/things');
  t.equal(sharedCalls, 2, 'a shared store: every answer is made');
  await shared.close();
});

t.test('a request validation could not refuse is decided on arrival; one it could is validated first', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const waiter = await s.as('waiter');
  const pending = await s.request('/orders/status/pending', waiter);
  const tag = pending.headers.get('etag')!;
  t.equal((await s.request('/orders/status/pending', waiter, { 'if-none-match': tag })).status, 304, 'valid path parameters: 304');
  // Whatever tag the client holds, what validation refuses is a 400.
  t.equal((await s.request('/orders/status/bogus', waiter, { 'if-none-match': '*' })).status, 400, 'a parameter out of its enum');
  t.equal((await s.request('/orders/user/not-a-uuid', waiter, { 'if-none-match': '*' })).status, 400, 'a parameter out of its format');
  t.equal((await s.request('/orders/date-range', waiter, { 'if-none-match': '*' })).status, 400, 'a required query parameter missing');
  t.equal((await s.request('/tables?limit=abc', waiter, { 'if-none-match': '*' })).status, 400, 'a query string validation refuses');
  t.equal((await s.request('/tables?limit=5', waiter, { 'if-none-match': '*' })).status, 304, 'a valid one, after validation');
  t.equal((await s.request('/orders/status/pending', null, { 'if-none-match': tag })).status, 401, 'authorisation still first');

  // On arrival means before validation: a validator that counts its calls is not called for a 304.
  let validations = 0;
  const app = Fastify();
  app.setValidatorCompiler(() => (value: unknown) => {
    validations++;
    return value !== null;
  });
  await app.register(revalidation, { readStore: { generation: () => 1, getCheckpoint: async () => null } });
  app.get('/things/:kind', { config: { answerFrom: ['things'] }, schema: { params: { type: 'object' }, querystring: { type: 'object' } } }, async () => ({ ok: true }));
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  t.teardown(() => app.close());
  const thingsTag = (await fetch(`${base}/things/a`)).headers.get('etag')!;
  validations = 0;
  t.equal((await fetch(`${base}/things/a`, { headers: { 'if-none-match': thingsTag } })).status, 304);
  t.equal(validations, 1, 'only the path parameters were checked, by the route\'s own validator');
  validations = 0;
  t.equal((await fetch(`${base}/things/a?x=1`, { headers: { 'if-none-match': thingsTag } })).status, 304);
  t.equal(validations, 2, 'a query string: Fastify validated parameters and query before the tag was compared');
});

t.test('If-None-Match is read as RFC 9110 says', async (t) => {
  t.ok(matches('"a"', '"a"'));
  t.ok(matches('W/"a"', '"a"'));
  t.ok(matches(' "b" , "a" ', '"a"'));
  t.ok(matches('*', '"a"'));
  t.notOk(matches(undefined, '"a"'));
  t.notOk(matches('"ab"', '"a"'));
  t.notOk(matches('', '"a"'));
});
