import t from 'tap';
import { billsService } from './bills-helpers.js';

/**
 * Issue 39, item 5: when the read models lag past the wait, a write that was recorded never answers
 * 404 or 409 for its own success: it answers 202 with where to read it, and a retry with its
 * Idempotency-Key answers in full once they have caught up.
 */
t.test('a payment taken while the projector is stopped: 202 with the ticket\'s location, recorded once', async (t) => {
  const s = await billsService({ COMANDA_CONSISTENCY_WAIT_MS: '100' });
  t.teardown(s.close);
  const o = await s.orderWith(['pastor', 'agua']);
  const id = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' })).body.ids[0] as string;
  await s.pauseProjector();
  const key = { 'idempotency-key': 'pay-while-behind' };
  const taken = await s.waiter('POST', `/tickets/${id}/payments`, { method: 'credit_card', amount: 55.5 }, key);
  t.equal(taken.status, 202, JSON.stringify(taken.body));
  t.equal(taken.headers.location, `/tickets/${id}`);
  t.match(taken.body, { message: /^Accepted/, location: `/tickets/${id}` });
  const added = await s.waiter('POST', `/orders/${o.id}/dishes`, [{ dish_id: s.r.dishes.agua }]);
  t.match(added, { status: 202, headers: { location: `/orders/${o.id}/dishes` }, body: { location: `/orders/${o.id}/dishes` } }, 'a write answered from its command: 202 too, never a 201 the next read belies (issue 58)');
  const placed = await s.waiter('POST', '/orders', { user_id: s.waiterId, table_id: null, waiter: 'Marisol' }, { 'idempotency-key': 'order-while-behind' });
  t.match(placed, { status: 202, headers: { location: /^\/orders\/[0-9a-f-]{36}$/ } }, 'a creation says where the new resource will be read');
  await s.resumeProjector();
  const again = await s.waiter('POST', `/tickets/${id}/payments`, { method: 'credit_card', amount: 55.5 }, key);
  t.equal(again.status, 201, 'the retry with its key answers in full, from the same payment');
  t.match(again.body.ticket, { status: 2, paid: 55.5 });
  const ticket = (await s.waiter('GET', `/tickets/${id}`)).body;
  t.equal(ticket.payments.length, 1, 'taken once');
  const again201 = await s.waiter('POST', '/orders', { user_id: s.waiterId, table_id: null, waiter: 'Marisol' }, { 'idempotency-key': 'order-while-behind' });
  t.match(again201, { status: 201, body: { id: placed.headers.location.split('/').pop() } }, 'its retry with the key: the same order, in full');
});
