import t from 'tap';
import { KeptAnswers } from '../src/http/kept-answers.js';
import { servedApp } from './harness.js';
import { setUpRestaurant } from './restaurant.js';

// A polled list's answer is kept with its strong ETag (http/kept-answers.ts): while the tag holds, the
// same bytes; once it moves, a fresh read. What the floor sees must never be an older answer.

t.test('a list read twice under one tag answers the same bytes and headers; a write answers afresh', async (t) => {
  const s = await servedApp();
  t.teardown(s.close);
  const manager = await s.as('manager');
  const waiter = await s.as('waiter');
  const space = await (await s.request('/spaces', manager, {}, 'POST', { name: 'Patio' })).json() as { id: string };
  for (const name of ['P1', 'P2', 'P3']) t.equal((await s.request('/tables', manager, {}, 'POST', { name, space_id: space.id })).status, 201);

  const first = await s.request('/tables?all=true', waiter);
  const second = await s.request('/tables?all=true', manager);
  t.equal(first.status, 200);
  t.equal(await second.text(), await first.text(), 'the same bytes');
  for (const header of ['etag', 'content-type', 'x-total-count', 'cache-control', 'x-content-type-options']) {
    t.equal(second.headers.get(header), first.headers.get(header), header);
  }
  t.equal(first.headers.get('content-type'), 'application/json; charset=utf-8');
  t.equal(first.headers.get('x-total-count'), '3');

  // A page is its own answer, with the total of the whole list.
  const page = await s.request('/tables?limit=1&offset=1', waiter);
  t.same((await page.json() as Array<{ name: string }>).map((x) => x.name), ['P2']);
  t.equal(page.headers.get('x-total-count'), '3');

  // Twenty tablets polling at once after a change all see it.
  const p1 = (await (await s.request('/tables?all=true', waiter)).json() as Array<{ id: string; name: string }>)[0]!;
  t.equal((await s.request(`/tables/${p1.id}`, manager, {}, 'PUT', { name: 'P1 ventana', status: 'available', space_id: space.id, order_id: null })).status, 200);
  const polls = await Promise.all(Array.from({ length: 20 }, () => s.request('/tables?all=true', waiter)));
  for (const poll of polls) t.equal((await poll.json() as Array<{ name: string }>)[0]!.name, 'P1 ventana');
  t.not(polls[0]!.headers.get('etag'), first.headers.get('etag'));

  // Emptied, the seed's resources answer 204 again; an order query with nothing to list answers [].
  for (const table of await (await s.request('/tables?all=true', waiter)).json() as Array<{ id: string }>) {
    t.equal((await s.request(`/tables/${table.id}`, manager, {}, 'DELETE')).status, 200);
  }
  const empty = await s.request('/tables?all=true', waiter);
  t.equal(empty.status, 204);
  t.equal(empty.headers.get('x-total-count'), '0');
  for (let i = 0; i < 2; i++) {
    const none = await s.request('/orders/open?all=true', waiter);
    t.equal(none.status, 200);
    t.same(await none.json(), []);
    t.equal(none.headers.get('x-total-count'), '0');
  }
});

t.test('an order list kept under its tag follows the orders it lists', async (t) => {
  const s = await servedApp();
  t.teardown(s.close);
  const [admin, waiter] = [await s.as('admin'), await s.as('waiter')];
  const r = await setUpRestaurant(s.app, admin);
  const me = (await (await s.request('/auth/me', waiter)).json() as { id: string }).id;
  const place = async () => (await (await s.request('/orders/with-dishes', waiter, {}, 'POST', { order: { user_id: me, table_id: null, waiter: 'Marisol' }, dishes: [{ dish_id: r.dishes.pastor }] })).json() as { id: string }).id;
  const ids = async (url: string) => (await (await s.request(url, waiter)).json() as Array<{ id: string }>).map((o) => o.id).sort();
  const first = await place();
  t.same(await ids('/orders/status/pending?all=true'), [first]);
  t.same(await ids('/orders/status/pending?all=true'), [first], 'kept');
  const tag = (await s.request('/orders/status/pending?all=true', waiter)).headers.get('etag')!;
  t.equal((await s.request('/orders/status/pending?all=true', waiter, { 'if-none-match': tag })).status, 304, 'its tag kept while nothing changed');
  const second = await place();
  t.same(await ids('/orders/status/pending?all=true'), [first, second].sort(), 'a new order joins the list');
  t.equal((await s.request('/orders/status/pending?all=true', waiter, { 'if-none-match': tag })).status, 200, 'and its tag moves');
  t.same(await ids(`/orders/user/${me}?all=true`), [first, second].sort(), 'by waiter too');
});

t.test('KeptAnswers: one read per tag, however many wait on it; a failed read is not kept; a bounded number of keys', async (t) => {
  const kept = new KeptAnswers();
  let reads = 0;
  const build = (json: string) => async () => { reads++; await new Promise((r) => setTimeout(r, 5)); return { json: Buffer.from(json), total: 1 }; };
  const answers = await Promise.all(Array.from({ length: 10 }, () => kept.answer('/tables', '"1"', build('[1]'))));
  t.equal(reads, 1, 'ten polls at once, one read');
  t.ok(answers.every((a) => String(a.json) === '[1]'));
  t.equal(String((await kept.answer('/tables', '"2"', build('[2]'))).json), '[2]', 'a new tag reads again');
  t.equal(reads, 2);

  await t.rejects(kept.answer('/dishes', '"1"', async () => { throw new Error('store down'); }));
  t.equal(String((await kept.answer('/dishes', '"1"', build('[d]'))).json), '[d]', 'the next request after a failure reads');

  for (let i = 0; i < 40; i++) await kept.answer(`/tables?limit=${i}`, '"2"', build(`[${i}]`));
  const before = reads;
  await kept.answer('/tables', '"2"', build('[again]'));
  t.equal(reads, before + 1, 'the oldest keys were dropped: at most a few kept');
  await kept.answer('/tables?limit=39', '"2"', build('[x]'));
  t.equal(reads, before + 1, 'the newest are kept');
});
