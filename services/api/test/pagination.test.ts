import t from 'tap';
import { unmatchedPayment, unmatchedPaymentStream } from '@comanda/domain';
import { billsService } from './bills-helpers.js';

/**
 * Every list endpoint pages the same way: `limit`, `offset`, `all=true`, the total in X-Total-Count,
 * and a bad value is 400 `Validation failed`. Lists the seed documents without pages (dishes, tables…)
 * answer everything unless a page is asked for; the seed's paged lists (orders, tickets…) 20 by default.
 */
t.test('pagination on every list', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const admin = s.as('admin');
  const manager = s.as('manager');
  const kitchen = s.as('kitchen');
  const post = async (url: string, payload: unknown) => {
    const res = await admin('POST', url, payload);
    if (res.status !== 201 && res.status !== 200) throw new Error(`POST ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  // Three of everything.
  for (const name of ['Bebidas', 'Postres']) await post('/categories', { name });
  for (const name of ['Salón', 'Barra']) await post('/spaces', { name });
  for (const name of ['Grill', 'Bar', 'Frío']) await post('/stations', { name });
  const orders = [];
  for (const table of ['t1', 't2', 't3'] as const) orders.push(await s.orderWith(['pastor', 'suadero', 'agua'], table));
  for (const o of orders) await s.waiter('POST', `/orders/${o.id}/fire`);
  const billed = orders[0]!.id;
  await post(`/orders/${billed}/tickets`, { split: 'even', parts: 3 });
  for (let n = 1; n <= 3; n++) {
    const hash = n.toString(16).padStart(64, '0');
    const { position } = await s.commands.handle(unmatchedPayment, unmatchedPaymentStream(hash), {
      type: 'recordUnmatchedPayment', payment: { paymentHash: hash, amountSat: n, externalId: null, payerNote: null, payerKey: null, receivedAt: n },
    });
    await s.projector.waitFor(position!, 2000);
  }
  const today = new Date().toISOString().slice(0, 10);

  const lists: Array<{ url: string; as: typeof admin; total: number; defaultLimit: number | null }> = [
    { url: '/dishes', as: admin, total: 3, defaultLimit: null },
    { url: '/categories', as: admin, total: 3, defaultLimit: null },
    { url: '/spaces', as: admin, total: 3, defaultLimit: null },
    { url: '/tables', as: admin, total: 3, defaultLimit: null },
    { url: `/tables/by-space/${s.r.space}`, as: admin, total: 3, defaultLimit: null },
    { url: '/users', as: admin, total: 4, defaultLimit: null },
    { url: '/stations', as: admin, total: 3, defaultLimit: null },
    { url: '/currencies', as: admin, total: 3, defaultLimit: null },
    { url: '/orders', as: admin, total: 3, defaultLimit: 20 },
    { url: `/orders/user/${s.waiterId}`, as: admin, total: 3, defaultLimit: 20 },
    { url: `/orders/table/${s.r.tables.t1}`, as: admin, total: 1, defaultLimit: 20 },
    { url: '/orders/status/pending', as: admin, total: 3, defaultLimit: 20 },
    { url: `/orders/date-range?start_date=${today}&end_date=${today}`, as: admin, total: 3, defaultLimit: 20 },
    { url: `/orders/${billed}/dishes`, as: admin, total: 3, defaultLimit: null },
    { url: `/orders/${billed}/tickets`, as: admin, total: 3, defaultLimit: null },
    { url: '/tickets', as: admin, total: 3, defaultLimit: 20 },
    { url: '/kitchen/tickets', as: kitchen, total: 3, defaultLimit: null },
    { url: '/wallet/unmatched', as: manager, total: 3, defaultLimit: 20 },
  ];
  const at = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;
  const ids = (body: unknown) => (body as Array<{ id?: string; paymentHash?: string }>).map((x) => x.id ?? x.paymentHash);

  for (const l of lists) {
    t.test(l.url, async (t) => {
      const whole = await l.as('GET', at(l.url, 'all=true'));
      t.equal(whole.status, 200);
      t.equal(whole.body.length, l.total, 'all=true: every record');
      t.equal(whole.headers['x-total-count'], String(l.total), 'X-Total-Count');
      const plain = await l.as('GET', l.url);
      t.same(ids(plain.body), ids(whole.body).slice(0, l.defaultLimit ?? undefined), l.defaultLimit ? `${l.defaultLimit} by default` : 'everything by default');
      t.equal(plain.headers['x-total-count'], String(l.total));
      if (l.total >= 2) {
        const first = await l.as('GET', at(l.url, 'limit=1'));
        t.same(ids(first.body), ids(whole.body).slice(0, 1), 'limit');
        t.equal(first.headers['x-total-count'], String(l.total), 'the total counts every page');
        const second = await l.as('GET', at(l.url, 'limit=1&offset=1'));
        t.same(ids(second.body), ids(whole.body).slice(1, 2), 'offset');
        const rest = await l.as('GET', at(l.url, 'offset=1'));
        t.same(ids(rest.body), ids(whole.body).slice(1, 1 + (l.defaultLimit ?? l.total)), 'offset alone');
        t.same(ids((await l.as('GET', at(l.url, 'limit=1&offset=1&all=true'))).body), ids(whole.body), 'all=true wins over limit and offset');
      }
      for (const bad of ['limit=0', 'limit=abc', 'limit=1.5', 'limit=1001', 'offset=-1', 'offset=x', 'all=maybe']) {
        const res = await l.as('GET', at(l.url, bad));
        t.equal(res.status, 400, bad);
        t.equal((res.body as { message: string }).message, 'Validation failed', `${bad}: Validation failed`);
      }
    });
  }
  t.test('the OpenAPI document names the parameters and the header on every list', async (t) => {
    const doc = (await s.app.inject({ method: 'GET', url: '/swagger/json' })).json() as { paths: Record<string, { get?: { parameters?: Array<{ name: string }>; responses: Record<string, { headers?: Record<string, unknown> }> } }> };
    for (const l of lists) {
      const path = l.url.split('?')[0]!.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}');
      const entry = Object.entries(doc.paths).find(([p]) => p.replace(/\{\w+\}/g, '{id}').replace('/orders/status/{id}', '/orders/status/pending') === path);
      t.ok(entry, `${path} documented`);
      const get = entry![1].get!;
      t.same(['limit', 'offset', 'all'].filter((n) => get.parameters?.some((p) => p.name === n)), ['limit', 'offset', 'all'], `${path}: limit, offset, all`);
      t.ok(get.responses['200']?.headers?.['x-total-count'], `${path}: X-Total-Count`);
    }
  });
});
