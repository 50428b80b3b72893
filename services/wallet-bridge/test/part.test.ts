import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@comanda/config';
import { signWebhook } from '@comanda/lightning';
import { DEFAULT_NODES, startNetwork } from '@comanda/node-sim';
import pino from 'pino';
import { createRuntime } from '@comanda/runtime';
import { walletBridge } from '../src/index.js';

const SECRET = 'part-test-webhook-secret-0123456789';

/** The wallet bridge on its own (services/wallet-bridge/src/main.ts): webhook on its own server, health, the node. */
t.test('the wallet bridge part: its /health covers the bridge and the node; a signed webhook is recorded', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-bridge-part-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const network = await startNetwork({
    dataDir: join(dataDir, 'node-sim'), logger: pino({ level: 'silent' }),
    nodes: DEFAULT_NODES.map((n) => ({ ...n, host: '127.0.0.1', port: 0 })),
  });
  t.teardown(() => network.close());
  const node = network.node('restaurant');
  const config = loadConfig({
    COMANDA_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', COMANDA_WEBHOOK_SECRET: SECRET,
    COMANDA_NODE_URL: node.url, COMANDA_NODE_PASSWORD: node.password,
  });
  const running = await createRuntime(config, [walletBridge()]);
  t.teardown(() => running.close());

  const health = await fetch(`${running.url}/health`);
  const { checks } = (await health.json()) as { checks: Record<string, string> };
  t.same(Object.keys(checks).sort(), ['bus', 'eventStore', 'lightningNode', 'readStore', 'walletBridge']);
  t.equal(health.status, 200, JSON.stringify(checks));

  const body = JSON.stringify({ type: 'payment_received', timestamp: Date.now(), amountSat: 1234, paymentHash: 'ab'.repeat(32), externalId: null, payerNote: null, payerKey: null });
  const unsigned = await fetch(`${running.url}/webhooks/node`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  t.equal(unsigned.status, 401, 'unsigned: refused');
  const signed = await fetch(`${running.url}/webhooks/node`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-node-signature': signWebhook(body, SECRET) } });
  t.equal(signed.status, 200);
  const events = await running.runtime.store.readStream(`unmatchedpayment-${'ab'.repeat(32)}`);
  t.match(events, [{ type: 'UnmatchedPaymentReceived' }], 'recorded in the log before the 200 (in-process bus)');
});

t.test('the wallet bridge part refuses to start without a Lightning node, and leaves nothing running', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-bridge-part-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({ COMANDA_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', COMANDA_WEBHOOK_SECRET: SECRET });
  await t.rejects(createRuntime(config, [walletBridge()]), { message: 'The wallet bridge needs a Lightning node (COMANDA_NODE_URL)' });
});
