import t from 'tap';
import pino from 'pino';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessBus } from '@comanda/bus';
import { newId, order, orderStream, unmatchedPaymentStream, ownAuthority } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { NodeClient } from '@comanda/lightning';
import { startNetwork, type SimNode } from '@comanda/node-sim';
import { FileCheckpoint } from '@comanda/runtime';
import { WebSocketServer } from 'ws';
import { PAYMENT_RECEIVED, Reconciler, followNodeWebsocket, recordAndAnnounce, recordReceivedPayment, startPaymentWatch, type PaymentReceived } from '../src/index.js';

const silent = pino({ level: 'silent' });

/** Two simulated nodes with no webhook configured: only reconciliation can find payments. */
async function setup(t: { teardown(fn: () => unknown): void }) {
  const net = await startNetwork({
    seed: 'reconciler-test',
    blockIntervalMs: 0,
    nodes: [
      { name: 'restaurant', port: 0, channel: { balanceSat: 50_000, inboundLiquiditySat: 2_000_000 } },
      { name: 'customer', port: 0, channel: { balanceSat: 1_000_000, inboundLiquiditySat: 1_000_000 } },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'comanda-reconciler-'));
  t.teardown(async () => {
    await net.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const restaurant = net.node('restaurant');
  const store = new MemoryEventStore();
  const commands = new CommandHandler(store);
  const bus = new InProcessBus();
  const announced: string[] = [];
  await bus.subscribe<PaymentReceived>(PAYMENT_RECEIVED, (m) => void announced.push(m.payload.paymentHash));
  const node = new NodeClient({ url: restaurant.url, password: restaurant.password });
  const placeOrder = async () => {
    const orderId = newId();
    await commands.handle(order, orderStream(orderId), { type: 'placeOrder', orderId, userId: newId(), tableId: null, waiter: 'Ana', at: 1, lines: [], authority: ownAuthority('test-manager', 'manager') });
    return orderId;
  };
  /** The customer pays an invoice of the restaurant's that names `externalId`. */
  const customerPays = async (externalId: string | undefined, amountSat = 2100) => {
    const invoice = await node.createInvoice({ description: 'Mesa 4', amountSat, ...(externalId ? { externalId } : {}) });
    await pay(net.node('customer'), invoice.serialized);
    return invoice.paymentHash;
  };
  const paymentsOn = async (orderId: string) =>
    (await store.readStream(orderStream(orderId))).filter((e) => e.type === 'OrderPaymentReceived').map((e) => (e.data as { paymentHash: string }).paymentHash);
  const checkpointFile = join(dir, 'reconciler.checkpoint');
  const record = recordAndAnnounce(commands, bus, silent);
  return { net, restaurant, node, store, commands, bus, announced, placeOrder, customerPays, paymentsOn, checkpointFile, record };
}

async function pay(customer: SimNode, invoice: string) {
  const res = await fetch(`${customer.url}/payinvoice`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`:${customer.password}`).toString('base64')}` },
    body: new URLSearchParams({ invoice }),
  });
  if (res.status !== 200) throw new Error(`payinvoice ${res.status}: ${await res.text()}`);
}

async function until(check: () => Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

t.test('payments made while the bridge was stopped are recorded at start, each once', async (t) => {
  const s = await setup(t);
  const orders = [await s.placeOrder(), await s.placeOrder(), await s.placeOrder()];
  const hashes = [];
  for (const orderId of orders) hashes.push(await s.customerPays(orderId));
  const stray = await s.customerPays(undefined, 500);
  // 120 more, so the pass must page (page size 50) through a list that is newest first.
  const busy = await s.placeOrder();
  for (let i = 0; i < 120; i++) await s.customerPays(busy, 10 + i);

  const reconciler = new Reconciler({ node: s.node, record: s.record, checkpoint: new FileCheckpoint(s.checkpointFile), everyMs: 60_000, pageSize: 50, logger: silent });
  await reconciler.reconcile();
  for (const [i, orderId] of orders.entries()) t.same(await s.paymentsOn(orderId), [hashes[i]], `order ${i + 1} paid`);
  t.equal((await s.paymentsOn(busy)).length, 120, 'every page read');
  t.same((await s.store.readStream(unmatchedPaymentStream(stray))).map((e) => e.type), ['UnmatchedPaymentReceived'], 'a payment naming no order is kept');
  t.equal(reconciler.stats.recovered, 124);
  t.equal(s.announced.length, 124, 'each announced once to live listeners');

  const checkpoint = await new FileCheckpoint(s.checkpointFile).get();
  t.ok(checkpoint !== null && checkpoint > 0n, 'the checkpoint is on disk');
  await reconciler.reconcile();
  t.equal(reconciler.stats.recovered, 124, 'a second pass records nothing again');
  t.equal((await s.paymentsOn(busy)).length, 120);

  const again = new Reconciler({ node: s.node, record: s.record, checkpoint: new FileCheckpoint(join(s.checkpointFile, '..', 'lost.checkpoint')), everyMs: 60_000, logger: silent });
  await again.reconcile();
  t.equal(again.stats.recovered, 0, 'a lost checkpoint re-reads history and records nothing twice');
});

t.test('while running: the timer finds a payment within one period', async (t) => {
  const s = await setup(t);
  const reconciler = new Reconciler({ node: s.node, record: s.record, checkpoint: new FileCheckpoint(s.checkpointFile), everyMs: 300, logger: silent });
  reconciler.start();
  t.teardown(() => reconciler.stop());
  const orderId = await s.placeOrder();
  const paymentHash = await s.customerPays(orderId);
  t.ok(await until(async () => (await s.paymentsOn(orderId)).length === 1, 3000), 'recorded by the timer');
  t.same(await s.paymentsOn(orderId), [paymentHash]);
});

t.test('the websocket announces a payment: recorded at once; webhook, websocket and timer record it once', async (t) => {
  const s = await setup(t);
  const watch = startPaymentWatch({
    node: { url: s.restaurant.url, password: s.restaurant.password },
    record: s.record,
    checkpoint: new FileCheckpoint(s.checkpointFile),
    everyMs: 60 * 60_000, // no timer pass during the test: only the websocket can be quick
    logger: silent,
  });
  t.teardown(() => watch.close());
  t.ok(await until(async () => watch.websocketConnected()), 'connected to the node websocket');
  await watch.reconciler.reconcile();
  const orderId = await s.placeOrder();
  const paymentHash = await s.customerPays(orderId);
  t.ok(await until(async () => (await s.paymentsOn(orderId)).length === 1, 2000), 'recorded from the websocket announcement');
  // The same payment as a webhook would deliver it, and another pass.
  const asWebhook: PaymentReceived = { type: 'payment_received', timestamp: Date.now(), amountSat: 2100, paymentHash, externalId: orderId, payerNote: null, payerKey: null };
  t.same(await recordReceivedPayment(s.commands, asWebhook), { where: 'order', recorded: false });
  await watch.reconciler.reconcile();
  t.same(await s.paymentsOn(orderId), [paymentHash], 'recorded once');
  t.equal(s.announced.filter((h) => h === paymentHash).length, 1, 'announced once');
});

t.test('the node websocket: reconnects with backoff after a drop, and each connection asks for a pass', async (t) => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => server.once('listening', r));
  t.teardown(() => new Promise((r) => server.close(r)));
  const auth: string[] = [];
  server.on('connection', (socket, request) => {
    auth.push(String(request.headers.authorization));
    socket.send(JSON.stringify({ type: 'payment_received', amountSat: 5, paymentHash: 'AB'.repeat(32) }));
    socket.send('not json');
    socket.send(JSON.stringify({ type: 'other', paymentHash: 'cd'.repeat(32) }));
  });
  const port = (server.address() as { port: number }).port;
  let connections = 0;
  const announced: string[] = [];
  const follower = followNodeWebsocket({
    url: `http://127.0.0.1:${port}`, password: 'node-pass', logger: silent, minDelayMs: 20, maxDelayMs: 100,
    onConnected: () => void connections++,
    onPayment: (hash) => void announced.push(hash),
  });
  t.teardown(() => follower.close());
  t.ok(await until(async () => connections === 1 && announced.length === 1));
  t.same(announced, ['ab'.repeat(32)], 'payment frames only, hash normalised');
  t.equal(auth[0], `Basic ${Buffer.from(':node-pass').toString('base64')}`, 'Basic auth with an empty user');
  for (const client of server.clients) client.terminate();
  t.ok(await until(async () => connections === 2), 'reconnected after the drop, and asked for a pass again');
});

t.test('an unreachable node fails a pass (in the stats), and start() never throws', async (t) => {
  const s = await setup(t);
  const down = new Reconciler({ node: new NodeClient({ url: 'http://127.0.0.1:1', password: 'x', timeoutMs: 500 }), record: s.record, checkpoint: new FileCheckpoint(`${s.checkpointFile}.down`), everyMs: 60_000, logger: silent });
  down.start();
  t.teardown(() => down.stop());
  await t.rejects(down.reconcile());
  t.ok(down.stats.failedPasses >= 1);
  t.match(down.stats.lastError, /unreachable|timeout/);
});
