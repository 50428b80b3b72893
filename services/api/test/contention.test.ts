import t from 'tap';
import { StreamContended } from '@comanda/event-store';
import { testApp } from './harness.js';

t.test('a command contended past its retries answers 503 with Retry-After, never 500', async (t) => {
  const h = await testApp({}, {}, (app) => {
    app.get('/contended', async () => {
      throw new StreamContended('floor');
    });
  });
  t.teardown(h.close);
  const res = await h.app.inject({ method: 'GET', url: '/contended' });
  t.equal(res.statusCode, 503);
  t.equal(res.headers['retry-after'], '1');
  t.same(res.json(), { message: 'Too many changes at once; nothing was saved, try again' });
});

t.test('fifty tables seated at once, then freed at once: every request succeeds, no 5xx', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  const admin = await h.as('admin');
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    h.app.inject({ method, url, headers: { cookie: admin }, ...(payload ? { payload } : {}) });
  const space = (await call('POST', '/spaces', { name: 'Salón' })).json();
  const tables = [];
  for (let i = 0; i < 50; i++) tables.push((await call('POST', '/tables', { name: `T${i}`, status: 'available', space_id: space.id, order_id: null })).json());
  const me = (await call('GET', '/auth/me')).json();

  const seated = await Promise.all(tables.map((table) => call('POST', '/orders', { user_id: me.id, table_id: table.id, waiter: 'Ana', status: 'pending', total: 0 })));
  t.same(seated.map((r) => r.statusCode), tables.map(() => 201), 'all fifty seated');
  const byTable = new Map(((await call('GET', '/tables')).json() as Array<{ id: string; order_id: string | null }>).map((x) => [x.id, x.order_id]));
  t.ok(seated.every((r, i) => byTable.get(tables[i].id) === r.json().id), 'each table holds its own order');

  const freed = await Promise.all(seated.map((r) => call('DELETE', `/orders/${r.json().id}`)));
  t.same(freed.map((r) => r.statusCode), seated.map(() => 200), 'all fifty deleted');
  const after = (await call('GET', '/tables')).json() as Array<{ order_id: string | null; status: string }>;
  t.ok(after.every((x) => x.order_id === null), 'every table freed at once, not by a timer');
});
