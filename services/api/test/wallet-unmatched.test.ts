import t from 'tap';
import { newId, order, orderStream, unmatchedPayment, unmatchedPaymentStream, ownAuthority } from '@comanda/domain';
import { testApp } from './harness.js';

const hash = (n: number) => n.toString(16).padStart(64, '0');

t.test('GET /wallet/unmatched: unmatched and flagged payments for managers, newest first', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  const manager = await h.as('manager');
  const waiter = await h.as('waiter');

  const place = async () => {
    const orderId = newId();
    await h.commands.handle(order, orderStream(orderId), { type: 'placeOrder', orderId, userId: newId(), tableId: null, waiter: 'Ana', at: 1, lines: [], authority: ownAuthority('test-manager', 'manager') });
    return orderId;
  };
  const pay = (orderId: string, n: number, receivedAt: number) =>
    h.commands.handle(order, orderStream(orderId), { type: 'recordPayment', paymentHash: hash(n), amountSat: 100 * n, receivedAt });

  const paidTwice = await place();
  await pay(paidTwice, 1, 1000);
  await pay(paidTwice, 2, 2000);
  const cancelled = await place();
  await h.commands.handle(order, orderStream(cancelled), { type: 'changeStatus', to: 'cancelled', at: 5 });
  await pay(cancelled, 3, 3000);
  const deleted = await place();
  await h.commands.handle(order, orderStream(deleted), { type: 'deleteOrder' });
  await pay(deleted, 4, 4000);
  const { position } = await h.commands.handle(unmatchedPayment, unmatchedPaymentStream(hash(5)), {
    type: 'recordUnmatchedPayment', payment: { paymentHash: hash(5), amountSat: 500, externalId: null, payerNote: 'tip', payerKey: null, receivedAt: 5000 },
  });
  await h.projector.waitFor(position!, 2000);

  t.equal((await h.app.inject({ method: 'GET', url: '/wallet/unmatched' })).statusCode, 401);
  t.equal((await h.app.inject({ method: 'GET', url: '/wallet/unmatched', headers: { cookie: waiter } })).statusCode, 403, 'waiters do not sort out money');
  const res = await h.app.inject({ method: 'GET', url: '/wallet/unmatched', headers: { cookie: manager } });
  t.equal(res.statusCode, 200);
  t.same(res.json(), [
    { paymentHash: hash(5), amountSat: 500, externalId: null, orderId: null, ticketId: null, reason: 'no_reference', receivedAt: 5000, payerNote: 'tip' },
    { paymentHash: hash(4), amountSat: 400, externalId: deleted, orderId: deleted, ticketId: null, reason: 'order_deleted', receivedAt: 4000, payerNote: null },
    { paymentHash: hash(3), amountSat: 300, externalId: cancelled, orderId: cancelled, ticketId: null, reason: 'order_cancelled', receivedAt: 3000, payerNote: null },
    { paymentHash: hash(2), amountSat: 200, externalId: paidTwice, orderId: paidTwice, ticketId: null, reason: 'order_already_paid', receivedAt: 2000, payerNote: null },
  ], 'the first payment of an open order is not on the list');
  const paged = await h.app.inject({ method: 'GET', url: '/wallet/unmatched?limit=1&offset=1', headers: { cookie: manager } });
  t.same(paged.json().map((p: { paymentHash: string }) => p.paymentHash), [hash(4)]);
  t.equal((await h.app.inject({ method: 'GET', url: '/wallet/unmatched?limit=0', headers: { cookie: manager } })).statusCode, 400);
});
