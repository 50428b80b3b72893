import t from 'tap';
import { testApp } from './harness.js';
import { locationId, requests } from './requests.js';

const UNKNOWN = '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a';

async function menuApp(t: Tap.Test) {
  const h = await testApp();
  t.teardown(h.close);
  return { ...h, ...requests(h.app, await h.as('manager')) };
}

t.test('categories: add, list, read with ETag, rename, delete', async (t) => {
  const { get, post, put, del } = await menuApp(t);
  const empty = await get('/categories');
  t.same([empty.statusCode, empty.body], [204, ''], 'no categories: 204 with no body');

  const added = await post('/categories', { name: '  Drinks ' });
  t.equal(added.statusCode, 201);
  const id = added.json().id;
  t.same(added.json(), { id, message: 'Category added successfully' });
  t.equal(added.headers.location, `/categories/${id}`);
  await post('/categories', { name: 'Antojitos' });

  const list = await get('/categories');
  t.equal(list.statusCode, 200);
  t.same(list.json().map((c: { name: string }) => c.name), ['Antojitos', 'Drinks'], 'sorted by name, trimmed');
  t.same(Object.keys(list.json()[0]).sort(), ['display_order', 'id', 'name', 'station_id', 'tax_rate_id'], 'no internal fields');

  const one = await get(`/categories/${id}`);
  t.same([one.statusCode, one.json(), one.headers.etag], [200, { id, name: 'Drinks', station_id: null, tax_rate_id: null, display_order: 0 }, '"1"']);

  const renamed = await put(`/categories/${id}`, { name: 'Beverages' }, { 'if-match': '"1"' });
  t.same([renamed.statusCode, renamed.json()], [200, { id, message: 'Category updated successfully' }]);
  t.same([(await get(`/categories/${id}`)).json().name, (await get(`/categories/${id}`)).headers.etag], ['Beverages', '"2"']);
  const stale = await put(`/categories/${id}`, { name: 'Juices' }, { 'if-match': '"1"' });
  t.equal(stale.statusCode, 412);
  t.type(stale.json().message, 'string');
  t.equal((await get(`/categories/${id}`)).json().name, 'Beverages', 'a stale write changes nothing');
  t.equal((await put(`/categories/${id}`, { name: 'Juices' }, { 'if-match': 'three' })).statusCode, 400);

  const deleted = await del(`/categories/${id}`);
  t.same([deleted.statusCode, deleted.json()], [200, { id, message: 'Category deleted successfully' }]);
  t.same([(await get(`/categories/${id}`)).statusCode, (await get(`/categories/${id}`)).body], [404, '"Resource not found"']);
});

t.test('categories: duplicate names, categories in use, bad input', async (t) => {
  const { get, post, put, del } = await menuApp(t);
  const drinks = (await post('/categories', { name: 'Drinks' })).json().id;
  const mains = (await post('/categories', { name: 'Mains' })).json().id;

  const dup = await post('/categories', { name: 'DRINKS' });
  t.same([dup.statusCode, dup.json()], [409, { message: 'A dish category named Drinks already exists' }]);
  t.equal((await put(`/categories/${mains}`, { name: 'drinks' })).statusCode, 409);

  await post('/dishes', { name: 'Lemonade', price: 35, category_id: drinks });
  const used = await del(`/categories/${drinks}`);
  t.equal(used.statusCode, 409);
  t.match(used.json().message, /Drinks is used by 1 dish/);

  for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(101) }]) {
    const res = await post('/categories', body);
    t.same([res.statusCode, res.json().message, res.json().errors[0].field], [400, 'Validation failed', 'name'], JSON.stringify(body).slice(0, 30));
  }
  t.equal((await post('/categories', { name: ` ${'x'.repeat(100)} ` })).statusCode, 201, '100 characters once trimmed');
  for (const [method, url] of [['GET', '/categories/nope'], ['PUT', '/categories/nope'], ['DELETE', '/categories/nope']] as const) {
    const res = method === 'GET' ? await get(url) : method === 'PUT' ? await put(url, { name: 'X' }) : await del(url);
    t.same([res.statusCode, res.body], [400, '"Missing or malformed ID"'], `${method} malformed id`);
  }
  for (const res of [await get(`/categories/${UNKNOWN}`), await put(`/categories/${UNKNOWN}`, { name: 'X' }), await del(`/categories/${UNKNOWN}`)]) {
    t.same([res.statusCode, res.body], [404, '"Resource not found"']);
  }
});

t.test('categories: an Idempotency-Key repeat answers the first response and adds nothing', async (t) => {
  const { get, post } = await menuApp(t);
  const first = await post('/categories', { name: 'Drinks' }, { 'idempotency-key': 'cat-1' });
  const again = await post('/categories', { name: 'Drinks' }, { 'idempotency-key': 'cat-1' });
  t.same([again.statusCode, again.json(), again.headers.location], [201, first.json(), first.headers.location]);
  t.equal((await get('/categories')).json().length, 1);
  const reused = await post('/categories', { name: 'Mains' }, { 'idempotency-key': 'cat-1' });
  t.equal(reused.statusCode, 409, 'the same key for another body is refused');
});

t.test('dishes: the seed\'s answers', async (t) => {
  const { get, post, put, del } = await menuApp(t);
  const empty = await get('/dishes');
  t.same([empty.statusCode, empty.body], [204, ''], 'no dishes: 204 with no body');
  const drinks = (await post('/categories', { name: 'Drinks' })).json().id;
  const mains = (await post('/categories', { name: 'Mains' })).json().id;

  const added = await post('/dishes', { name: ' Tacos al pastor ', price: 89.5, category_id: mains });
  t.same([added.statusCode, added.body], [201, '"Dish added successfully"']);
  t.match(added.headers['content-type'], /^application\/json/);
  t.match(added.headers.location, /^\/dishes\/[0-9a-f-]{36}$/);
  const id = locationId(added.headers.location);
  await post('/dishes', { name: 'Agua de jamaica', price: 25, category_id: drinks });

  const list = await get('/dishes');
  t.same(list.json(), [
    { id: list.json()[0].id, name: 'Agua de jamaica', price: 25, category_id: drinks, station_id: null, modifier_group_ids: [], allergens: [], tax_rate_id: null, description: '', sold_out: false, remaining: null },
    { id, name: 'Tacos al pastor', price: 89.5, category_id: mains, station_id: null, modifier_group_ids: [], allergens: [], tax_rate_id: null, description: '', sold_out: false, remaining: null },
  ]);
  const one = await get(`/dishes/${id}`);
  t.same([one.statusCode, one.json(), one.headers.etag], [200, { id, name: 'Tacos al pastor', price: 89.5, category_id: mains, station_id: null, modifier_group_ids: [], allergens: [], tax_rate_id: null, description: '', sold_out: false, remaining: null }, '"1"']);

  const updated = await put(`/dishes/${id}`, { name: 'Tacos al pastor', price: 0.1 + 0.2, category_id: drinks }, { 'if-match': '"1"' });
  t.same([updated.statusCode, updated.body], [200, '"Dish updated successfully"']);
  t.same((await get(`/dishes/${id}`)).json(), { id, name: 'Tacos al pastor', price: 0.3, category_id: drinks, station_id: null, modifier_group_ids: [], allergens: [], tax_rate_id: null, description: '', sold_out: false, remaining: null }, 'binary noise does not reach the price');
  t.equal((await put(`/dishes/${id}`, { name: 'Tacos', price: 90, category_id: drinks }, { 'if-match': '"1"' })).statusCode, 412);
  const unchanged = await put(`/dishes/${id}`, { name: 'Tacos al pastor', price: 0.3, category_id: drinks }, { 'if-match': '"2"' });
  t.equal(unchanged.statusCode, 200, 'a PUT that changes nothing succeeds');
  t.equal((await get(`/dishes/${id}`)).headers.etag, '"2"', 'and keeps the version');

  const deleted = await del(`/dishes/${id}`);
  t.same([deleted.statusCode, deleted.body], [204, '']);
  t.equal((await get(`/dishes/${id}`)).statusCode, 404);
  t.equal((await del(`/dishes/${id}`)).statusCode, 404, 'deleting twice: the second finds nothing');
  t.equal((await get('/dishes')).json().length, 1);
});

t.test('dishes: validation, unknown and malformed ids', async (t) => {
  const { post, put, get, del } = await menuApp(t);
  const drinks = (await post('/categories', { name: 'Drinks' })).json().id;
  const fieldsOf = async (body: unknown) => {
    const res = await post('/dishes', body);
    t.equal(res.statusCode, 400, JSON.stringify(body));
    t.equal(res.json().message, 'Validation failed');
    return res.json().errors.map((e: { field: string }) => e.field).sort();
  };
  t.same(await fieldsOf({}), ['category_id', 'name', 'price']);
  t.same(await fieldsOf({ name: '   ', price: 10, category_id: drinks }), ['name']);
  t.same(await fieldsOf({ name: 'x'.repeat(101), price: 10, category_id: drinks }), ['name']);
  t.same(await fieldsOf({ name: 'Water', price: 0, category_id: drinks }), ['price']);
  t.same(await fieldsOf({ name: 'Water', price: -5, category_id: drinks }), ['price']);
  t.same(await fieldsOf({ name: 'Water', price: 1.005, category_id: drinks }), ['price']);
  t.same(await fieldsOf({ name: 'Water', price: 'cheap', category_id: drinks }), ['price']);
  t.same(await fieldsOf({ name: 'Water', price: null, category_id: drinks }), ['price']);
  t.same(await fieldsOf({ name: 'Water', price: 1e300, category_id: drinks }), ['price']);
  t.same(await fieldsOf({ name: 'Water', price: 10, category_id: 'drinks' }), ['category_id']);
  const unknownCategory = await post('/dishes', { name: 'Water', price: 10, category_id: UNKNOWN });
  t.same(unknownCategory.json(), { message: 'Validation failed', errors: [{ field: 'category_id', message: 'must reference an existing dish category' }] });
  const malformed = await post('/dishes', '{"name": "Wat', { 'content-type': 'application/json' });
  t.same([malformed.statusCode, malformed.json().message], [400, 'Validation failed']);
  t.equal((await get('/dishes')).statusCode, 204, 'nothing was added');

  const water = locationId((await post('/dishes', { name: 'Water', price: 10, category_id: drinks })).headers.location);
  t.equal((await put(`/dishes/${water}`, { name: 'Water', price: 10, category_id: UNKNOWN })).statusCode, 400);
  t.equal((await put(`/dishes/${water}`, { name: 'Water', price: 10.001, category_id: drinks })).statusCode, 400);
  for (const res of [await get('/dishes/42'), await put('/dishes/42', { name: 'W', price: 1, category_id: drinks }), await del('/dishes/42')]) {
    t.same([res.statusCode, res.body], [400, '"Missing or malformed ID"']);
  }
  for (const res of [await get(`/dishes/${UNKNOWN}`), await put(`/dishes/${UNKNOWN}`, { name: 'W', price: 1, category_id: drinks }), await del(`/dishes/${UNKNOWN}`)]) {
    t.same([res.statusCode, res.body], [404, '"Resource not found"']);
  }
});

t.test('dishes: an Idempotency-Key repeat answers the first Location and adds one dish', async (t) => {
  const { get, post } = await menuApp(t);
  const drinks = (await post('/categories', { name: 'Drinks' })).json().id;
  const body = { name: 'Horchata', price: 30, category_id: drinks };
  const first = await post('/dishes', body, { 'idempotency-key': 'dish-1' });
  const again = await post('/dishes', body, { 'idempotency-key': 'dish-1' });
  t.same([again.statusCode, again.body, again.headers.location], [201, first.body, first.headers.location]);
  t.equal((await get('/dishes')).json().length, 1);
  const other = await post('/dishes', body, { 'idempotency-key': 'dish-2' });
  t.not(other.headers.location, first.headers.location, 'another key adds another dish');
});

t.test('the OpenAPI document describes the menu routes and their answers', async (t) => {
  const { app } = await menuApp(t);
  const spec = (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
  t.ok(spec.paths['/dishes'].get.responses['204']);
  t.ok(spec.paths['/dishes'].post.responses['201']);
  t.match(spec.paths['/dishes/{id}'].delete.description, /HTTP forbids a body/);
  t.ok(spec.paths['/dishes/{id}'].put.responses['412']);
  t.ok(spec.paths['/categories/{id}'].delete.responses['409']);
  t.ok(spec.paths['/categories'].post.parameters.some((p: { name: string }) => p.name === 'idempotency-key'));
});
