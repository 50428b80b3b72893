import t from 'tap';
import { encodeBolt11, verifyWebhookSignature } from '@comanda/lightning';
import { createHash } from 'node:crypto';
import { REASON } from '../src/index.js';
import { call, harness, invoiceOf, webhookReceiver } from './helpers.js';

t.test('customer pays the restaurant: funds move, fee charged, records on both sides, signed webhook', async (t) => {
  const hook = await webhookReceiver(t);
  const { restaurant, customer } = await harness(t);
  restaurant.addWebhook(hook.url);
  const invoice = await invoiceOf(restaurant, { description: 'Mesa 4', amountSat: 10_000, externalId: 'order-42' });
  t.equal(invoice.amountSat, 10_000);
  const paid = await call(customer, 'POST', '/payinvoice', { invoice: invoice.serialized });
  t.equal(paid.status, 200);
  t.same(Object.keys(paid.json), ['recipientAmountSat', 'routingFeeSat', 'paymentId', 'paymentHash', 'paymentPreimage']);
  t.equal(paid.json.recipientAmountSat, 10_000);
  t.equal(paid.json.routingFeeSat, 44, '4 sat + 0.4 %');
  t.equal(paid.json.paymentHash, invoice.paymentHash);
  t.equal(createHash('sha256').update(Buffer.from(paid.json.paymentPreimage, 'hex')).digest('hex'), invoice.paymentHash, 'preimage matches the hash');

  t.same((await call(customer, 'GET', '/getbalance')).json, { balanceSat: 1_000_000 - 10_044, feeCreditSat: 0 });
  t.same((await call(restaurant, 'GET', '/getbalance')).json, { balanceSat: 60_000, feeCreditSat: 0 });

  const incoming = (await call(restaurant, 'GET', `/payments/incoming/${invoice.paymentHash}`)).json;
  t.match(incoming, { type: 'incoming_payment', subType: 'lightning', isPaid: true, isExpired: false, requestedSat: 10_000, receivedSat: 10_000, fees: 0, externalId: 'order-42', description: 'Mesa 4' });
  t.equal(Object.keys(incoming)[0], 'type');
  const outgoing = (await call(customer, 'GET', `/payments/outgoing/${paid.json.paymentId}`)).json;
  t.match(outgoing, { type: 'outgoing_payment', subType: 'lightning', isPaid: true, sent: 10_044, fees: 44_000, paymentHash: invoice.paymentHash, preimage: paid.json.paymentPreimage, invoice: invoice.serialized });
  t.same((await call(customer, 'GET', `/payments/outgoingbyhash/${invoice.paymentHash}`)).json, outgoing);

  const delivery = await hook.next();
  t.equal(delivery.headers['content-type'], 'application/json');
  t.ok(verifyWebhookSignature(delivery.body, restaurant.webhookSecret, String(delivery.headers['x-node-signature'])), 'X-Node-Signature verifies');
  t.same(JSON.parse(delivery.body), { type: 'payment_received', timestamp: incoming.completedAt, amountSat: 10_000, paymentHash: invoice.paymentHash, externalId: 'order-42', payerNote: null, payerKey: null });
});

t.test('an invoice is paid once; concurrent attempts: exactly one succeeds', async (t) => {
  const { restaurant, customer } = await harness(t);
  const invoice = await invoiceOf(restaurant, { description: 'x', amountSat: 1000 });
  const attempts = await Promise.all(Array.from({ length: 8 }, () => call(customer, 'POST', '/payinvoice', { invoice: invoice.serialized })));
  const successes = attempts.filter((a) => a.json.paymentPreimage !== undefined);
  t.equal(successes.length, 1, 'exactly one payment succeeds');
  for (const a of attempts.filter((x) => x.json.paymentPreimage === undefined)) t.same(a.json, { paymentHash: invoice.paymentHash, reason: REASON.alreadyPaid });
  t.same((await call(restaurant, 'GET', '/getbalance')).json.balanceSat, 51_000, 'received once');
  t.same((await call(customer, 'GET', '/getbalance')).json.balanceSat, 1_000_000 - 1008, 'debited once');
  const fromRestaurant = await call(restaurant, 'POST', '/payinvoice', { invoice: invoice.serialized });
  t.same(fromRestaurant.json, { paymentHash: invoice.paymentHash, reason: REASON.unreachable }, 'own invoice: no route to self');
});

t.test('amountless invoices, overpayment, underpayment', async (t) => {
  const { restaurant, customer } = await harness(t);
  const open = await invoiceOf(restaurant, { description: 'tip' });
  t.equal(open.amountSat, undefined);
  t.equal((await call(customer, 'POST', '/payinvoice', { invoice: open.serialized })).text, 'Request parameter amountSat is missing');
  t.equal((await call(customer, 'POST', '/payinvoice', { invoice: open.serialized, amountSat: 777 })).json.recipientAmountSat, 777);
  t.match((await call(restaurant, 'GET', `/payments/incoming/${open.paymentHash}`)).json, { receivedSat: 777, isPaid: true });
  t.notOk('requestedSat' in (await call(restaurant, 'GET', `/payments/incoming/${open.paymentHash}`)).json);

  const fixed = await invoiceOf(restaurant, { description: 'x', amountSat: 500 });
  t.same((await call(customer, 'POST', '/payinvoice', { invoice: fixed.serialized, amountSat: 400 })).json, { paymentHash: fixed.paymentHash, reason: REASON.rejected }, 'underpaid');
  t.equal((await call(customer, 'POST', '/payinvoice', { invoice: fixed.serialized, amountSat: 600 })).json.recipientAmountSat, 600);
  t.match((await call(restaurant, 'GET', `/payments/incoming/${fixed.paymentHash}`)).json, { requestedSat: 500, receivedSat: 600 }, 'overpayment recorded');
  t.same((await call(customer, 'POST', '/payinvoice', { invoice: fixed.serialized, amountSat: 0 })).json, { paymentHash: fixed.paymentHash, reason: REASON.invalidAmount });
  t.equal((await call(customer, 'POST', '/payinvoice', { invoice: fixed.serialized, amountSat: '9007199254740991' })).status, 400, 'no unsafe msat amounts');
});

t.test('expired invoices, insufficient funds, unknown nodes', async (t) => {
  const { restaurant, customer, clock } = await harness(t);
  const soon = await invoiceOf(restaurant, { description: 'x', amountSat: 100, expirySeconds: 60 });
  clock.advance(61_000);
  t.same((await call(customer, 'POST', '/payinvoice', { invoice: soon.serialized })).json, { paymentHash: soon.paymentHash, reason: REASON.rejected });
  t.match((await call(restaurant, 'GET', `/payments/incoming/${soon.paymentHash}`)).json, { isPaid: false, isExpired: true });

  const big = await invoiceOf(customer, { description: 'x', amountSat: 60_000 });
  const poor = await call(restaurant, 'POST', '/payinvoice', { invoice: big.serialized });
  t.same(poor.json, { paymentHash: big.paymentHash, reason: REASON.insufficientBalance });
  t.equal((await call(restaurant, 'GET', '/getbalance')).json.balanceSat, 50_000, 'balance untouched');

  const stranger = encodeBolt11(
    { chain: 'regtest', amountMsat: 1_000_000, timestampSeconds: Math.floor(clock.now() / 1000), paymentHash: 'aa'.repeat(32), paymentSecret: 'bb'.repeat(32), description: 'elsewhere' },
    Buffer.from('11'.repeat(32), 'hex'),
  );
  t.same((await call(customer, 'POST', '/payinvoice', { invoice: stranger })).json, { paymentHash: 'aa'.repeat(32), reason: REASON.unreachable });
  const failed = (await call(customer, 'GET', '/payments/outgoing', { all: 'true' })).json;
  t.same(failed.map((p: { isPaid: boolean }) => p.isPaid), [false, false], 'failed attempts listed with all=true');
  t.same((await call(customer, 'GET', '/payments/outgoing')).json, [], 'default lists only successes');
});

t.test('offers: reusable, payer key and note reach the payee', async (t) => {
  const { restaurant, customer } = await harness(t);
  const ws: unknown[] = [];
  restaurant.events.on('payment_received', (p) => ws.push(p));
  const offer = (await call(restaurant, 'POST', '/createoffer', { description: 'Café', amountSat: 2_000 })).text;
  t.match(offer, /^lno1/);
  const first = await call(customer, 'POST', '/payoffer', { offer, message: 'gracias' });
  t.equal(first.json.recipientAmountSat, 2_000);
  t.equal(first.json.routingFeeSat, 12);
  const second = await call(customer, 'POST', '/payoffer', { offer, amountSat: 2_500 });
  t.equal(second.json.recipientAmountSat, 2_500, 'an offer is reusable');
  t.not(first.json.paymentHash, second.json.paymentHash);
  const received = (await call(restaurant, 'GET', '/payments/incoming')).json;
  t.equal(received.length, 2);
  t.match(received[1], { receivedSat: 2_000, payerNote: 'gracias', description: 'Café', isPaid: true });
  t.match(received[1].payerKey, /^0[23][0-9a-f]{64}$/);
  t.equal(received[0].payerKey, received[1].payerKey, 'one payer key per payer and offer');
  t.same((await call(customer, 'POST', '/payoffer', { offer, amountSat: 1_000 })).json, { reason: REASON.rejected }, 'below the offer amount');
  const open = (await call(restaurant, 'POST', '/createoffer', {})).text;
  t.equal((await call(customer, 'POST', '/payoffer', { offer: open })).text, 'Request parameter amountSat is missing');
  t.equal((await call(restaurant, 'POST', '/payoffer', { offer: open, amountSat: 10 })).json.reason, REASON.unreachable, 'own offer');
  t.equal((await call(customer, 'POST', '/payoffer', { offer: 'lno1zzz' })).text, "Request parameter offer couldn't be parsed/converted to offer");
  t.equal(ws.length, 2);
});
