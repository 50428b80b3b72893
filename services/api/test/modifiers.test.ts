import t from 'tap';
import { billsService } from './bills-helpers.js';

const UNKNOWN = '99999999-9999-4999-8999-999999999999';
const salsa = { name: 'Salsa', min_choices: 1, max_choices: 1, options: [{ name: 'Verde', price_delta: 0 }, { name: 'Roja', price_delta: 0 }] };
const extras = { name: 'Extras', min_choices: 0, max_choices: 2, options: [{ name: 'Guacamole', price_delta: 15 }, { name: 'Queso', price_delta: 10.05 }] };

t.test('modifier groups: managers and admins write, every role reads; bounds, 404, 409 while a dish uses one', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  t.equal((await s.waiter('POST', '/modifier-groups', salsa)).status, 403);
  t.equal((await s.kitchen('POST', '/modifier-groups', salsa)).status, 403);
  t.equal((await s.manager('GET', '/modifier-groups')).status, 204, 'none yet');
  const created = await s.manager('POST', '/modifier-groups', salsa);
  t.equal(created.status, 201);
  t.match(created.body, { id: /^[0-9a-f-]{36}$/, option_ids: [/^[0-9a-f-]{36}$/, /^[0-9a-f-]{36}$/], message: 'Modifier group added successfully' });
  const id = created.body.id as string;
  for (const role of ['waiter', 'kitchen', 'manager', 'admin'] as const) t.equal((await s.as(role)('GET', `/modifier-groups/${id}`)).status, 200, `${role} reads`);
  const one = await s.waiter('GET', `/modifier-groups/${id}`);
  t.same(one.body, { id, name: 'Salsa', min_choices: 1, max_choices: 1, options: [{ id: created.body.option_ids[0], name: 'Verde', price_delta: 0 }, { id: created.body.option_ids[1], name: 'Roja', price_delta: 0 }] });
  t.equal(one.headers.etag, '"1"');
  t.same((await s.waiter('GET', '/modifier-groups')).body.map((g: { name: string }) => g.name), ['Salsa']);
  t.equal((await s.admin('POST', '/modifier-groups', { ...extras, name: 'salsa' })).status, 409, 'names unique ignoring case');
  for (const bad of [
    { ...extras, min_choices: 3, max_choices: 2 }, { ...extras, max_choices: 0 }, { ...extras, min_choices: -1 }, { ...extras, options: [] },
    { ...extras, options: [{ name: 'X', price_delta: -10_000_000 }] }, { ...extras, options: [{ name: 'X', price_delta: 1.001 }] }, { ...extras, max_choices: 51 },
  ]) {
    t.equal((await s.admin('POST', '/modifier-groups', bad)).status, 400, JSON.stringify(bad));
  }
  const kept = created.body.option_ids[0];
  const changed = await s.admin('PUT', `/modifier-groups/${id}`, { ...salsa, max_choices: 2, options: [{ id: kept, name: 'Verde', price_delta: 0 }, { name: 'Habanero', price_delta: 2 }] }, { 'if-match': '"1"' });
  t.equal(changed.status, 200);
  const after = (await s.waiter('GET', `/modifier-groups/${id}`)).body;
  t.same(after.options.map((o: { id: string; name: string }) => o.name), ['Verde', 'Habanero']);
  t.equal(after.options[0].id, kept, 'a kept option keeps its id');
  t.equal((await s.admin('PUT', `/modifier-groups/${id}`, salsa, { 'if-match': '"1"' })).status, 412);
  t.equal((await s.admin('PUT', `/modifier-groups/${UNKNOWN}`, salsa)).status, 404);
  t.equal((await s.waiter('GET', `/modifier-groups/${UNKNOWN}`)).status, 404);

  const dish = await s.admin('POST', '/dishes', { name: 'Quesadilla', price: 40, category_id: s.r.category, modifier_group_ids: [id], allergens: ['milk', 'gluten'] });
  t.equal(dish.status, 201);
  const dishId = String(dish.headers.location).split('/').pop();
  t.match((await s.waiter('GET', `/dishes/${dishId}`)).body, { modifier_group_ids: [id], allergens: ['gluten', 'milk'] });
  const inUse = await s.admin('DELETE', `/modifier-groups/${id}`);
  t.same([inUse.status, inUse.body.dish_count], [409, 1]);
  t.equal((await s.admin('PUT', `/dishes/${dishId}`, { name: 'Quesadilla', price: 40, category_id: s.r.category })).status, 200);
  t.match((await s.waiter('GET', `/dishes/${dishId}`)).body, { modifier_group_ids: [id], allergens: ['gluten', 'milk'] }, 'a seed PUT keeps them');
  t.equal((await s.admin('PUT', `/dishes/${dishId}`, { name: 'Quesadilla', price: 40, category_id: s.r.category, modifier_group_ids: [] })).status, 200);
  t.equal((await s.admin('DELETE', `/modifier-groups/${id}`)).status, 204);
  t.equal((await s.waiter('GET', `/modifier-groups/${id}`)).status, 404);
});

t.test('dishes: unknown groups and allergens outside the EU 14 are 400; seed dishes answer empty lists', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const bad = async (body: object) => (await s.admin('POST', '/dishes', { name: 'X', price: 1, category_id: s.r.category, ...body })).status;
  t.equal(await bad({ modifier_group_ids: [UNKNOWN] }), 400);
  t.equal(await bad({ allergens: ['avocado'] }), 400);
  t.equal(await bad({ allergens: ['gluten', 'gluten'] }), 400);
  t.match((await s.waiter('GET', `/dishes/${s.r.dishes.pastor}`)).body, { name: 'Taco al pastor', price: 25.5, modifier_group_ids: [], allergens: [] });
});

t.test('a line\'s modifiers: priced when added, counted in line_total, shown on the kitchen ticket with the allergens', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  await s.admin('POST', '/stations', { name: 'Grill' });
  const sal = (await s.admin('POST', '/modifier-groups', salsa)).body;
  const ext = (await s.admin('POST', '/modifier-groups', extras)).body;
  const dish = await s.admin('POST', '/dishes', { name: 'Tacos', price: 25.5, category_id: s.r.category, modifier_group_ids: [sal.id, ext.id], allergens: ['gluten'] });
  const tacos = String(dish.headers.location).split('/').pop()!;
  const order = (await s.waiter('POST', '/orders', { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'M' })).body.id as string;
  const add = (modifiers: string[], quantity = 1) => s.waiter('POST', `/orders/${order}/dishes`, [{ dish_id: tacos, modifiers, quantity }]);

  const none = await add([]);
  t.equal(none.status, 400);
  t.match(none.body, { errors: [{ field: 'dishes[0].modifiers', message: 'Salsa: choose 1 (chosen: 0)' }] }, '400 naming the group');
  t.match((await add([sal.option_ids[0], sal.option_ids[1]])).body, { errors: [{ message: 'Salsa: choose 1 (chosen: 2)' }] });
  t.match((await add([sal.option_ids[0], UNKNOWN])).body, { errors: [{ field: 'dishes[0].modifiers[1]' }] });
  t.equal((await s.waiter('POST', `/orders/${order}/dishes`, [{ dish_id: s.r.dishes.pastor, modifiers: [sal.option_ids[0]] }])).status, 400, 'an option of a group the dish does not carry');
  t.equal((await add([sal.option_ids[0], ext.option_ids[0], ext.option_ids[1]], 2)).status, 201);
  const [line] = (await s.waiter('GET', `/orders/${order}/dishes`)).body;
  t.same(line.modifiers, [
    { group_id: sal.id, option_id: sal.option_ids[0], name: 'Verde', price_delta: 0 },
    { group_id: ext.id, option_id: ext.option_ids[0], name: 'Guacamole', price_delta: 15 },
    { group_id: ext.id, option_id: ext.option_ids[1], name: 'Queso', price_delta: 10.05 },
  ]);
  t.equal(line.line_total, 101.1, '(25.50 + 15 + 10.05) × 2');
  t.equal((await s.waiter('GET', `/orders/${order}`)).body.total, 101.1);

  // A later menu change does not reprice the line.
  await s.admin('PUT', `/modifier-groups/${ext.id}`, { ...extras, options: [{ id: ext.option_ids[0], name: 'Guacamole', price_delta: 30 }, { id: ext.option_ids[1], name: 'Queso', price_delta: 10.05 }] });
  t.equal((await s.waiter('GET', `/orders/${order}/dishes`)).body[0].line_total, 101.1);

  await s.waiter('POST', `/orders/${order}/fire`);
  const [ticket] = (await s.kitchen('GET', '/kitchen/tickets')).body;
  t.match(ticket.lines, [{ dish_name: 'Tacos', quantity: 2, modifiers: ['Verde', 'Guacamole', 'Queso'], allergens: ['gluten'] }]);
  const bill = (await s.waiter('POST', `/orders/${order}/tickets`, { split: 'none' })).body.ids[0];
  t.equal((await s.waiter('GET', `/tickets/${bill}`)).body.subtotal, 101.1);
  const receipt = (await s.waiter('GET', `/tickets/${bill}/receipt`)).body as string;
  t.match(receipt, /2 x Tacos\s+101\.10/);
  t.match(receipt, /\+ Guacamole 15\.00/);
});

t.test('an option may take money off ("sin queso −5.00"), never a portion below zero: at the group, the dish and the order', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const sin = { name: 'Sin', min_choices: 0, max_choices: 1, options: [{ name: 'Sin queso', price_delta: -5 }, { name: 'Sin sal', price_delta: 0 }] };
  const created = await s.manager('POST', '/modifier-groups', sin);
  t.equal(created.status, 201, 'a price delta below zero is taken');
  const group = created.body as { id: string; option_ids: string[] };
  t.same((await s.waiter('GET', `/modifier-groups/${group.id}`)).body.options.map((o: { price_delta: number }) => o.price_delta), [-5, 0]);

  const tooCheap = await s.manager('POST', '/dishes', { name: 'Tostada', price: 4.5, category_id: s.r.category, modifier_group_ids: [group.id] });
  t.same([tooCheap.status, tooCheap.body.errors], [400, [{ field: 'modifier_group_ids', message: 'Tostada at 4.50 would come to less than nothing with Sin (up to -5.00 a portion)' }]]);
  const dish = await s.manager('POST', '/dishes', { name: 'Tostada', price: 8, category_id: s.r.category, modifier_group_ids: [group.id] });
  t.equal(dish.status, 201);
  const tostada = String(dish.headers.location).split('/').pop()!;
  const repriced = await s.manager('PUT', `/dishes/${tostada}`, { name: 'Tostada', price: 4.99, category_id: s.r.category });
  t.same([repriced.status, repriced.body.errors[0].field], [400, 'price'], 'repriced below what its option takes off: 400, the dish unchanged');
  t.equal((await s.waiter('GET', `/dishes/${tostada}`)).body.price, 8);
  const deeper = await s.manager('PUT', `/modifier-groups/${group.id}`, { ...sin, options: [{ id: group.option_ids[0], name: 'Sin queso', price_delta: -8.01 }, { id: group.option_ids[1], name: 'Sin sal', price_delta: 0 }] });
  t.same([deeper.status, deeper.body.errors[0]], [400, { field: 'options', message: 'Tostada at 8.00 would come to less than nothing with Sin (up to -8.01 a portion)' }]);

  const order = (await s.waiter('POST', '/orders', { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'M' })).body.id as string;
  t.equal((await s.waiter('POST', `/orders/${order}/dishes`, [{ dish_id: tostada, modifiers: [group.option_ids[0]], quantity: 2 }])).status, 201);
  const [line] = (await s.waiter('GET', `/orders/${order}/dishes`)).body;
  t.same([line.modifiers[0].price_delta, line.line_total], [-5, 6], '(8.00 − 5.00) × 2');
  t.equal((await s.waiter('GET', `/orders/${order}`)).body.total, 6);
  const ownPrice = await s.waiter('POST', `/orders/${order}/dishes`, [{ dish_id: tostada, price_at_order: 4, modifiers: [group.option_ids[0]] }]);
  t.same([ownPrice.status, ownPrice.body.errors], [400, [{ field: 'dishes[0].price_at_order', message: 'a portion would come to less than nothing: 4.00 with modifiers of -5.00' }]], 'a price of its own below its modifiers');
  const lowered = await s.waiter('PUT', `/orders/${order}/dishes/${line.id}`, { dish_id: tostada, price_at_order: 4.99, notes: '' });
  t.same([lowered.status, lowered.body.errors?.[0]?.field], [400, 'price_at_order'], 'a line repriced below its modifiers');

  const bill = (await s.waiter('POST', `/orders/${order}/tickets`, { split: 'none' })).body.ids[0];
  t.equal((await s.waiter('GET', `/tickets/${bill}`)).body.subtotal, 6);
  t.match((await s.waiter('GET', `/tickets/${bill}/receipt`)).body as string, /\+ Sin queso -5\.00/);
});
