import t from 'tap';
import { servedApp } from './harness.js';
import { setUpRestaurant } from './restaurant.js';

/** A restaurant served over HTTP, started from the environment's defaults (limit 8 %, no service charge). */
async function restaurant() {
  const s = await servedApp({ COMANDA_WAITER_DISCOUNT_MAX_PERCENT: '8', COMANDA_RESTAURANT_NAME: 'La Esquina' });
  const [admin, manager, waiter] = [await s.as('admin'), await s.as('manager'), await s.as('waiter')];
  const r = await setUpRestaurant(s.app, admin);
  const call = async (cookie: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await s.request(path, cookie, headers, method, body);
    const text = await res.text();
    return { status: res.status, etag: res.headers.get('etag'), body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
  };
  const waiterId = (await call(waiter, 'GET', '/auth/me')).body.id as string;
  /** An order of 25.50 + 30 + 22 = 77.50 for a party of `seats` (one dish per seat). */
  const order = async (seats = 1) => {
    const res = await call(waiter, 'POST', '/orders/with-dishes', {
      order: { user_id: waiterId, table_id: null, waiter: 'Marisol' },
      dishes: (['pastor', 'agua', 'suadero'] as const).map((d, i) => ({ dish_id: r.dishes[d], seat: (i % seats) + 1 })),
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.id as string;
  };
  return { ...s, admin, manager, waiter, call, order };
}

t.test('GET /settings: every member of staff reads what the screens need, from the environment\'s defaults; a PUT by a manager only', async (t) => {
  const s = await restaurant();
  t.teardown(s.close);
  const kitchen = await s.as('kitchen');
  const read = await s.call(kitchen, 'GET', '/settings');
  t.same(read.body, {
    restaurant_name: 'La Esquina', receipt_footer: 'Thank you!', prices_include_tax: true, waiter_discount_max_percent: 8, service_charge_percent: 0,
    service_charge_min_party: 6, service_charge_taxable: false, kitchen_auto_bump_minutes: 0, currency: 'MXN', version: 0,
  });
  t.equal(read.etag, '"0"');
  t.equal((await s.call(s.waiter, 'PUT', '/settings', { waiter_discount_max_percent: 50 })).status, 403, 'a waiter does not raise their own limit');
  t.equal((await s.request('/settings', null)).status, 401);
});

t.test('PUT /settings: only what is sent changes; clear 400s, nothing half-written; If-Match 412; Idempotency-Key answers once; the audit trail says who, what and why', async (t) => {
  const s = await restaurant();
  t.teardown(s.close);
  const bad = await s.call(s.manager, 'PUT', '/settings', { waiter_discount_max_percent: 12.5, restaurant_name: '  ', service_charge_percent: 10.125, receipt_footer: 'ok' });
  t.equal(bad.status, 400);
  t.same(bad.body.errors, [
    { field: 'waiter_discount_max_percent', message: 'must be a whole percent from 0 to 100' },
    { field: 'service_charge_percent', message: 'must be a percent from 0 to 100 with at most two decimals' },
    { field: 'restaurant_name', message: 'must not be blank' },
  ]);
  t.equal((await s.call(s.manager, 'PUT', '/settings', { waiter_discount_max_percent: 101 })).status, 400);
  t.match((await s.call(s.manager, 'PUT', '/settings', { tip: 5 })).body, { message: 'Validation failed' }, 'an unknown field is named, not ignored');
  t.equal((await s.call(s.manager, 'GET', '/settings')).body.version, 0, 'nothing written');

  const key = { 'idempotency-key': 'settings-1', 'if-match': '"0"' };
  const body = { waiter_discount_max_percent: 15, service_charge_percent: 12.5, receipt_footer: '¡Gracias!', reason: 'summer menu' };
  const put = await s.call(s.manager, 'PUT', '/settings', body, key);
  t.equal(put.status, 200);
  t.match(put.body, { waiter_discount_max_percent: 15, service_charge_percent: 12.5, receipt_footer: '¡Gracias!', restaurant_name: 'La Esquina', version: 1 });
  t.equal(put.etag, '"1"');
  t.match(await s.call(s.manager, 'PUT', '/settings', body, key), { status: 200, body: { version: 1 } }, 'the same key again: the first answer, nothing more');
  t.equal((await s.call(s.manager, 'PUT', '/settings', { ...body, waiter_discount_max_percent: 16 }, key)).status, 409, 'the key with another request');
  const stale = await s.call(s.admin, 'PUT', '/settings', { waiter_discount_max_percent: 20 }, { 'if-match': '"0"' });
  t.equal(stale.status, 412, 'a write from a screen read before the change');
  t.equal((await s.call(s.admin, 'PUT', '/settings', { waiter_discount_max_percent: 20 }, { 'if-match': 'three' })).status, 400);
  t.equal((await s.call(s.manager, 'GET', '/settings', undefined, { 'if-none-match': '"1"' })).status, 304);

  const audit = await s.call(s.manager, 'GET', '/audit?kind=settings_changed');
  t.match(audit.body.entries, [{
    kind: 'settings_changed', staff: 'manager-1', reason: 'summer menu',
    detail: 'waiter_discount_max_percent 8 → 15; service_charge_percent 0 → 12.5; receipt_footer "Thank you!" → "¡Gracias!"',
  }]);
  t.equal(audit.body.entries.length, 1);
});

t.test('applied at once: a waiter\'s discount over the new limit is refused, under it given; the next bill carries the new service charge, the issued one keeps its own', async (t) => {
  const s = await restaurant();
  t.teardown(s.close);
  const discount = (orderId: string, value: number) => s.call(s.waiter, 'POST', `/orders/${orderId}/discounts`, { kind: 'percent', value, reason: 'regular' });
  const first = await s.order(3);
  t.equal((await discount(first, 12)).status, 403, 'over the environment\'s 8 %');
  const before = (await s.call(s.waiter, 'POST', `/orders/${first}/tickets`, { split: 'none' })).body.tickets[0];
  t.equal(before.service_charge, null, 'no service charge by default');

  t.equal((await s.call(s.manager, 'PUT', '/settings', { waiter_discount_max_percent: 5, service_charge_percent: 10, service_charge_min_party: 3 })).status, 200);
  const second = await s.order(3);
  const refused = await discount(second, 6);
  t.equal(refused.status, 403, 'over the new 5 %');
  t.match(refused.body, { message: /limit of 5 %/ });
  t.equal((await discount(second, 4)).status, 201, 'within it');
  const after = (await s.call(s.waiter, 'POST', `/orders/${second}/tickets`, { split: 'none' })).body.tickets[0];
  // 77.50 less 4 % (3.10) = 74.40; 10 % of it = 7.44.
  t.match(after.service_charge, { percent: 10, amount: 7.44, reason: 'party', party_size: 3 });
  t.equal(after.total, 81.84);
  t.equal((await s.call(s.waiter, 'GET', `/tickets/${before.id}`)).body.service_charge, null, 'the bill issued before keeps its figures');
  t.match((await s.call(s.waiter, 'GET', `/tickets/${after.id}/receipt`)).body, /La Esquina/);
});
