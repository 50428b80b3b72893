import t from 'tap';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signWebhook } from '@comanda/lightning';
import { Client } from '../src/http-client.js';
import { startStandalone } from '../src/standalone-process.js';

const SECRET = 'e2e-webhook-secret-for-the-crash-test';
const ROUNDS = 3;
const CONCURRENCY = 24;

/**
 * The restaurant's node sends each webhook once and never retries: a 200 is the bridge's promise that
 * the payment is kept. Webhooks stream in 24 at a time and the process is killed (SIGKILL) at a random
 * moment; after a restart, every payment that was answered 200 must be on its order (or, naming none,
 * on the unmatched list).
 */
t.test('webhooks answered 200 survive kill -9 at a random moment, every round', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-crash-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', COMANDA_WALLET_PASSWORD: 'wallet-pass', COMANDA_WEBHOOK_SECRET: SECRET };

  let pos = await startStandalone(env);
  t.teardown(() => pos.stop());
  const admin = new Client(pos.url);
  await admin.login('admin', '1234');
  const me = (await admin.get('/auth/me')).body as { id: string };
  const orders: string[] = [];
  for (let i = 0; i < 8; i++) {
    const placed = await admin.post('/orders', { user_id: me.id, table_id: null, waiter: 'Ana', status: 'pending', total: 0 });
    orders.push((placed.body as { id: string }).id);
  }

  const acknowledged: Array<{ paymentHash: string; externalId: string | null }> = [];
  for (let round = 1; round <= ROUNDS; round++) {
    let stop = false;
    let answered = 0;
    const sender = async () => {
      while (!stop) {
        const paymentHash = randomBytes(32).toString('hex');
        // Most name an order; some name none and must land on the unmatched list.
        const externalId = Math.random() < 0.8 ? orders[Math.floor(Math.random() * orders.length)]! : null;
        const body = JSON.stringify({ type: 'payment_received', timestamp: Date.now(), amountSat: 1000, paymentHash, externalId, payerNote: null, payerKey: null });
        try {
          const res = await fetch(`${pos.url}/webhooks/node`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-node-signature': signWebhook(body, SECRET) },
            body,
          });
          if (res.status === 200) {
            acknowledged.push({ paymentHash, externalId });
            answered++;
          }
        } catch {
          // The process died under this request: it was never acknowledged, so it is not counted.
        }
      }
    };
    const senders = Array.from({ length: CONCURRENCY }, sender);
    // The kill lands at a random moment once webhooks are being answered (a loaded machine may take a
    // while to answer the first after a restart).
    for (const began = Date.now(); answered === 0 && Date.now() - began < 20_000;) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300 + Math.random() * 900));
    pos.child.kill('SIGKILL');
    await new Promise((r) => pos.child.once('exit', r));
    stop = true;
    await Promise.all(senders);
    t.ok(answered > 0, `round ${round}: ${answered} webhooks answered 200 before the kill`);
    pos = await startStandalone(env);
  }

  const after = new Client(pos.url);
  await after.login('admin', '1234');
  const onOrders = new Set<string>();
  for (const orderId of orders) {
    const order = (await after.get(`/orders/${orderId}/complete`)).body as { payments: Array<{ payment_hash: string }> };
    for (const p of order.payments) onOrders.add(p.payment_hash);
  }
  const unmatched = new Set(((await after.get('/wallet/unmatched?all=true')).body as Array<{ paymentHash: string; orderId: string | null }>)
    .filter((p) => p.orderId === null).map((p) => p.paymentHash));
  const lost = acknowledged.filter((p) => !(p.externalId ? onOrders.has(p.paymentHash) : unmatched.has(p.paymentHash)));
  t.same(lost, [], `every one of the ${acknowledged.length} acknowledged payments is recorded after the crashes`);
});
