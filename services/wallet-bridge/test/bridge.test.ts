import t from 'tap';
import Fastify from 'fastify';
import pino from 'pino';
import { InProcessBus } from '@comanda/bus';
import { order, orderStream, unmatchedPaymentStream, newId, ownAuthority } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { signWebhook } from '@comanda/lightning';
import { PAYMENT_RECEIVED, paymentIntake, recordReceivedPayment, startPaymentConsumer, webhookReceiver, type PaymentReceived } from '../src/index.js';

const SECRET = 'shared-webhook-secret';
const hash = (n: number) => n.toString(16).padStart(64, '0');
const payment = (overrides: Partial<PaymentReceived> = {}): PaymentReceived => ({
  type: 'payment_received', timestamp: 1_700_000_000_000, amountSat: 1500, paymentHash: hash(1), externalId: null, payerNote: null, payerKey: null, ...overrides,
});

async function bridge(t: { teardown(fn: () => unknown): void }, store = new MemoryEventStore()) {
  const bus = new InProcessBus();
  const commands = new CommandHandler(store);
  const published: unknown[] = [];
  await bus.subscribe(PAYMENT_RECEIVED, (m) => void published.push(m.payload));
  const app = Fastify({ logger: false });
  // JSON elsewhere in the app must still parse: the raw parser is the receiver's own.
  app.post('/echo', async (request) => request.body);
  await app.register(webhookReceiver, { intake: paymentIntake(bus, commands, pino({ level: 'silent' })), webhookSecret: SECRET });
  await app.ready();
  t.teardown(() => app.close());
  const deliver = (body: string, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/webhooks/node', headers: { 'content-type': 'application/json', ...headers }, payload: body });
  return { app, bus, store, published, deliver };
}

t.test('a valid signature is accepted, recorded before the answer, and announced once, also on replay', async (t) => {
  const b = await bridge(t);
  const body = JSON.stringify(payment());
  const res = await b.deliver(body, { 'x-node-signature': signWebhook(body, SECRET) });
  t.equal(res.statusCode, 200);
  t.same((await b.store.readStream(unmatchedPaymentStream(hash(1)))).map((e) => e.type), ['UnmatchedPaymentReceived'], 'in the log when 200 is sent');
  t.same(b.published, [payment()]);
  const replay = await b.deliver(body, { 'x-node-signature': signWebhook(body, SECRET) });
  t.equal(replay.statusCode, 200, 'a replay is acknowledged');
  t.equal(b.published.length, 1, 'and published once (dedupId = paymentHash)');
  const phoenix = JSON.stringify(payment({ paymentHash: hash(2) }));
  t.equal((await b.deliver(phoenix, { 'x-phoenix-signature': signWebhook(phoenix, SECRET) })).statusCode, 200, "the real node's header");
  t.equal(b.published.length, 2);
  t.same((await b.app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } })).json(), { a: 1 }, 'JSON parsing elsewhere untouched');
});

t.test('missing, wrong, or altered signatures are 401 and publish nothing', async (t) => {
  const b = await bridge(t);
  const body = JSON.stringify(payment());
  const good = signWebhook(body, SECRET);
  t.equal((await b.deliver(body, {})).statusCode, 401, 'missing');
  t.equal((await b.deliver(body, { 'x-node-signature': signWebhook(body, 'other-secret') })).statusCode, 401, 'wrong secret');
  t.equal((await b.deliver(body, { 'x-node-signature': 'zz' })).statusCode, 401, 'not hex');
  const altered = body.replace('"amountSat":1500', '"amountSat":1501');
  t.equal(altered.length, body.length);
  t.equal((await b.deliver(altered, { 'x-node-signature': good })).statusCode, 401, 'body altered by one byte');
  t.equal((await b.deliver(`${body} `, { 'x-node-signature': good })).statusCode, 401, 'one byte appended');
  t.same(b.published, []);
  t.equal(await b.store.headPosition(), null, 'nothing stored');
});

t.test('a payment that cannot be made durable is never answered 200', async (t) => {
  const store = new MemoryEventStore();
  store.append = async () => {
    throw new Error('disk full');
  };
  const b = await bridge(t, store);
  const body = JSON.stringify(payment());
  const res = await b.deliver(body, { 'x-node-signature': signWebhook(body, SECRET) });
  t.equal(res.statusCode, 500);
  t.same(b.published, [], 'nobody is told it arrived');
});

t.test('on a durable bus the acknowledged publish is the intake; the consumer records it', async (t) => {
  const bus = Object.assign(new InProcessBus(), { durable: true });
  const store = new MemoryEventStore();
  const commands = new CommandHandler(store);
  const intake = paymentIntake(bus, commands, pino({ level: 'silent' }));
  const seen: unknown[] = [];
  await bus.subscribe(PAYMENT_RECEIVED, (m) => void seen.push(m.payload));
  await intake(payment({ paymentHash: hash(7) }));
  t.same(seen, [payment({ paymentHash: hash(7) })], 'published');
  t.equal(await store.headPosition(), null, 'not written by the intake itself');
});

t.test('malformed bodies with a valid signature are 400', async (t) => {
  const b = await bridge(t);
  for (const body of ['{not json', '[]', JSON.stringify({ ...payment(), paymentHash: 'xyz' }), JSON.stringify({ ...payment(), type: 'other' }), JSON.stringify({ ...payment(), amountSat: '5' })]) {
    const res = await b.deliver(body, { 'x-node-signature': signWebhook(body, SECRET) });
    t.equal(res.statusCode, 400, body.slice(0, 40));
  }
  t.same(b.published, []);
});

t.test('the consumer records a payment on its order once; unmatched ones on their own stream', async (t) => {
  const store = new MemoryEventStore();
  const commands = new CommandHandler(store);
  const bus = new InProcessBus();
  const orderId = newId();
  await commands.handle(order, orderStream(orderId), { type: 'placeOrder', orderId, userId: newId(), tableId: newId(), waiter: 'Ana', at: 1, lines: [], authority: ownAuthority('test-manager', 'manager') });
  const sub = await startPaymentConsumer(bus, commands, pino({ level: 'silent' }));
  t.teardown(() => sub.close());

  const forOrder = payment({ paymentHash: hash(10), externalId: orderId });
  await bus.publish(PAYMENT_RECEIVED, forOrder, forOrder.paymentHash);
  t.same(await recordReceivedPayment(commands, forOrder), { where: 'order', recorded: false }, 'redelivery is harmless');
  const stray = payment({ paymentHash: hash(11), externalId: 'table-9' });
  await bus.publish(PAYMENT_RECEIVED, stray, stray.paymentHash);
  const unknownOrder = payment({ paymentHash: hash(12), externalId: newId() });
  await bus.publish(PAYMENT_RECEIVED, unknownOrder, unknownOrder.paymentHash);
  await new Promise((r) => setTimeout(r, 50));

  const onOrder = (await store.readStream(orderStream(orderId))).filter((e) => e.type === 'OrderPaymentReceived');
  t.equal(onOrder.length, 1, 'recorded once');
  t.same(onOrder[0]!.data, { paymentHash: hash(10), amountSat: 1500, receivedAt: 1_700_000_000_000 });
  for (const p of [stray, unknownOrder]) {
    const events = await store.readStream(unmatchedPaymentStream(p.paymentHash));
    t.same(events.map((e) => e.type), ['UnmatchedPaymentReceived'], `unmatched ${p.externalId}`);
    t.match(events[0]!.data, { paymentHash: p.paymentHash, amountSat: 1500, externalId: p.externalId });
  }
  await recordReceivedPayment(commands, stray);
  t.equal((await store.readStream(unmatchedPaymentStream(stray.paymentHash))).length, 1, 'unmatched recorded once');
});
