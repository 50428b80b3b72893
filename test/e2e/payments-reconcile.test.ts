import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../src/http-client.js';
import { repoRoot, startStandalone } from '../src/standalone-process.js';

interface SimNode { name: string; url: string; password: string }

/** `npm run node-sim` as its own process, with no webhook configured: only reconciliation finds payments. */
async function startSimulator(t: { teardown(fn: () => unknown): void }, dataDir: string): Promise<SimNode[]> {
  const child = spawn(process.execPath, [join(repoRoot, 'services/node-sim/dist/main.js')], {
    env: { PATH: process.env.PATH, NODE_SIM_LOG_LEVEL: 'warn', NODE_SIM_DATA_DIR: dataDir, NODE_SIM_RESTAURANT_PORT: '0', NODE_SIM_CUSTOMER_PORT: '0', NODE_SIM_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.teardown(() => void child.kill('SIGKILL'));
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /^NODE_SIM_READY (.+)$/m.exec(out);
      if (line) resolve((JSON.parse(line[1]!) as { nodes: SimNode[] }).nodes);
    });
    child.once('exit', (code) => reject(new Error(`node-sim exited with ${code}: ${out}`)));
  });
}

async function payAs(customer: SimNode, invoice: string) {
  const res = await fetch(`${customer.url}/payinvoice`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`:${customer.password}`).toString('base64')}` },
    body: new URLSearchParams({ invoice }),
  });
  if (res.status !== 200) throw new Error(`payinvoice: ${res.status}`);
}

const eventually = async (check: () => Promise<boolean>, ms: number) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
};

t.test('with no webhook at all: payments made while stopped appear after start, and while running soon after', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-e2e-reconcile-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const nodes = await startSimulator(t, join(dir, 'node-sim'));
  const restaurant = nodes.find((n) => n.name === 'restaurant')!;
  const customer = nodes.find((n) => n.name === 'customer')!;
  const env = {
    COMANDA_DATA_DIR: join(dir, 'pos'), COMANDA_ADMIN_PIN: '1234', COMANDA_WALLET_PASSWORD: 'wallet-pass',
    COMANDA_NODE_URL: restaurant.url, COMANDA_NODE_PASSWORD: restaurant.password, COMANDA_RECONCILE_EVERY_S: '2',
  };

  let pos = await startStandalone(env);
  t.teardown(() => pos.stop());
  let admin = new Client(pos.url);
  await admin.login('admin', '1234');
  const me = (await admin.get('/auth/me')).body as { id: string };
  const newOrder = async () => ((await admin.post('/orders', { user_id: me.id, table_id: null, waiter: 'Ana', status: 'pending', total: 0 })).body as { id: string }).id;
  const invoiceFor = async (orderId: string, amountSat: number) =>
    (await admin.post('/wallet/createinvoice', { description: 'Mesa', amountSat, externalId: orderId })).body as { serialized: string; paymentHash: string };
  const paidSat = async (orderId: string) => ((await admin.get(`/orders/${orderId}/complete`)).body as { order: { paid_sat: number } }).order.paid_sat;

  const whileStopped = await newOrder();
  const invoice = await invoiceFor(whileStopped, 3100);
  t.equal(await pos.stop(), 0, 'the POS stops');
  await payAs(customer, invoice.serialized);

  pos = await startStandalone(env);
  admin = new Client(pos.url);
  await admin.login('admin', '1234');
  t.ok(await eventually(async () => (await paidSat(whileStopped)) === 3100, 5000), 'the payment made while the POS was stopped is on its order after start');

  const whileRunning = await newOrder();
  await payAs(customer, (await invoiceFor(whileRunning, 1200)).serialized);
  t.ok(await eventually(async () => (await paidSat(whileRunning)) === 1200, 3000), 'a payment made while running is recorded within one period (websocket or timer)');
  t.equal(await paidSat(whileStopped), 3100, 'recorded once, whatever found it');
});
