import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandalone } from '../src/standalone-process.js';

/** Cookies as a browser keeps them: each Set-Cookie replaces the one of the same name. */
function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    take(res: Response) {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
      }
    },
    header: () => [...cookies].filter(([, v]) => v !== '').map(([k, v]) => `${k}=${v}`).join('; '),
  };
}

t.test('an admin builds a small menu and floor over real HTTP', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234' });
  t.teardown(() => pos.stop());

  const jar = cookieJar();
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${pos.url}${path}`, {
      method,
      headers: { cookie: jar.header(), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    jar.take(res);
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
  };

  t.equal((await call('GET', '/dishes')).status, 401, 'nothing without signing in');
  t.equal((await call('POST', '/auth/login', { name: 'admin', pin: '1234' })).status, 200);
  const empty = await call('GET', '/dishes');
  t.same([empty.status, empty.text], [204, '']);

  const drinks = (await call('POST', '/categories', { name: 'Drinks' })).json().id;
  const mains = (await call('POST', '/categories', { name: 'Mains' })).json().id;
  const added = await call('POST', '/dishes', { name: 'Tacos al pastor', price: 89.9, category_id: mains }, { 'idempotency-key': 'tacos' });
  t.same([added.status, added.json()], [201, 'Dish added successfully']);
  const retried = await call('POST', '/dishes', { name: 'Tacos al pastor', price: 89.9, category_id: mains }, { 'idempotency-key': 'tacos' });
  t.equal(retried.headers.get('location'), added.headers.get('location'), 'a retried POST answers the same dish');
  await call('POST', '/dishes', { name: 'Agua de horchata', price: 30, category_id: drinks });
  const dishes = (await call('GET', '/dishes')).json();
  t.same(dishes.map((d: { name: string; price: number }) => [d.name, d.price]), [['Agua de horchata', 30], ['Tacos al pastor', 89.9]]);
  const tacos = added.headers.get('location')!;
  const dish = await call('GET', tacos);
  t.same([dish.json().category_id, dish.headers.get('etag')], [mains, '"1"']);
  t.equal((await call('PUT', tacos, { name: 'Tacos al pastor', price: 95, category_id: mains }, { 'if-match': '"1"' })).status, 200);
  t.equal((await call('PUT', tacos, { name: 'Tacos', price: 99, category_id: mains }, { 'if-match': '"1"' })).status, 412);
  t.equal((await call('GET', tacos)).json().price, 95);
  t.equal((await call('DELETE', `/categories/${mains}`)).status, 409, 'a category in use stays');

  const terrace = (await call('POST', '/spaces', { name: 'Terrace' })).json().id;
  const bar = (await call('POST', '/spaces', { name: 'Bar' })).json().id;
  const t1 = await call('POST', '/tables', { name: 'T1', status: 'available', space_id: terrace, order_id: null });
  t.same(t1.json(), { id: t1.json().id, message: 'Table added successfully' });
  await call('POST', '/tables', { name: 'T2', status: 'reserved', space_id: terrace, order_id: null });
  t.equal((await call('POST', '/tables', { name: 't1', space_id: terrace })).status, 409, 'table names are unique in a space');
  t.same((await call('GET', `/tables/by-space/${terrace}`)).json().map((x: { name: string; status: string }) => [x.name, x.status]), [['T1', 'available'], ['T2', 'reserved']]);
  t.equal((await call('GET', `/tables/by-space/${bar}`)).status, 204);
  t.equal((await call('DELETE', `/spaces/${terrace}`)).status, 409, 'a space with tables stays');
  t.same((await call('DELETE', `/spaces/${bar}`)).json(), { id: bar, message: 'Space deleted successfully' });
  t.same((await call('GET', '/spaces')).json(), [{ id: terrace, name: 'Terrace' }]);
  t.equal((await call('GET', '/tables/not-an-id')).json(), 'Missing or malformed ID');

  t.equal(await pos.stop(), 0);
  const again = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234' });
  t.teardown(() => again.stop());
  const login = await fetch(`${again.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'admin', pin: '1234' }) });
  jar.take(login);
  const tables = await fetch(`${again.url}/tables`, { headers: { cookie: jar.header() } });
  t.same(((await tables.json()) as Array<{ name: string }>).map((x) => x.name), ['T1', 'T2'], 'the floor is rebuilt from the event log after a restart');
});
