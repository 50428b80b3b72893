import t from 'tap';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { ManualClock, startNetwork } from '../src/index.js';
import { START, call, invoiceOf } from './helpers.js';

t.test('with a data dir the state survives a restart; secrets generated once are kept', async (t) => {
  const dataDir = t.testdir();
  const nodes = [
    { name: 'restaurant', port: 0 },
    { name: 'customer', port: 0 },
  ];
  const first = await startNetwork({ dataDir, nodes, clock: new ManualClock(START) });
  const [restaurant, customer] = first.nodes;
  const invoice = await invoiceOf(restaurant, { description: 'persisted', amountSat: 1234 });
  await call(customer, 'POST', '/payinvoice', { invoice: invoice.serialized });
  const before = { password: restaurant.password, nodeId: restaurant.nodeId, balance: (await call(restaurant, 'GET', '/getbalance')).json };
  await first.close();
  const file = JSON.parse(await readFile(`${dataDir}/node-sim-state.json`, 'utf8'));
  t.equal(file.version, 1);
  t.notOk('webhookUrls' in file.nodes[0], 'webhook URLs are configuration, not state');

  const second = await startNetwork({ dataDir, nodes, clock: new ManualClock(START + 1000) });
  t.teardown(() => second.close());
  const again = second.node('restaurant');
  t.same({ password: again.password, nodeId: again.nodeId, balance: (await call(again, 'GET', '/getbalance')).json }, before);
  t.match((await call(again, 'GET', `/payments/incoming/${invoice.paymentHash}`)).json, { isPaid: true, receivedSat: 1234, description: 'persisted' });
  t.equal((await call(second.node('customer'), 'POST', '/payinvoice', { invoice: invoice.serialized })).json.reason, 'this invoice has already been paid');
});

t.test('deterministic mode: the same seed gives the same keys and invoices', async (t) => {
  const run = async () => {
    const net = await startNetwork({ seed: 'fixed', startTimeMs: START });
    const created = await invoiceOf(net.nodes[0], { description: 'same', amountSat: 1 });
    const ids = net.nodes.map((n) => [n.nodeId, n.password]);
    await net.close();
    return { created, ids };
  };
  t.same(await run(), await run());
});

t.test('bad configuration is refused with a clear message', async (t) => {
  await t.rejects(startNetwork({ nodes: [{ name: 'a b' }] }), { message: 'invalid node name "a b"' });
  await t.rejects(startNetwork({ nodes: [{ name: 'a' }, { name: 'a' }] }), { message: 'duplicate node name "a"' });
  await t.rejects(startNetwork({ nodes: [{ name: 'a', channel: { capacitySat: 10, balanceSat: 5, inboundLiquiditySat: 1 } }] }), { message: 'node a: channel capacity must equal balance + inbound liquidity' });
});

t.test('without a data dir the network keeps its files in a directory of its own, removed on close', async (t) => {
  const net = await startNetwork({ nodes: [{ name: 'restaurant', port: 0 }], clock: new ManualClock(START) });
  const root = net.dataRoot;
  t.ok(existsSync(root), 'the directory exists while the network runs');
  await net.close();
  t.notOk(existsSync(root), 'closing removes it (the test suites left hundreds in /tmp)');
});
