import t from 'tap';
import { satsForCentsDown, ticket, ticketStream } from '@comanda/domain';
import { newId } from '@comanda/domain';
import { checkoutService } from './checkout-helpers.js';

const RATE = '1750000.00';

/** A ticket of 47.50 MXN paid in full by Lightning, with its payment's id. */
async function paidTicket(s: Awaited<ReturnType<typeof checkoutService>>) {
  const id = await s.ticketFor();
  const inv = (await s.waiter('POST', `/tickets/${id}/lightning`, {})).body;
  await s.wallet.payInvoice({ invoice: inv.invoice });
  await s.arrive(inv.payment_hash);
  const paid = await s.ticket(id);
  return { id, paymentId: paid.payments[0].id as string, sats: inv.amount_sat as number };
}

t.test('POST /tickets/{id}/lightning-refunds: to an invoice or a Lightning address, at the rate then or now, never twice', async (t) => {
  const s = await checkoutService(t);
  const { id, paymentId, sats } = await paidTicket(s);
  const customerInvoice = async (amountSat?: number) => (await s.wallet.createInvoice({ description: 'refund', ...(amountSat ? { amountSat } : {}) })).serialized;
  const received = async () => (await s.wallet.listIncoming({ limit: 100 })).reduce((sum, p) => sum + p.receivedSat, 0);

  const body = (over: Record<string, unknown>) => ({ payment_id: paymentId, valuation: 'then', reason: 'cold soup', ...over });
  t.equal((await s.waiter('POST', `/tickets/${id}/lightning-refunds`, body({ destination: await customerInvoice(), amount: 10 }))).status, 403, 'waiters do not refund');
  t.match(await s.manager('POST', `/tickets/${id}/lightning-refunds`, body({ destination: 'nonsense', amount: 10 })), { status: 400, body: { errors: [{ field: 'destination' }] } });
  t.match(await s.manager('POST', `/tickets/${id}/lightning-refunds`, body({ destination: await customerInvoice(), amount: '10' })), { status: 400 });
  t.match(await s.manager('POST', `/tickets/${id}/lightning-refunds`, body({ destination: await customerInvoice(), amount: 10, valuation: 'later' })), { status: 400 });
  t.match(await s.manager('POST', `/tickets/${id}/lightning-refunds`, body({ destination: await customerInvoice(), amount: 10, reason: '' })), { status: 400 });
  t.match(await s.manager('POST', `/tickets/${id}/lightning-refunds`, body({ destination: await customerInvoice(123), amount: 10 })), { status: 409, body: { message: /asks for 123 sat/ } }, 'an invoice for another amount');
  t.match(await s.manager('POST', `/tickets/${id}/lightning-refunds`, body({ destination: await customerInvoice(), amount: 50 })), { status: 409, body: { message: /cannot exceed/ } });
  t.equal((await s.manager('POST', `/tickets/${newId()}/lightning-refunds`, body({ destination: await customerInvoice(), amount: 10 }))).status, 404);

  const before = await received();
  const refundId = newId();
  const destination = await customerInvoice();
  const first = await s.manager('POST', `/tickets/${id}/lightning-refunds`, body({ destination, amount: 10, refund_id: refundId }));
  t.equal(first.status, 201, JSON.stringify(first.body));
  const expected = satsForCentsDown(1000, RATE);
  t.match(first.body.refund, { id: refundId, payment_id: paymentId, amount: 10, sats: expected, rate: 1750000, valuation: 'then', status: 'sent' });
  t.match(first.body.ticket, { paid: 37.5, refunded: 10, refunds: [{ id: refundId, amount: 10, reason: 'cold soup' }] });
  t.equal(await received() - before, expected, 'the customer received the sats, rounded down');

  const retry = await s.manager('POST', `/tickets/${id}/lightning-refunds`, body({ destination, amount: 10, refund_id: refundId }));
  t.equal(retry.status, 201);
  t.same(retry.body.refund, first.body.refund, 'a retry answers the same refund');
  t.equal(await received() - before, expected, 'and pays nothing more');
  t.match(await s.manager('POST', `/tickets/${id}/lightning-refunds`, body({ destination, amount: 5, refund_id: refundId })), { status: 409 }, 'the same refund id for another refund');

  const address = (await s.customer.lnAddress()) as string;
  const rest = await s.manager('POST', `/tickets/${id}/lightning-refunds`, body({ destination: address, valuation: 'now' }));
  t.equal(rest.status, 201, JSON.stringify(rest.body));
  t.match(rest.body.refund, { amount: 37.5, valuation: 'now', sats: satsForCentsDown(3750, RATE) });
  t.match(rest.body.ticket, { paid: 0, refunded: 47.5 });
  t.ok(expected + rest.body.refund.sats <= sats, 'never more sats back than came in, at the same rate');
  t.match(await s.manager('POST', `/tickets/${id}/lightning-refunds`, body({ destination: await customerInvoice(), amount: 1 })), { status: 409 }, 'nothing left');
});

t.test('a refund recorded but never confirmed (a crash): the retry asks the node, and pays only what the node never paid', async (t) => {
  const s = await checkoutService(t);
  const { id, paymentId } = await paidTicket(s);
  const sats = satsForCentsDown(1000, RATE);
  const intent = async (refundId: string, invoice: string, paymentHash: string) => s.commands.handle(ticket, ticketStream(id), {
    type: 'requestLightningRefund',
    refund: { refundId, paymentId, amountCents: 1000, sats, rate: RATE, valuation: 'then', destination: invoice, invoice, paymentHash, reason: 'crash', by: null, at: Date.now() },
  });
  const outgoing = async () => (await s.node.listOutgoing({ all: true, limit: 100 })).length;

  // Crashed after the node paid: the retry finds the payment at the node and records it, paying nothing.
  const paidBefore = await s.wallet.createInvoice({ description: 'refund', amountSat: sats });
  const r1 = newId();
  await intent(r1, paidBefore.serialized, paidBefore.paymentHash);
  await s.node.payInvoice({ invoice: paidBefore.serialized });
  const n = await outgoing();
  const retry1 = await s.manager('POST', `/tickets/${id}/lightning-refunds`, { payment_id: paymentId, amount: 10, valuation: 'then', destination: paidBefore.serialized, reason: 'crash', refund_id: r1 });
  t.equal(retry1.status, 201, JSON.stringify(retry1.body));
  t.equal(await outgoing(), n, 'nothing paid again');
  t.match(retry1.body.ticket, { refunded: 10 });

  // Crashed before the node was asked: the node has never seen it, so the retry sends it, once.
  const unpaid = await s.wallet.createInvoice({ description: 'refund', amountSat: sats });
  const r2 = newId();
  await intent(r2, unpaid.serialized, unpaid.paymentHash);
  const retry2 = await s.manager('POST', `/tickets/${id}/lightning-refunds`, { payment_id: paymentId, amount: 10, valuation: 'then', destination: unpaid.serialized, reason: 'crash', refund_id: r2 });
  t.equal(retry2.status, 201);
  t.equal(await outgoing(), n + 1);
  t.match(retry2.body.ticket, { refunded: 20 });
  t.equal((await s.wallet.getIncoming(unpaid.paymentHash)).isPaid, true);
});
