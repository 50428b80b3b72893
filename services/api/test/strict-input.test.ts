import t, { type Test } from 'tap';
import { testApp } from './harness.js';
import { requests } from './requests.js';
import { setUpRestaurant } from './restaurant.js';

/** Issue 18, item 4: strict JSON, exact money with a cap, calendar edges, bad URLs: all 400, never 500. */
async function restaurant() {
  const h = await testApp();
  const admin = await h.as('admin');
  const r = await setUpRestaurant(h.app, admin);
  return { ...h, r, admin, http: requests(h.app, admin) };
}

const failed = (t: Test, res: { statusCode: number; json(): { message?: string; errors?: Array<{ field: string }> } }, field: string, what: string) => {
  t.equal(res.statusCode, 400, `${what}: 400`);
  t.equal(res.json().message, 'Validation failed', `${what}: Validation failed`);
  t.ok(res.json().errors?.some((e) => e.field === field || e.field.endsWith(`.${field}`)), `${what}: names ${field} (${JSON.stringify(res.json().errors)})`);
};

t.test('numbers are JSON numbers: strings and booleans are refused, never coerced', async (t) => {
  const s = await restaurant();
  t.teardown(s.close);
  const dish = { name: 'Horchata', category_id: s.r.category };
  failed(t, await s.http.post('/dishes', { ...dish, price: true }), 'price', 'price true');
  failed(t, await s.http.post('/dishes', { ...dish, price: '12.50' }), 'price', 'price as a string');
  failed(t, await s.http.post('/dishes', { ...dish, price: null }), 'price', 'price null');
  const created = await s.http.post('/dishes', { ...dish, price: 12.5 });
  t.equal(created.statusCode, 201, 'a JSON number is taken');
  failed(t, await s.http.post('/wallet/createinvoice', { description: 'x', amountSat: true }), 'amountSat', 'amountSat true');
  failed(t, await s.http.post('/wallet/createinvoice', { description: 'x', amountSat: '100' }), 'amountSat', 'amountSat as a string');
  failed(t, await s.http.post('/users', { name: 'Numeric', pin: 1234, role: 'waiter' }), 'pin', 'a PIN is a string of digits, not a number');
  failed(t, await s.http.post('/auth/login', { name: 'admin', pin: 1234 }), 'pin', 'login PIN as a number');
  const list = await s.http.get('/dishes');
  t.equal(list.json().length, 4, 'nothing else was written');
});

t.test('unknown body fields are refused, and nothing changes', async (t) => {
  const s = await restaurant();
  t.teardown(s.close);
  const placed = await s.http.post('/orders/with-dishes', {
    order: { user_id: (await s.http.get('/auth/me')).json().id, table_id: null, waiter: 'M' },
    dishes: [{ dish_id: s.r.dishes.pastor, notes: 'sin cebolla' }],
  });
  t.equal(placed.statusCode, 201);
  const orderId = placed.json().id as string;
  const line = (await s.http.get(`/orders/${orderId}/dishes`)).json()[0];
  failed(t, await s.http.put(`/orders/${orderId}/dishes/${line.id}`, { a: 1 }), 'a', 'PUT a line with only an unknown field');
  failed(t, await s.http.put(`/orders/${orderId}/dishes/${line.id}`, { notes: 'x', colour: 'red' }), 'colour', 'a known field and an unknown one');
  t.same((await s.http.get(`/orders/${orderId}/dishes`)).json()[0], line, 'the line is unchanged');
  failed(t, await s.http.post('/categories', { name: 'Postres', extra: true }), 'extra', 'POST /categories');
  failed(t, await s.http.post('/orders/with-dishes', {
    order: { user_id: line.order_id, table_id: null, waiter: 'M', tip: 5 }, dishes: [{ dish_id: s.r.dishes.pastor }],
  }), 'order.tip', 'a nested unknown field');
  failed(t, await s.http.post(`/orders/${orderId}/dishes`, [{ dish_id: s.r.dishes.pastor, qty: 2 }]), '0.qty', 'an unknown field inside an array item');
  failed(t, await s.http.post('/auth/login', { name: 'admin', pin: '1234', remember: true }), 'remember', 'login');
  t.equal((await s.http.get('/categories')).json().length, 1, 'no category was added');
});

t.test('money is exact to the cent, up to a documented cap', async (t) => {
  const s = await restaurant();
  t.teardown(s.close);
  const dish = { name: 'Banquete', category_id: s.r.category };
  failed(t, await s.http.post('/dishes', { ...dish, price: 1000000.005 }), 'price', 'a third decimal above 500,000');
  failed(t, await s.http.post('/dishes', { ...dish, price: 12.345 }), 'price', 'a third decimal');
  failed(t, await s.http.post('/dishes', { ...dish, price: 10000000 }), 'price', 'above the cap of 9,999,999.99');
  failed(t, await s.http.post('/dishes', { ...dish, price: 9e13 }), 'price', 'far above the cap');
  failed(t, await s.http.post('/dishes', { ...dish, price: 0 }), 'price', 'zero');
  const top = await s.http.post('/dishes', { ...dish, price: 9999999.99 });
  t.equal(top.statusCode, 201, 'the cap itself is accepted');
  const id = String(top.headers.location).split('/').pop();
  t.equal((await s.http.get(`/dishes/${id}`)).json().price, 9999999.99, 'stored exactly');
  const doc = (await s.app.inject({ method: 'GET', url: '/swagger/json' })).json();
  const price = doc.paths['/dishes'].post.requestBody.content['application/json'].schema.properties.price;
  t.equal(price.maximum, 9999999.99, 'the cap is in the OpenAPI document');
  const me = (await s.http.get('/auth/me')).json().id;
  failed(t, await s.http.post('/orders/with-dishes', {
    order: { user_id: me, table_id: null, waiter: 'M' }, dishes: [{ dish_id: s.r.dishes.pastor, price_at_order: 1000000.005 }],
  }), 'price_at_order', 'a line price with a third decimal');
});

t.test('calendar edges: 9999-12-31 and years 0001–0099 answer, never 500', async (t) => {
  const s = await restaurant();
  t.teardown(s.close);
  for (const date of ['9999-12-31', '0001-01-01', '0099-12-31']) {
    const res = await s.http.get(`/orders/total-sales/${date}`);
    t.equal(res.statusCode, 200, `total-sales ${date}`);
    t.same([res.json().date, res.json().total_sales, res.json().orders], [date, 0, 0]);
  }
  const range = await s.http.get('/orders/date-range?start_date=0001-01-01&end_date=9999-12-31');
  t.equal(range.statusCode, 200);
  t.same(range.json(), []);
  failed(t, await s.http.get('/orders/total-sales/0000-01-01'), 'date', 'year 0');
  failed(t, await s.http.get('/orders/date-range?start_date=2026-01-01&end_date=10000-01-01'), 'end_date', 'a five-digit year');
});

t.test('malformed percent-escapes get the 400 Validation failed shape', async (t) => {
  const s = await restaurant();
  t.teardown(s.close);
  for (const url of ['/users/%', '/users/%E0%A4%A', '/dishes/%zz']) {
    const res = await s.http.get(url);
    t.equal(res.statusCode, 400, url);
    t.same(res.json(), { message: 'Validation failed', errors: [{ field: 'url', message: 'is not a valid percent-encoded URL' }] }, url);
  }
});
