import t from 'tap';
import WebSocket from 'ws';
import { verifyWebhookSignature } from '@comanda/lightning';
import { call, harness, invoiceOf, webhookReceiver } from './helpers.js';

function open(url: string, options: { protocol?: string; password?: string }): Promise<{ ws: WebSocket; messages: unknown[]; next(): Promise<unknown> }> {
  const headers = options.password === undefined ? {} : { authorization: `Basic ${Buffer.from(`:${options.password}`).toString('base64')}` };
  const ws = new WebSocket(`${url.replace('http', 'ws')}/websocket`, options.protocol === undefined ? [] : [options.protocol], { headers });
  const messages: unknown[] = [];
  let wake: (() => void) | undefined;
  ws.on('message', (data) => {
    messages.push(JSON.parse(String(data)));
    wake?.();
  });
  let read = 0;
  const next = async (): Promise<unknown> => {
    while (messages.length <= read) await new Promise<void>((resolve) => (wake = resolve));
    return messages[read++];
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, messages, next }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

t.test('websocket: Basic auth or the password as subprotocol; one frame per received payment', async (t) => {
  const { restaurant, customer } = await harness(t);
  await t.rejects(open(restaurant.url, {}), { message: 'HTTP 401' });
  await t.rejects(open(restaurant.url, { protocol: 'wrong' }), { message: 'HTTP 401' });
  const byBasic = await open(restaurant.url, { password: restaurant.limitedPassword });
  const byProtocol = await open(restaurant.url, { protocol: restaurant.password });
  t.teardown(() => {
    byBasic.ws.close();
    byProtocol.ws.close();
  });
  t.equal(byProtocol.ws.protocol, restaurant.password, 'the password is echoed as the accepted subprotocol');
  const invoice = await invoiceOf(restaurant, { description: 'ws', amountSat: 321, externalId: 'table-7' });
  await call(customer, 'POST', '/payinvoice', { invoice: invoice.serialized });
  const expected = { type: 'payment_received', timestamp: restaurant.incomingByHash(invoice.paymentHash)?.completedAt, amountSat: 321, paymentHash: invoice.paymentHash, externalId: 'table-7' };
  t.same(await byBasic.next(), expected, 'nulls are left out');
  t.same(await byProtocol.next(), expected);
  const plain = await call(restaurant, 'GET', '/websocket');
  t.equal(plain.status, 400, 'a plain GET is not an upgrade');
});

t.test('webhooks: configured URLs and the invoice webhookUrl; failed deliveries are retried', async (t) => {
  const configured = await webhookReceiver(t, 2);
  const perInvoice = await webhookReceiver(t);
  const { restaurant, customer } = await harness(t);
  restaurant.addWebhook(configured.url);
  const invoice = await invoiceOf(restaurant, { description: 'hook', amountSat: 99, webhookUrl: perInvoice.url });
  await call(customer, 'POST', '/payinvoice', { invoice: invoice.serialized });
  const [a, b] = await Promise.all([configured.next(), perInvoice.next()]);
  for (const delivery of [a, b]) {
    t.ok(verifyWebhookSignature(delivery.body, restaurant.webhookSecret, String(delivery.headers['x-node-signature'])));
    t.match(JSON.parse(delivery.body), { type: 'payment_received', amountSat: 99, paymentHash: invoice.paymentHash, externalId: null, payerNote: null, payerKey: null });
  }
  t.equal(configured.received.length, 1, 'delivered on the third attempt after two 500s');
});
