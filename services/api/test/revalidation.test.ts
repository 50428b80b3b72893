import t from 'tap';
import Fastify from 'fastify';
import revalidation, { matches, unchanged } from '../src/plugins/revalidation.js';
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

t.test('a 304 is decided by the route before it reads; a shared store tags by the projector\'s checkpoint', async (t) => {
  let checkpoint: bigint | null = 7n;
  let reads = 0;
  const app = Fastify();
  await app.register(revalidation, { readStore: { getCheckpoint: async () => checkpoint } });
  const tag = app.collectionsTag(['things']);
  app.get('/things', async (request, reply) => {
    if (unchanged(request, reply, await tag())) return reply;
    return { reads: ++reads };
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  t.teardown(() => app.close());
  const first = await fetch(`${base}/things`);
  t.equal(first.headers.get('etag'), '"p7"');
  const hit = await fetch(`${base}/things`, { headers: { 'if-none-match': '"p7"' } });
  t.equal(hit.status, 304);
  t.equal(reads, 1, 'the route read once');
  checkpoint = 8n;
  t.equal((await fetch(`${base}/things`, { headers: { 'if-none-match': '"p7"' } })).status, 200, 'the projector moved on');
  t.equal(reads, 2);
});

t.test('a document answers 304 to its own ETag, the version If-Match takes, and 200 after a change', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const manager = await s.as('manager');
  const waiter = await s.as('waiter');
  const users = await (await s.request('/users', await s.as('admin'))).json() as Array<{ id: string; name: string }>;
  const me = users.find((u) => u.name === 'waiter-1')!;
  const placed = await s.request('/orders', waiter, {}, 'POST', { user_id: me.id, table_id: null, waiter: 'waiter-1' });
  t.equal(placed.status, 201);
  const { id } = await placed.json() as { id: string };
  const order = await s.request(`/orders/${id}`, waiter);
  const tag = order.headers.get('etag')!;
  t.equal(tag, '"1"', "the order's version");
  t.equal((await s.request(`/orders/${id}`, waiter, { 'if-none-match': tag })).status, 304, 'its own ETag: 304');
  const complete = await s.request(`/orders/${id}/complete`, waiter);
  const completeTag = complete.headers.get('etag')!;
  t.equal((await s.request(`/orders/${id}/complete`, waiter, { 'if-none-match': completeTag })).status, 304, 'the order with its dishes, polled by the POS: 304');
  const dishes = await s.request(`/orders/${id}/dishes`, waiter);
  t.equal(dishes.status, 200, 'no dishes yet');
  const moved = await s.request(`/orders/${id}`, manager, { 'if-match': tag }, 'PUT', { user_id: me.id, table_id: null, waiter: 'waiter-1', status: 'preparing' });
  t.equal(moved.status, 200, 'the same ETag is the If-Match of a write');
  const after = await s.request(`/orders/${id}`, waiter, { 'if-none-match': tag });
  t.equal(after.status, 200, 'changed: answered in full');
  t.equal(after.headers.get('etag'), '"2"');
  t.equal((await s.request(`/orders/${id}/complete`, waiter, { 'if-none-match': completeTag })).status, 200);
  const missing = '00000000-0000-4000-8000-000000000000';
  for (const url of [`/orders/${missing}`, `/orders/${missing}/complete`, `/orders/${missing}/tickets`, `/spaces/${missing}`, `/tables/by-space/${missing}`]) {
    const res = await s.request(url, waiter, { 'if-none-match': '*' });
    t.equal(res.status, 404, `If-None-Match: * on ${url}, which does not exist`);
    t.equal(res.headers.get('etag'), null);
  }
});

t.test('the POS\'s polled reads revalidate: an order\'s bills and one bill', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const manager = await s.as('manager');
  const users = await (await s.request('/users', await s.as('admin'))).json() as Array<{ id: string; name: string }>;
  const me = users.find((u) => u.name === 'manager-1')!;
  const { id } = await (await s.request('/orders', manager, {}, 'POST', { user_id: me.id, table_id: null, waiter: 'manager-1' })).json() as { id: string };
  const none = await s.request(`/orders/${id}/tickets`, manager);
  t.equal(none.status, 204);
  t.equal((await s.request(`/orders/${id}/tickets`, manager, { 'if-none-match': none.headers.get('etag')! })).status, 304);
  const list = await s.request('/tickets', manager);
  t.equal((await s.request('/tickets', manager, { 'if-none-match': list.headers.get('etag')! })).status, 304);
  const kitchen = await s.as('kitchen');
  const board = await s.request('/kitchen/tickets', kitchen);
  t.equal(board.status, 200);
  t.equal((await s.request('/kitchen/tickets', kitchen, { 'if-none-match': board.headers.get('etag')! })).status, 304, 'the kitchen board');
});

t.test("an open state's list moves with its own orders only, not with every write to the orders", async (t) => {
  const s = await served();
  t.teardown(s.close);
  const manager = await s.as('manager');
  const users = await (await s.request('/users', await s.as('admin'))).json() as Array<{ id: string; name: string }>;
  const me = users.find((u) => u.name === 'manager-1')!;
  const place = async () => (await (await s.request('/orders', manager, {}, 'POST', { user_id: me.id, table_id: null, waiter: 'manager-1' })).json() as { id: string }).id;
  const first = await place();
  const second = await place();
  const tagOf = async (status: string) => (await s.request(`/orders/status/${status}?all=true`, manager)).headers.get('etag')!;
  const pending = await tagOf('pending');
  const ready = await tagOf('ready');
  const order = await (await s.request(`/orders/${second}`, manager)).json() as { id: string };
  t.ok(order.id);
  const moved = await s.request(`/orders/${second}`, manager, {}, 'PUT', { user_id: me.id, table_id: null, waiter: 'manager-1', status: 'preparing' });
  t.equal(moved.status, 200);
  t.equal((await s.request('/orders/status/ready?all=true', manager, { 'if-none-match': ready })).status, 304, 'a write to an order that is not ready leaves the ready list alone');
  const left = await s.request('/orders/status/pending?all=true', manager, { 'if-none-match': pending });
  t.equal(left.status, 200, 'an order that left the pending list moves its tag');
  t.same((await left.json() as Array<{ id: string }>).map((o) => o.id), [first]);
  const preparing = await tagOf('preparing');
  const stillPending = left.headers.get('etag')!;
  await s.request(`/orders/${first}`, manager, {}, 'PUT', { user_id: me.id, table_id: null, waiter: 'manager-1', status: 'cancelled' });
  t.equal((await s.request('/orders/status/preparing?all=true', manager, { 'if-none-match': preparing })).status, 304);
  const empty = await s.request('/orders/status/pending?all=true', manager, { 'if-none-match': stillPending });
  t.same([empty.status, await empty.json()], [200, []], 'the last one left: empty');
});

t.test('validation comes first: whatever tag the client holds, what validation refuses is a 400', async (t) => {
  const s = await served();
  t.teardown(s.close);
  const waiter = await s.as('waiter');
  const pending = await s.request('/orders/status/pending', waiter);
  const tag = pending.headers.get('etag')!;
  t.equal((await s.request('/orders/status/pending', waiter, { 'if-none-match': tag })).status, 304, 'valid path parameters: 304');
  t.equal((await s.request('/orders/status/pending?all=true', waiter, { 'if-none-match': tag })).status, 304, 'with the query string the POS sends');
  t.equal((await s.request('/orders/status/bogus', waiter, { 'if-none-match': '*' })).status, 400, 'a parameter out of its enum');
  t.equal((await s.request('/orders/user/not-a-uuid', waiter, { 'if-none-match': '*' })).status, 400, 'a parameter out of its format');
  t.equal((await s.request('/orders/date-range', waiter, { 'if-none-match': '*' })).status, 400, 'a required query parameter missing');
  t.equal((await s.request('/orders/date-range?start_date=2026-02-30&end_date=2026-03-01', waiter, { 'if-none-match': '*' })).status, 400, "the route's own check of a day");
  t.equal((await s.request('/tables?limit=abc', waiter, { 'if-none-match': '*' })).status, 400, 'a query string validation refuses');
  t.equal((await s.request('/tables?limit=5', waiter, { 'if-none-match': '*' })).status, 304, 'a valid one');
  t.equal((await s.request('/orders/status/pending', null, { 'if-none-match': tag })).status, 401, 'authentication still first');
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
