import t from 'tap';
import { applyReceive, planReceive, type Channel } from '../src/channel.js';
import { loadConfig } from '../src/config-load.js';
import { toCsv } from '../src/csv.js';
import { lightningFeeMsat, liquidityFees } from '../src/fees.js';
import { listIncoming } from '../src/lists.js';
import type { IncomingPayment } from '../src/records.js';
import { DEFAULT_NODES, ConfigError } from '../src/index.js';

t.test('lightning fee: 4 sat + 0.4 %, in integer msat', async (t) => {
  t.equal(lightningFeeMsat(10_000_000), 44_000);
  t.equal(lightningFeeMsat(1), 4000);
  t.equal(lightningFeeMsat(1_999), 4007);
  t.equal(lightningFeeMsat(2_100_000_000_000_000_000 / 1000), 4000 + 8_400_000_000_000_000 / 1000);
});

t.test('liquidity plans', async (t) => {
  const channel: Channel = { channelId: 'c', fundingTxId: 'f', shortChannelId: '1x1x0', state: 'Normal', balanceMsat: 1_000_000, inboundMsat: 5_000_000 };
  const policy = { autoLiquiditySat: 100_000, feerateSatByte: 1 };
  t.same(planReceive(channel, 0, 5_000_000, policy), { kind: 'direct' }, 'fits exactly');
  t.same(applyReceive(channel, 0, 5_000_000, { kind: 'direct' }, () => channel).channel, { ...channel, balanceMsat: 6_000_000, inboundMsat: 0 });
  t.same(planReceive(null, 0, 1_000_000, policy), { kind: 'fee_credit' }, 'no channel, and 1000 sat cannot pay 1300 sat of fees');
  t.same(liquidityFees(100_000, 1), { miningFeeSat: 300, serviceFeeSat: 1000 });
  const plan = planReceive(channel, 400_000, 60_000_000, policy);
  t.same(plan, { kind: 'purchase', liquiditySat: 100_000, miningFeeSat: 300, serviceFeeSat: 1000, fromFeeCreditMsat: 400_000, fromAmountMsat: 900_000 });
  const after = applyReceive(channel, 400_000, 60_000_000, plan, () => channel);
  t.same(after, { channel: { ...channel, balanceMsat: 1_000_000 + 60_000_000 - 900_000, inboundMsat: 5_000_000 + 100_000_000 - 60_000_000 + 900_000 }, feeCreditMsat: 0 });
  const closing = { ...channel, state: 'Closing' as const };
  t.equal(planReceive(closing, 0, 1000, policy).kind, 'fee_credit', 'a closing channel cannot receive');
});

t.test('incoming lists order by received time; all by creation time', async (t) => {
  const p = (hash: string, createdAt: number, completedAt?: number): IncomingPayment => ({ paymentHash: hash, preimage: '', origin: 'invoice', receivedMsat: 0, feesMsat: 0, createdAt, completedAt });
  const payments = [p('a', 1, 10), p('b', 2, 5), p('c', 3), p('d', 3, 5)];
  const q = { from: 0, to: 100, limit: 20, offset: 0, all: false };
  t.same(listIncoming(payments, q).map((x) => x.paymentHash), ['a', 'd', 'b'], 'ties: the later record first');
  t.same(listIncoming(payments, { ...q, all: true }).map((x) => x.paymentHash), ['d', 'c', 'b', 'a']);
  t.same(listIncoming(payments, { ...q, limit: 0 }), []);
});

t.test('CSV quoting and order', async (t) => {
  const csv = toCsv([
    { date: 2000, id: 'x,"y"', type: 'swap_out', amountMsat: -5, feeCreditMsat: 0, miningFeeSat: 1, serviceFeeMsat: 0 },
    { date: 1000, id: 'a', type: 'lightning_received', amountMsat: 7, feeCreditMsat: 0, miningFeeSat: 0, serviceFeeMsat: 0, paymentHash: 'h' },
  ]);
  t.equal(csv, 'date,id,type,amount_msat,fee_credit_msat,mining_fee_sat,service_fee_msat,payment_hash,tx_id\r\n1970-01-01T00:00:01.000Z,a,lightning_received,7,0,0,0,h,\r\n1970-01-01T00:00:02.000Z,"x,""y""",swap_out,-5,0,1,0,,\r\n');
});

t.test('configuration from the environment and a JSON file', async (t) => {
  const dir = t.testdir({ 'sim.json': JSON.stringify({ chain: 'testnet3', nodes: [{ name: 'bar-one', port: 9000 }] }) });
  const config = loadConfig({ NODE_SIM_CONFIG: `${dir}/sim.json`, NODE_SIM_BAR_ONE_PORT: '0', NODE_SIM_BAR_ONE_WEBHOOK_URLS: 'http://a/1, http://b/2', NODE_SIM_SEED: 's' });
  t.match(config, { chain: 'testnet3', seed: 's', nodes: [{ name: 'bar-one', port: 0, webhookUrls: ['http://a/1', 'http://b/2'] }] });
  t.same(loadConfig({}).nodes?.map((n) => [n.name, n.port]), DEFAULT_NODES.map((n) => [n.name, n.port]));
  t.throws(() => loadConfig({ NODE_SIM_CHAIN: 'dogecoin' }), ConfigError);
  t.throws(() => loadConfig({ NODE_SIM_CONFIG: `${dir}/missing.json` }), { message: /^NODE_SIM_CONFIG: cannot read/ });
  t.throws(() => loadConfig({ NODE_SIM_BLOCK_INTERVAL_MS: '-1' }), { message: 'NODE_SIM_BLOCK_INTERVAL_MS: expected a non-negative integer, got "-1"' });
});
