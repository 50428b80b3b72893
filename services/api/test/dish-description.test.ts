import t from 'tap';
import { servedApp } from './harness.js';
import { jsonCalls } from './served-calls.js';

/** Issue 60: a dish's description, written by the menu editor, read by every tablet. */

t.test("a dish's description: given on POST, kept by a PUT that leaves it out, '' takes it off; too long is a 400 that writes nothing", async (t) => {
  const s = await servedApp();
  t.teardown(s.close);
  const manager = await s.as('manager');
  const waiter = await s.as('waiter');
  const call = jsonCalls(s, manager);
  const category = (await call('POST', '/categories', { name: 'Bebidas' })).body.id as string;
  const added = await call('POST', '/dishes', { name: 'Agua de jamaica', price: 25, category_id: category, description: '  Hibiscus, cold, not too sweet ' }, { 'idempotency-key': 'jamaica-1' });
  t.equal(added.status, 201);
  const path = added.location!;
  const read = async () => (await call('GET', path, undefined, {}, waiter)).body;
  t.match(await read(), { name: 'Agua de jamaica', description: 'Hibiscus, cold, not too sweet' }, 'trimmed, and a waiter reads it');
  const again = await call('POST', '/dishes', { name: 'Agua de jamaica', price: 25, category_id: category, description: '  Hibiscus, cold, not too sweet ' }, { 'idempotency-key': 'jamaica-1' });
  t.same([again.status, again.location], [201, path], 'the same request again: the same dish, no second one');

  t.equal((await call('PUT', path, { name: 'Agua de jamaica', price: 28, category_id: category })).status, 200);
  t.match(await read(), { price: 28, description: 'Hibiscus, cold, not too sweet' }, 'a seed client\'s PUT (no description) keeps it');
  const long = await call('PUT', path, { name: 'Agua de jamaica', price: 30, category_id: category, description: 'x'.repeat(501) });
  t.equal(long.status, 400, 'over 500 characters');
  t.match(JSON.stringify(long.body), /description/, 'the answer names the field');
  t.match(await read(), { price: 28, description: 'Hibiscus, cold, not too sweet' }, 'nothing of the refused PUT written, its price neither');
  t.equal((await call('PUT', path, { name: 'Agua de jamaica', price: 28, category_id: category, description: 'Hibiscus' }, {}, waiter)).status, 403, "a waiter's PUT");
  t.equal((await call('PUT', path, { name: 'Agua de jamaica', price: 28, category_id: category, description: '' })).status, 200);
  t.match(await read(), { description: '' }, "'' takes it off");
  const none = await call('POST', '/dishes', { name: 'Agua de horchata', price: 25, category_id: category });
  t.match(await call('GET', none.location!), { body: { description: '' } }, 'a dish added without one has none');
});
