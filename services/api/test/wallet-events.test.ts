import t from 'tap';
import { request } from 'node:http';
import { testApp } from './harness.js';

const SUBJECT = 'pos.wallet.payment_received';

t.test('GET /wallet/events needs a signed-in user', async (t) => {
  const { app, close } = await testApp();
  t.teardown(close);
  const res = await app.inject({ method: 'GET', url: '/wallet/events' });
  t.same([res.statusCode, res.json()], [401, { message: 'Unauthorized' }]);
});

t.test('a POS screen receives each payment as a Server-Sent Event, and stops listening when it leaves', async (t) => {
  const { app, close, as, bus } = await testApp();
  t.teardown(close);
  const cookie = await as('waiter');
  // Watch the subscription the route opens, to see it closed when the screen leaves.
  let closedSubscriptions = 0;
  const subscribe = bus.subscribe.bind(bus);
  bus.subscribe = (async (...args: Parameters<typeof bus.subscribe>) => {
    const sub = await subscribe(...args);
    return { close: async () => (closedSubscriptions++, sub.close()) };
  }) as typeof bus.subscribe;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };

  let text = '';
  const waitFor = async (fragment: string) => {
    const end = Date.now() + 5000;
    while (!text.includes(fragment)) {
      if (Date.now() > end) throw new Error(`no "${fragment}" in ${JSON.stringify(text)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const req = request({ host: '127.0.0.1', port, path: '/wallet/events', headers: { cookie } });
  const response = new Promise<import('node:http').IncomingMessage>((resolve) => req.on('response', resolve));
  req.end();
  const res = await response;
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/event-stream/);
  t.match(res.headers, { 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' }, 'the stream carries the API security headers');
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  await waitFor(': connected');

  const payment = { type: 'payment_received', timestamp: 1, amountSat: 2100, paymentHash: 'ab'.repeat(32), externalId: null, payerNote: null, payerKey: null };
  await bus.publish(SUBJECT, payment, payment.paymentHash);
  await waitFor('event: payment_received');
  const frame = text.split('\n\n').find((f) => f.startsWith('event: payment_received'))!;
  t.match(frame, `id: ${payment.paymentHash}`);
  t.same(JSON.parse(frame.split('\n').find((l) => l.startsWith('data: '))!.slice(6)), payment);

  t.equal(closedSubscriptions, 0);
  res.destroy();
  const end = Date.now() + 5000;
  while (closedSubscriptions === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  t.equal(closedSubscriptions, 1, 'the bus subscription closes when the screen disconnects');
});
