import t from 'tap';
import { servedApp } from './harness.js';
import { jsonCalls } from './served-calls.js';

/** Issue 60: a category's place on the menu (display_order), set by a manager, the order every screen lists them in. */

type Listed = Array<{ id: string; name: string; display_order: number }>;

async function service() {
  const s = await servedApp();
  const manager = await s.as('manager');
  const waiter = await s.as('waiter');
  const call = jsonCalls(s, manager);
  const listed = async () => ((await call('GET', '/categories', undefined, {}, waiter)).body as Listed).map((c) => [c.name, c.display_order]);
  return { ...s, call, listed, waiter };
}

t.test('categories are listed by display order, then name; a PUT moves one, leaving it out keeps it', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const bebidas = (await s.call('POST', '/categories', { name: 'Bebidas', display_order: 9 })).body.id as string;
  const entradas = await s.call('POST', '/categories', { name: 'Entradas' });
  t.equal(entradas.status, 201);
  await s.call('POST', '/categories', { name: 'Postres', display_order: 5 });
  await s.call('POST', '/categories', { name: 'Antojitos' });
  t.same(await s.listed(), [['Antojitos', 0], ['Entradas', 0], ['Postres', 5], ['Bebidas', 9]], 'unordered ones (0) first by name, then by their place');

  t.equal((await s.call('PUT', `/categories/${entradas.body.id}`, { name: 'Entradas', display_order: 7 }, { 'if-match': '"1"' })).status, 200);
  t.same(await s.listed(), [['Antojitos', 0], ['Postres', 5], ['Entradas', 7], ['Bebidas', 9]], 'moved');
  const one = await s.call('GET', `/categories/${entradas.body.id}`);
  t.same([one.body.display_order, one.etag], [7, '"2"'], 'a move is a new version');
  t.equal((await s.call('PUT', `/categories/${bebidas}`, { name: 'Bebidas y jugos' })).status, 200);
  t.same((await s.call('GET', `/categories/${bebidas}`)).body, { id: bebidas, name: 'Bebidas y jugos', station_id: null, tax_rate_id: null, display_order: 9 }, 'left out of a PUT: kept');
});

t.test('a place that is not a whole number from 0 to 9999 is a 400 naming it, and changes nothing; a waiter cannot move one', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const id = (await s.call('POST', '/categories', { name: 'Tacos', display_order: 3 }, { 'idempotency-key': 'tacos-1' })).body.id as string;
  const again = await s.call('POST', '/categories', { name: 'Tacos', display_order: 3 }, { 'idempotency-key': 'tacos-1' });
  t.same([again.status, again.body.id], [201, id], 'the same key answers the first category, none added');
  for (const bad of [-1, 1.5, 10_000, '4']) {
    const refused = await s.call('PUT', `/categories/${id}`, { name: 'Tacos', display_order: bad });
    t.equal(refused.status, 400, `${JSON.stringify(bad)} refused`);
    t.match(JSON.stringify(refused.body), /display_order/, 'the answer names the field');
  }
  t.equal((await s.call('POST', '/categories', { name: 'Sopas', display_order: -2 })).status, 400, 'on POST too');
  t.equal((await s.call('PUT', `/categories/${id}`, { name: 'Tacos', display_order: null })).status, 200, "null reads as absent (the API's rule for optional fields): kept");
  t.equal((await s.call('PUT', `/categories/${id}`, { name: 'Tacos', display_order: 1 }, {}, s.waiter)).status, 403, "a waiter's PUT");
  t.same(await s.listed(), [['Tacos', 3]], 'nothing written by the refused requests');
});
