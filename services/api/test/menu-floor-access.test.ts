import t from 'tap';
import { testApp } from './harness.js';
import { locationId, requests } from './requests.js';

type Role = 'admin' | 'manager' | 'waiter' | 'kitchen';
interface Fixture { category: string; emptyCategory: string; dish: string; space: string; table: string; emptySpace: string }
interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: (f: Fixture) => string;
  body?: (f: Fixture, n: number) => unknown;
  /** The answer when the role may call it. */
  ok: number;
}

const reads: Endpoint[] = [
  { method: 'GET', url: () => '/categories', ok: 200 },
  { method: 'GET', url: (f) => `/categories/${f.category}`, ok: 200 },
  { method: 'GET', url: () => '/dishes', ok: 200 },
  { method: 'GET', url: (f) => `/dishes/${f.dish}`, ok: 200 },
  { method: 'GET', url: () => '/spaces', ok: 200 },
  { method: 'GET', url: (f) => `/spaces/${f.space}`, ok: 200 },
  { method: 'GET', url: () => '/tables', ok: 200 },
  { method: 'GET', url: (f) => `/tables/${f.table}`, ok: 200 },
  { method: 'GET', url: (f) => `/tables/by-space/${f.space}`, ok: 200 },
];

const writes: Endpoint[] = [
  { method: 'POST', url: () => '/categories', body: (_f, n) => ({ name: `Category ${n}` }), ok: 201 },
  { method: 'PUT', url: (f) => `/categories/${f.category}`, body: (_f, n) => ({ name: `Renamed ${n}` }), ok: 200 },
  { method: 'POST', url: () => '/dishes', body: (f) => ({ name: 'Sopa', price: 45, category_id: f.category }), ok: 201 },
  { method: 'PUT', url: (f) => `/dishes/${f.dish}`, body: (f) => ({ name: 'Sopa del día', price: 50, category_id: f.category }), ok: 200 },
  { method: 'DELETE', url: (f) => `/dishes/${f.dish}`, ok: 204 },
  { method: 'DELETE', url: (f) => `/categories/${f.emptyCategory}`, ok: 200 },
  { method: 'POST', url: () => '/spaces', body: () => ({ name: 'Patio' }), ok: 201 },
  { method: 'PUT', url: (f) => `/spaces/${f.space}`, body: (_f, n) => ({ name: `Hall ${n}` }), ok: 200 },
  { method: 'DELETE', url: (f) => `/spaces/${f.emptySpace}`, ok: 200 },
  { method: 'POST', url: () => '/tables', body: (f, n) => ({ name: `New ${n}`, space_id: f.space }), ok: 201 },
  { method: 'PUT', url: (f) => `/tables/${f.table}`, body: (f, n) => ({ name: `T ${n}`, status: 'reserved', space_id: f.space, order_id: null }), ok: 200 },
  { method: 'DELETE', url: (f) => `/tables/${f.table}`, ok: 200 },
];

t.test('every menu and floor endpoint: readers, writers, strangers', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  const admin = requests(h.app, await h.as('admin'));
  let n = 0;
  const fixture = async (): Promise<Fixture> => {
    n++;
    const category = (await admin.post('/categories', { name: `Fixture ${n}` })).json().id;
    const dish = locationId((await admin.post('/dishes', { name: `Dish ${n}`, price: 10, category_id: category })).headers.location);
    const space = (await admin.post('/spaces', { name: `Space ${n}` })).json().id;
    const emptyCategory = (await admin.post('/categories', { name: `Unused ${n}` })).json().id;
    const emptySpace = (await admin.post('/spaces', { name: `Empty ${n}` })).json().id;
    const table = (await admin.post('/tables', { name: `Table ${n}`, space_id: space })).json().id;
    return { category, emptyCategory, dish, space, table, emptySpace };
  };
  const call = (cookie: string | undefined, e: Endpoint, f: Fixture) =>
    h.app.inject({ method: e.method, url: e.url(f), headers: cookie ? { cookie } : {}, ...(e.body ? { payload: e.body(f, n) as object } : {}) });

  const f = await fixture();
  for (const e of [...reads, ...writes]) {
    const res = await call(undefined, e, f);
    t.same([res.statusCode, res.json()], [401, { message: 'Unauthorized' }], `no cookie: ${e.method} ${e.url(f)}`);
  }
  const roles: Role[] = ['admin', 'manager', 'waiter', 'kitchen'];
  for (const role of roles) {
    const cookie = await h.as(role);
    const mayWrite = role === 'admin' || role === 'manager';
    for (const e of reads) t.equal((await call(cookie, e, f)).statusCode, e.ok, `${role}: ${e.method} ${e.url(f)}`);
    const own = await fixture();
    for (const e of writes) {
      const res = await call(cookie, e, own);
      if (mayWrite) t.equal(res.statusCode, e.ok, `${role} may ${e.method} ${e.url(own)}`);
      else t.same([res.statusCode, res.json()], [403, { message: 'Unauthorized API access' }], `${role} may not ${e.method} ${e.url(own)}`);
    }
    if (!mayWrite) t.equal((await admin.get(`/tables/${own.table}`)).json().name, `Table ${n}`, `${role}: the refused writes changed nothing`);
  }
});
