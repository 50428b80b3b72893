import t from 'tap';
import { guestService } from './guest-helpers.js';

// GET /orders/open/bills: where the open orders' bills stand, as the floor's tiles show it (issue 63).

t.test('the open orders\' bills: what is left and what guests paid through the link, revalidated by its ETag', async (t) => {
  const s = await guestService(t);
  const order = await s.orderWith(['pastor', 'suadero'], 't1');
  await s.orderWith(['agua'], 't2');
  const bills = async (headers: Record<string, string> = {}) => {
    await s.projector.waitFor((await s.store.headPosition())!, 2000);
    return s.waiter('GET', '/orders/open/bills', undefined, headers);
  };
  t.same((await bills()).body, [], 'no bill yet: nothing listed');
  const issued = await s.waiter('POST', `/orders/${order.id}/tickets`, { split: 'none' });
  const ticketId = issued.body.ids[0] as string;
  const before = await bills();
  t.same(before.body, [{ order_id: order.id, table_id: s.r.tables.t1, bills: 1, due: 47.5, guest_paid: 0 }], 'the order with a bill, none of it a guest\'s');
  t.equal((await bills({ 'if-none-match': String(before.headers.etag) })).status, 304, 'unchanged: 304');
  // A dish added at another table, which has no bill: the floor's bills read the same, still 304 (the tag is the answer's).
  const other = await s.orderWith(['agua'], 't3');
  t.equal((await s.waiter('POST', `/orders/${other.id}/dishes`, [{ dish_id: s.r.dishes.agua }])).status, 201);
  t.equal((await bills({ 'if-none-match': String(before.headers.etag) })).status, 304, 'orders without bills changing: still 304');

  const { token } = await s.linkOf(ticketId);
  const lines = (await s.guest('GET', `/guest/${token}`)).body.lines as Array<{ id: string }>;
  const mine = await s.guest('POST', `/guest/${token}/lightning`, { share: 'lines', line_ids: [lines[0]!.id], tip_percent: 10 });
  await s.wallet.payInvoice({ invoice: mine.body.invoice });
  await s.arrive(mine.body.payment_hash);
  const after = await bills({ 'if-none-match': String(before.headers.etag) });
  t.equal(after.status, 200, 'a guest\'s payment moves the tag');
  t.match(after.body, [{ order_id: order.id, due: 22, guest_paid: 25.5 }], 'what guests paid (the tip aside) and what is left');

  const rest = await s.guest('POST', `/guest/${token}/lightning`, { share: 'all' });
  await s.wallet.payInvoice({ invoice: rest.body.invoice });
  await s.arrive(rest.body.payment_hash);
  t.match((await bills()).body, [{ order_id: order.id, due: 0, guest_paid: 47.5 }], 'paid in full by guests, the order still open: nothing left');
  t.equal((await s.app.inject({ method: 'GET', url: '/orders/open/bills' })).statusCode, 401, 'staff only');
});
