import t from 'tap';
import { billsService } from './bills-helpers.js';

// A dish archived (issue 60): off the waiters' menu, refused 409 to order, its name kept on old bills; restored by a manager.

t.test('archive a dish: gone from GET /dishes, listed apart, 409 to order, kept by id and on bills; restore; If-Match; waiters refused', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const { r, waiter: asWaiter, manager: asManager } = s;
  const order = (dish: string) => asWaiter('POST', '/orders/with-dishes', { order: { user_id: s.waiterId, table_id: null, waiter: 'Marisol' }, dishes: [{ dish_id: dish }] });
  const names = async () => ((await asWaiter('GET', '/dishes')).body as Array<{ name: string }>).map((d) => d.name);

  const before = await order(r.dishes.pastor);
  t.equal(before.status, 201);
  const [billId] = (await asWaiter('POST', `/orders/${before.body.id}/tickets`, { split: 'none' })).body.ids as string[];
  t.ok((await names()).includes('Taco al pastor'));
  t.equal((await asWaiter('POST', `/dishes/${r.dishes.pastor}/archive`)).status, 403, 'a manager\'s call');

  const read = await asManager('GET', `/dishes/${r.dishes.pastor}`);
  t.equal((await asManager('POST', `/dishes/${r.dishes.pastor}/archive`, undefined, { 'if-match': '"99"' })).status, 412, 'another manager changed it since');
  const archived = await asManager('POST', `/dishes/${r.dishes.pastor}/archive`, undefined, { 'if-match': String(read.headers.etag), 'idempotency-key': 'archive-1' });
  t.match([archived.status, archived.body], [200, { id: r.dishes.pastor, name: 'Taco al pastor', archived: true }]);
  t.same((await asManager('POST', `/dishes/${r.dishes.pastor}/archive`, undefined, { 'idempotency-key': 'archive-1' })).status, 200, 'a retry answers the same');
  t.notOk((await names()).includes('Taco al pastor'), 'off the waiters\' menu');
  t.same(((await asWaiter('GET', '/dishes/archived')).body as Array<{ name: string }>).map((d) => d.name), ['Taco al pastor'], 'listed apart');
  t.match((await asWaiter('GET', `/dishes/${r.dishes.pastor}`)).body, { name: 'Taco al pastor', archived: true }, 'still read by id: old bills name it');
  t.match((await asWaiter('GET', `/tickets/${billId}`)).body, { lines: [{ dish_id: r.dishes.pastor, price: 25.5 }] }, 'the old bill keeps its line');

  const refused = await order(r.dishes.pastor);
  t.same([refused.status, refused.body.message], [409, 'No longer on the menu (archived): Taco al pastor']);
  t.equal((await asWaiter('POST', `/orders/${before.body.id}/dishes`, [{ dish_id: r.dishes.pastor }])).status, 409, 'nor added to an order');
  t.equal((await asWaiter('GET', '/orders')).body.length, 1, 'nothing written');

  const restored = await asManager('POST', `/dishes/${r.dishes.pastor}/restore`);
  t.same([restored.status, restored.body.archived], [200, undefined], 'on the menu: no archived field, as every dish answered before');
  t.ok((await names()).includes('Taco al pastor'), 'back on the menu');
  t.equal((await asWaiter('GET', '/dishes/archived')).body.length, 0);
  t.equal((await order(r.dishes.pastor)).status, 201, 'ordered again');
  t.equal((await asManager('POST', '/dishes/00000000-0000-4000-8000-000000000000/archive')).status, 404);

  // The audit trail names who archived and restored it, once each (the retry and the refused waiter add nothing).
  const audit = await asManager('GET', '/audit?kind=dish_archived');
  t.match(audit.body.entries, [
    { kind: 'dish_archived', staff: 'manager-1', approved_by: 'manager-1', reason: null, amount: null, detail: 'Taco al pastor archived' },
    { kind: 'dish_archived', staff: 'manager-1', detail: 'Taco al pastor restored' },
  ]);
  t.equal(audit.body.entries.length, 2);
});
