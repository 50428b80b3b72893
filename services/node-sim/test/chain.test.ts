import t from 'tap';
import { readFile } from 'node:fs/promises';
import { ONCHAIN_TEXT } from '../src/index.js';
import { REGTEST_ADDRESS, call, harness, invoiceOf } from './helpers.js';

t.test('receiving beyond inbound liquidity buys liquidity; small amounts become fee credit', async (t) => {
  const { restaurant, customer } = await harness(t, {
    autoLiquiditySat: 100_000,
    nodes: [
      { name: 'restaurant', channel: null },
      { name: 'customer', channel: { balanceSat: 1_000_000, inboundLiquiditySat: 0 } },
    ],
  });
  t.equal((await call(restaurant, 'GET', '/getlnaddress')).text, 'must have one channel');
  // 100k liquidity costs 2 sat/vB × 300 vB + 1 % = 600 + 1000 sat: 500 sat cannot pay for it.
  const small = await invoiceOf(restaurant, { description: 'small', amountSat: 500 });
  t.equal((await call(customer, 'POST', '/payinvoice', { invoice: small.serialized })).json.recipientAmountSat, 500);
  t.same((await call(restaurant, 'GET', '/getbalance')).json, { balanceSat: 0, feeCreditSat: 500 });
  t.match((await call(restaurant, 'GET', `/payments/incoming/${small.paymentHash}`)).json, { isPaid: true, receivedSat: 500 });

  const big = await invoiceOf(restaurant, { description: 'big', amountSat: 20_000 });
  await call(customer, 'POST', '/payinvoice', { invoice: big.serialized });
  // Fee 1600 sat: 500 from the fee credit, 1100 from the payment.
  t.same((await call(restaurant, 'GET', '/getbalance')).json, { balanceSat: 18_900, feeCreditSat: 0 });
  const [liquidity] = (await call(restaurant, 'GET', '/payments/outgoing')).json;
  t.match(liquidity, { subType: 'auto_liquidity', isPaid: true, sent: 1600, fees: 1_600_000 });
  t.match(liquidity.txId, /^[0-9a-f]{64}$/);
  t.match((await call(restaurant, 'GET', '/getinfo')).json.channels, [{ state: 'Normal', balanceSat: 18_900, inboundLiquiditySat: 81_100, capacitySat: 100_000 }]);

  const exported = await call(restaurant, 'POST', '/export');
  const path = /payment history has been exported to (.+)$/.exec(exported.text)?.[1] ?? '';
  const rows = (await readFile(path, 'utf8')).trim().split('\r\n');
  t.equal(rows[0], 'date,id,type,amount_msat,fee_credit_msat,mining_fee_sat,service_fee_msat,payment_hash,tx_id');
  const cells = rows.slice(1).map((r) => r.split(','));
  t.same(cells.map((c) => c[2]), ['lightning_received', 'lightning_received', 'liquidity_purchase']);
  const sum = (i: number) => cells.reduce((s, c) => s + Number(c[i]), 0);
  t.equal(sum(3), 18_900_000, 'amount_msat sums to the balance');
  t.equal(sum(4), 0, 'fee_credit_msat sums to the fee credit');
});

t.test('sendtoaddress, bumpfee, closechannel and the chain', async (t) => {
  const { customer, net } = await harness(t);
  const bad = [
    [{}, 'Request parameter amountSat is missing'],
    [{ amountSat: 1000 }, 'Request parameter address is missing'],
    [{ amountSat: 1000, address: REGTEST_ADDRESS }, 'Request parameter feerateSatByte is missing'],
    [{ amountSat: 1000, address: REGTEST_ADDRESS, feerateSatByte: 0 }, 'Request parameter feerateSatByte must be at least 1'],
  ] as const;
  for (const [fields, message] of bad) t.same([(await call(customer, 'POST', '/sendtoaddress', fields)).status, (await call(customer, 'POST', '/sendtoaddress', fields)).text], [400, message]);
  t.equal((await call(customer, 'POST', '/sendtoaddress', { amountSat: 1000, address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', feerateSatByte: 5 })).text, ONCHAIN_TEXT.invalidAddress, 'mainnet address on regtest');
  t.equal((await call(customer, 'POST', '/sendtoaddress', { amountSat: 2_000_000, address: REGTEST_ADDRESS, feerateSatByte: 5 })).text, ONCHAIN_TEXT.insufficientFunds);
  const spliceTx = (await call(customer, 'POST', '/sendtoaddress', { amountSat: 100_000, address: REGTEST_ADDRESS, feerateSatByte: 5 })).text;
  t.match(spliceTx, /^[0-9a-f]{64}$/);
  t.match((await call(customer, 'GET', '/getinfo')).json.channels, [{ state: 'Normal', balanceSat: 899_000, inboundLiquiditySat: 1_000_000, capacitySat: 1_899_000 }], 'fee 5 × 200 vB; the channel stays open');
  t.equal((await call(customer, 'POST', '/bumpfee', { feerateSatByte: 3 })).text, ONCHAIN_TEXT.feerateTooLow);
  const child = (await call(customer, 'POST', '/bumpfee', { feerateSatByte: 10 })).text;
  t.match(child, /^[0-9a-f]{64}$/);
  t.equal((await call(customer, 'GET', '/getbalance')).json.balanceSat, 899_000 - (10 * 350 - 1000), 'child pays the package up to 10 sat/vB');
  t.same((await call(customer, 'GET', '/payments/outgoing')).json.map((p: { subType: string }) => p.subType), ['splice_cpfp', 'splice_out']);
  net.mineBlocks(1);
  t.equal(net.chain.confirmations(spliceTx), 1);
  t.equal((await call(customer, 'POST', '/bumpfee', { feerateSatByte: 10 })).text, ONCHAIN_TEXT.nothingToBump, 'confirmed transactions cannot be bumped');

  const channelId = (await call(customer, 'GET', '/getinfo')).json.channels[0].channelId;
  t.equal((await call(customer, 'POST', '/closechannel', { channelId: 'abc', address: REGTEST_ADDRESS, feerateSatByte: 2 })).text, "Request parameter channelId couldn't be parsed/converted to hex32");
  t.equal((await call(customer, 'POST', '/closechannel', { channelId: '00'.repeat(32), address: REGTEST_ADDRESS, feerateSatByte: 2 })).text, ONCHAIN_TEXT.noChannel);
  t.equal((await call(customer, 'POST', '/closechannel', { channelId, address: 'nope', feerateSatByte: 2 })).text, ONCHAIN_TEXT.invalidAddress);
  const closing = (await call(customer, 'POST', '/closechannel', { channelId, address: REGTEST_ADDRESS, feerateSatByte: 2 })).text;
  t.match(closing, /^[0-9a-f]{64}$/);
  t.match((await call(customer, 'GET', '/getinfo')).json.channels, [{ state: 'Closing', balanceSat: 0 }]);
  t.same((await call(customer, 'GET', '/getbalance')).json, { balanceSat: 0, feeCreditSat: 0 });
  t.equal((await call(customer, 'POST', '/sendtoaddress', { amountSat: 1000, address: REGTEST_ADDRESS, feerateSatByte: 1 })).text, ONCHAIN_TEXT.noChannel);
  net.mineBlocks(1);
  t.same((await call(customer, 'GET', '/getinfo')).json.channels, [], 'the channel is gone once the close confirms');
});
