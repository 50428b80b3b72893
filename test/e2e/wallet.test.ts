import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsServerAvailable, startNatsServer } from '@comanda/bus';
import { NatsBus } from '@comanda/bus/nats';
import { Client } from '../src/http-client.js';
import { startStandalone } from '../src/standalone-process.js';

/** Reads Server-Sent Events from a streaming fetch: each `data:` of a `payment_received` event. */
async function sseEvents(url: string, cookie: string) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { cookie, accept: 'text/event-stream' }, signal: controller.signal });
  const events: Array<{ id: string; data: unknown }> = [];
  let buffer = '';
  let connected!: () => void;
  const ready = new Promise<void>((r) => (connected = r));
  const reader = res.body!.getReader();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += new TextDecoder().decode(value);
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (block.startsWith(': connected')) connected();
          const fields = Object.fromEntries(block.split('\n').filter((l) => !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
          if (fields.event === 'payment_received') events.push({ id: fields.id!, data: JSON.parse(fields.data!) });
        }
      }
    } catch {
      // aborted at the end of the test
    }
  })();
  await ready;
  return { status: res.status, contentType: res.headers.get('content-type'), events, close: () => controller.abort() };
}

const eventually = async (check: () => Promise<boolean> | boolean, what: string, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

t.test('an order paid over Lightning: invoice, customer pays, webhook, order shows it, NATS and SSE see it once', {
  skip: natsServerAvailable() ? false : 'nats-server is not installed (this test needs a real NATS JetStream server)',
}, async (t) => {
  const nats = await startNatsServer();
  t.teardown(() => nats.stop());
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-wallet-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', COMANDA_WALLET_PASSWORD: 'wallet-pass', COMANDA_NATS_URL: nats.url });
  t.teardown(() => pos.stop());
  const customer = /customer wallet at (http:\/\/\S+) \(Basic auth, empty user, password ([0-9a-f]+)\)/.exec(pos.output());
  t.ok(customer, 'standalone prints how to reach the customer node');

  // A subscriber of our own on the real NATS server, from before the payment.
  const watcher = await NatsBus.connect(nats.url, 'e2e-watcher');
  t.teardown(() => watcher.close());
  const seenOnNats: unknown[] = [];
  await watcher.subscribe('pos.wallet.payment_received', (m) => void seenOnNats.push(m.payload));

  const admin = new Client(pos.url);
  await admin.login('admin', '1234');
  const space = (await admin.post('/spaces', { name: 'Terraza' })).body as { id: string };
  const table = (await admin.post('/tables', { name: 'T1', status: 'available', space_id: space.id, order_id: null })).body as { id: string };
  const me = (await admin.get('/auth/me')).body as { id: string };
  const placed = await admin.post('/orders', { user_id: me.id, table_id: table.id, waiter: 'Ana', status: 'pending', total: 0 });
  t.equal(placed.status, 201);
  const orderId = (placed.body as { id: string }).id;

  const cookie = (await admin.post('/wallet/auth', { password: 'wallet-pass' })).headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const access = (await fetch(`${pos.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'admin', pin: '1234' }) })).headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const screen = await sseEvents(`${pos.url}/wallet/events`, `${access}; ${cookie}`);
  t.teardown(screen.close);
  t.equal(screen.status, 200);
  t.match(screen.contentType, /^text\/event-stream/);

  const invoice = await admin.post('/wallet/createinvoice', { description: 'Mesa T1', amountSat: 4200, externalId: orderId });
  t.equal(invoice.status, 200);
  const { serialized, paymentHash } = invoice.body as { serialized: string; paymentHash: string };

  const paid = await fetch(`${customer![1]}/payinvoice`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`:${customer![2]}`).toString('base64')}` },
    body: new URLSearchParams({ invoice: serialized }),
  });
  t.match(await paid.json(), { recipientAmountSat: 4200, paymentHash }, 'the customer node paid over HTTP');

  await eventually(async () => ((await admin.get(`/orders/${orderId}`)).body as { paid_sat: number }).paid_sat === 4200, 'the order to show the payment');
  const complete = (await admin.get(`/orders/${orderId}/complete`)).body as { payments: unknown[] };
  t.match(complete.payments, [{ payment_hash: paymentHash, amount_sat: 4200 }]);
  await eventually(() => screen.events.length > 0, 'the SSE event');
  t.match(screen.events, [{ id: paymentHash, data: { type: 'payment_received', paymentHash, amountSat: 4200, externalId: orderId } }]);
  await eventually(() => seenOnNats.length > 0, 'the NATS message');
  await new Promise((r) => setTimeout(r, 500));
  t.equal(seenOnNats.length, 1, 'exactly one payment_received on NATS');
  t.match(seenOnNats[0], { paymentHash, amountSat: 4200, externalId: orderId });
  const incoming = (await admin.get(`/wallet/payments/incoming?externalId=${orderId}`)).body as Array<{ status: string }>;
  t.match(incoming, [{ paymentHash, status: 'RECEIVED' }]);
  t.notMatch(pos.output(), /wallet-pass/, 'no secret in the logs');
});
