import t from 'tap';
import { NodeClient, NodeError, type PaymentResult } from '@comanda/lightning';
import { walletLogStream, walletPaymentStream } from '@comanda/domain';
import { REGTEST_ADDRESS, atSim, clientOf, simNetwork, walletApp } from './wallet-helpers.js';

t.test('access classes: waiter may create an invoice but not pay; admin needs the wallet unlocked', async (t) => {
  const { restaurant } = await simNetwork(t);
  const w = await walletApp(t, clientOf(restaurant));
  const waiter = await w.as('waiter');
  const admin = await w.as('admin');

  t.equal((await w.call('')('POST', '/wallet/createinvoice', { description: 'x', amountSat: 10 })).status, 401, 'anonymous');
  const invoice = await w.call(waiter)('POST', '/wallet/createinvoice', { description: 'Mesa 4', amountSat: 2100, externalId: 'table-4' });
  t.equal(invoice.status, 200);
  t.match(invoice.body, { amountSat: 2100, paymentHash: /^[0-9a-f]{64}$/, serialized: /^lnbcrt21u1/ });

  const pay = await w.call(waiter)('POST', '/wallet/payinvoice', { invoice: invoice.body.serialized });
  t.equal(pay.status, 403);
  t.same(pay.body, { message: 'Unauthorized API access' });
  t.equal((await w.call(waiter)('POST', '/wallet/auth', { password: 'wallet-pass' })).status, 403, 'waiter cannot unlock');

  const locked = await w.call(admin)('GET', '/wallet/getbalance');
  t.equal(locked.status, 401);
  t.same(locked.body, { message: 'Wallet authentication required' });

  const someoneElses = w.app.signToken({ sub: '00000000-0000-4000-8000-000000000000', typ: 'wallet' }, 300);
  t.equal((await w.call(`${admin}; walletAccessToken=${someoneElses}`)('GET', '/wallet/getbalance')).status, 401, "another user's wallet token");
  const accessAsWallet = admin.match(/accessToken=([^;]+)/)![1];
  t.equal((await w.call(`${admin}; walletAccessToken=${accessAsWallet}`)('GET', '/wallet/getbalance')).status, 401, 'an access token is not a wallet token');

  const cookie = await w.unlocked();
  t.equal((await w.call(cookie)('GET', '/wallet/getbalance')).status, 200);
  w.clock.now += 5 * 60_000 + 1000;
  const relogged = await w.login('admin', '1234');
  const walletPart = cookie.split('; ').filter((c) => c.startsWith('walletAccessToken=')).join('');
  t.equal((await w.call(`${relogged}; ${walletPart}`)('GET', '/wallet/getbalance')).status, 401, 'wallet token lives 5 minutes');
});

t.test('wallet auth: cookie, wrong password, lockout with Retry-After, logout clears the cookie', async (t) => {
  const w = await walletApp(t, undefined);
  const admin = await w.as('admin');
  const ok = await w.call(admin)('POST', '/wallet/auth', { password: 'wallet-pass' });
  t.equal(ok.status, 200);
  t.match(ok.body, { message: 'Login successful' });
  const setCookie = String(ok.headers['set-cookie']);
  t.match(setCookie, /walletAccessToken=[^;]+;.*Max-Age=300/);
  t.match(setCookie, /HttpOnly/);
  t.match(setCookie, /SameSite=Strict/);
  t.match(setCookie, /Path=\//);

  for (let i = 0; i < 5; i++) {
    const bad = await w.call(admin)('POST', '/wallet/auth', { password: 'guess' });
    t.equal(bad.status, 401);
    t.same(bad.body, { message: 'Invalid credentials' });
  }
  const locked = await w.call(admin)('POST', '/wallet/auth', { password: 'wallet-pass' });
  t.equal(locked.status, 429);
  t.equal(locked.headers['retry-after'], '60');
  w.clock.now += 61_000;
  const again = await w.login('admin', '1234');
  t.equal((await w.call(again)('POST', '/wallet/auth', { password: 'wallet-pass' })).status, 200, 'unlocked after the wait');
  t.equal((await w.call(again)('POST', '/wallet/auth', {})).status, 400, 'password required');

  const out = await w.call(again)('POST', '/wallet/logout');
  t.equal(out.status, 200);
  t.same(out.body, { status: 'ok' });
  t.match(String(out.headers['set-cookie']), /walletAccessToken=;.*Path=\//);

  const me = (await w.call(again)('GET', '/auth/me')).body;
  const log = (await w.store.readStream(walletLogStream(me.id))).map((e) => e.type);
  t.same(log.filter((x) => x === 'WalletUnlockFailed').length, 5);
  t.ok(log.includes('WalletUnlocked') && log.includes('WalletLocked'), 'every wallet action is audited');
  t.notMatch(JSON.stringify((await w.store.readStream(walletLogStream(me.id))).map((e) => e.data)), /wallet-pass|guess/, 'no password in the audit');
});

t.test('wallet logout revokes the wallet token on the server at once', async (t) => {
  const w = await walletApp(t, undefined);
  const cookie = await w.unlocked();
  const other = await w.unlocked();
  t.equal((await w.call(cookie)('POST', '/wallet/payonchain', {})).status, 400, 'unlocked: the request reaches validation');
  const out = await w.call(cookie)('POST', '/wallet/logout');
  t.equal(out.status, 200);
  // The client that kept its old cookie (or a stolen copy of it) is refused from now on.
  const after = await w.call(cookie)('POST', '/wallet/payonchain', {});
  t.equal(after.status, 401);
  t.same(after.body, { message: 'Wallet authentication required' });
  t.equal((await w.call(other)('GET', '/wallet/getbalance')).status, 401, "locking closes every unlock of this admin (another tablet's too)");
  const again = await w.unlocked();
  t.equal((await w.call(again)('POST', '/wallet/payonchain', {})).status, 400, 'unlocking again works');

  const me = (await w.call(again)('GET', '/auth/me')).body;
  const forged = w.app.signToken({ sub: me.id, typ: 'wallet' }, 300);
  const admin = await w.as('admin');
  t.equal((await w.call(`${admin}; walletAccessToken=${forged}`)('GET', '/wallet/getbalance')).status, 401, 'a wallet token naming no open unlock is refused');
});

t.test('node info, balance, invoices paid by a customer, incoming lists', async (t) => {
  const { restaurant, customer } = await simNetwork(t);
  const w = await walletApp(t, clientOf(restaurant));
  const cookie = await w.unlocked();
  const as = w.call(cookie);

  const info = await as('GET', '/wallet/getinfo');
  t.equal(info.status, 200);
  t.match(info.body, { nodeId: restaurant.nodeId, chain: 'regtest', blockHeight: Number, version: String });
  t.match(info.body.channels[0], { state: 'Normal', channelId: String, balanceSat: 50_000, inboundLiquiditySat: Number, capacitySat: Number, fundingTxId: String });
  t.same((await as('GET', '/wallet/getbalance')).body, { balanceSat: 50_000, feeCreditSat: 0 });

  for (const bad of [
    { description: 'x'.repeat(129), amountSat: 10 },
    { description: 'x', amountSat: 0 },
    { description: 'x', amountSat: 1.5 },
    { description: 'x', amountSat: 10, expirySeconds: 59 },
    { description: 'x', amountSat: 10, expirySeconds: 86_401 },
    { amountSat: 10 },
  ]) {
    const res = await as('POST', '/wallet/createinvoice', bad);
    t.equal(res.status, 400, JSON.stringify(bad).slice(0, 60));
    t.equal(res.body.message, 'Validation failed');
  }

  const paid = await as('POST', '/wallet/createinvoice', { description: 'Mesa 7', amountSat: 1500, externalId: 'order-7', expirySeconds: 600 });
  const unpaid = await as('POST', '/wallet/createinvoice', { description: 'Mesa 8', amountSat: 900 });
  const byCustomer = await atSim(customer, '/payinvoice', { invoice: paid.body.serialized });
  t.equal(byCustomer.status, 200, byCustomer.text);

  const incoming = await as('GET', '/wallet/payments/incoming');
  t.equal(incoming.status, 200);
  t.same(incoming.body.map((p: { paymentHash: string }) => p.paymentHash), [paid.body.paymentHash]);
  t.match(incoming.body[0], { amountSat: 1500, receivedSat: 1500, description: 'Mesa 7', externalId: 'order-7', createdAt: Number, completedAt: Number, status: 'RECEIVED' });
  const all = await as('GET', '/wallet/payments/incoming?all=true');
  t.match(all.body.find((p: { paymentHash: string }) => p.paymentHash === unpaid.body.paymentHash), { status: 'PENDING', receivedSat: 0 });
  t.equal((await as('GET', '/wallet/payments/incoming?externalId=order-7&all=true')).body.length, 1);
  t.equal((await as('GET', '/wallet/payments/incoming?limit=0')).status, 400);
  t.equal((await as('GET', '/wallet/payments/incoming?offset=-1')).status, 400);
  t.match((await as('GET', `/wallet/payments/incoming/${paid.body.paymentHash}`)).body, { paymentHash: paid.body.paymentHash, status: 'RECEIVED' });
  const malformed = await as('GET', '/wallet/payments/incoming/abc');
  t.equal(malformed.status, 400);
  t.equal(malformed.body, 'Missing or malformed ID');
  t.equal((await as('GET', `/wallet/payments/incoming/${'0'.repeat(64)}`)).status, 404, 'unknown payment');

  const me = (await as('GET', '/auth/me')).body;
  const log = await w.store.readStream(walletLogStream(me.id));
  t.match(log.find((e) => e.type === 'WalletInvoiceCreated')!.data, { userId: me.id, paymentHash: paid.body.paymentHash, amountSat: 1500, externalId: 'order-7' });
});

t.test('paying: invoice, idempotent retry, already paid, invalid, insufficient funds, outgoing lookups', async (t) => {
  const { restaurant, customer } = await simNetwork(t);
  const node = clientOf(restaurant);
  const w = await walletApp(t, node);
  const as = w.call(await w.unlocked());
  const customerInvoice = async (amountSat: number, extra: Record<string, string | number> = {}) =>
    JSON.parse((await atSim(customer, '/createinvoice', { description: 'tip', amountSat, ...extra })).text) as { serialized: string; paymentHash: string };

  const inv = await customerInvoice(1000);
  const key = { 'idempotency-key': 'pay-supplier-1' };
  const first = await as('POST', '/wallet/payinvoice', { invoice: inv.serialized }, key);
  t.equal(first.status, 200, JSON.stringify(first.body));
  t.match(first.body, { recipientAmountSat: 1000, routingFeeSat: 8, paymentId: /^[0-9a-f-]{36}$/, paymentHash: inv.paymentHash, paymentPreimage: /^[0-9a-f]{64}$/ });
  const retry = await as('POST', '/wallet/payinvoice', { invoice: inv.serialized }, key);
  t.same(retry.body, first.body, 'a retry answers the first outcome');
  t.same((await as('GET', '/wallet/getbalance')).body.balanceSat, 50_000 - 1008, 'paid once');
  t.equal((await as('POST', '/wallet/payinvoice', { invoice: inv.serialized, amountSat: 5 }, key)).status, 409, 'same key, other request');

  const twice = await as('POST', '/wallet/payinvoice', { invoice: inv.serialized }, { 'idempotency-key': 'pay-supplier-2' });
  t.equal(twice.status, 409);
  t.match(twice.body, { message: 'Invoice already paid', reason: /already been paid/ });

  const garbage = await as('POST', '/wallet/payinvoice', { invoice: 'lnbc1notaninvoice' });
  t.equal(garbage.status, 400);
  t.match(garbage.body, { message: 'Invalid payment request', reason: String });

  const big = await customerInvoice(900_000);
  const poor = await as('POST', '/wallet/payinvoice', { invoice: big.serialized });
  t.equal(poor.status, 402);
  t.match(poor.body, { message: 'Insufficient funds', reason: /not enough funds/ });

  const soon = await customerInvoice(100, { expirySeconds: 60 });
  // The node dates the invoice by the real clock, which may be ahead of the test's on a busy machine.
  w.clock.now = Math.max(w.clock.now, Date.now()) + 61_000;
  const as2 = w.call(await w.unlocked());
  const expired = await as2('POST', '/wallet/payinvoice', { invoice: soon.serialized });
  t.equal(expired.status, 410);
  t.match(expired.body, { message: 'Invoice expired', reason: String });

  const one = await as2('GET', `/wallet/payments/outgoing/${first.body.paymentId}`);
  t.match(one.body, { paymentId: first.body.paymentId, kind: 'lightning', paymentHash: inv.paymentHash, amountSat: 1000, feesSat: 8, status: 'SENT' });
  t.same((await as2('GET', `/wallet/payments/outgoingbyhash/${inv.paymentHash}`)).body, one.body);
  t.equal((await as2('GET', '/wallet/payments/outgoing/not-a-uuid')).status, 400);
  const list = await as2('GET', '/wallet/payments/outgoing');
  t.same(list.body.map((p: { paymentId: string }) => p.paymentId), [first.body.paymentId]);
  t.ok((await as2('GET', '/wallet/payments/outgoing?all=true')).body.some((p: { status: string }) => p.status === 'FAILED'), 'failed attempts with all=true');

  const me = (await as2('GET', '/auth/me')).body;
  const { idFromKey } = await import('@comanda/domain');
  const audit = await w.store.readStream(walletPaymentStream(idFromKey('walletpayment', `${me.id}:pay-supplier-1`)));
  t.same(audit.map((e) => e.type), ['WalletPaymentRequested', 'WalletPaymentSucceeded']);
  t.match(audit[0]!.data, { kind: 'invoice', by: me.id, paymentHash: inv.paymentHash, target: inv.serialized });
  t.notMatch(JSON.stringify(audit.map((e) => e.data)), first.body.paymentPreimage, 'the preimage is not stored');
});

t.test('a payment whose answer was lost is reconciled, not paid again', async (t) => {
  const { restaurant, customer } = await simNetwork(t);
  /** Pays, then loses the answer the first time, as a timeout would. */
  class LossyNode extends NodeClient {
    lost = 0;
    override payInvoice = async (p: { invoice: string; amountSat?: number }): Promise<PaymentResult> => {
      const result = await clientOf(restaurant).payInvoice(p);
      if (this.lost++ === 0) throw new NodeError('timeout', 0, 'no answer');
      return result;
    };
  }
  const node = new LossyNode({ url: restaurant.url, password: restaurant.password });
  const w = await walletApp(t, node);
  const as = w.call(await w.unlocked());
  const inv = JSON.parse((await atSim(customer, '/createinvoice', { description: 'beer', amountSat: 500 })).text);
  const key = { 'idempotency-key': 'beer-supplier' };
  const lost = await as('POST', '/wallet/payinvoice', { invoice: inv.serialized }, key);
  t.equal(lost.status, 503);
  t.same(lost.body, { message: 'Lightning node unavailable' });
  const retry = await as('POST', '/wallet/payinvoice', { invoice: inv.serialized }, key);
  t.equal(retry.status, 200);
  t.match(retry.body, { paymentHash: inv.paymentHash, recipientAmountSat: 500, paymentPreimage: /^[0-9a-f]{64}$/ });
  t.equal(node.lost, 1, 'the node was asked to pay once');
  t.equal((await as('GET', '/wallet/getbalance')).body.balanceSat, 50_000 - 500 - 6);
});

t.test('offers, on-chain sends and fee bumps', async (t) => {
  const { restaurant, customer } = await simNetwork(t);
  const w = await walletApp(t, clientOf(restaurant));
  const as = w.call(await w.unlocked());
  const offer = (await atSim(customer, '/createoffer', { description: 'coffee' })).text;
  const paid = await as('POST', '/wallet/payoffer', { offer, amountSat: 2000, message: 'gracias' });
  t.equal(paid.status, 200, JSON.stringify(paid.body));
  t.match(paid.body, { recipientAmountSat: 2000, routingFeeSat: 12, paymentId: String, paymentHash: /^[0-9a-f]{64}$/, paymentPreimage: /^[0-9a-f]{64}$/ });
  const badOffer = await as('POST', '/wallet/payoffer', { offer: 'lno1garbage', amountSat: 10 });
  t.equal(badOffer.status, 400, "the node's 4xx becomes 400 with its text");
  t.match(badOffer.body.message, /offer/);

  const sent = await as('POST', '/wallet/payonchain', { amountSat: 10_000, address: REGTEST_ADDRESS, feerateSatByte: 3 }, { 'idempotency-key': 'sweep-1' });
  t.equal(sent.status, 200, JSON.stringify(sent.body));
  t.match(sent.body, { txId: /^[0-9a-f]{64}$/, amountSat: 10_000, feesSat: 600 });
  t.same((await as('POST', '/wallet/payonchain', { amountSat: 10_000, address: REGTEST_ADDRESS, feerateSatByte: 3 }, { 'idempotency-key': 'sweep-1' })).body, sent.body, 'not sent twice');
  const invalid = await as('POST', '/wallet/payonchain', { amountSat: 1000, address: 'not-an-address', feerateSatByte: 3 });
  t.equal(invalid.status, 400);
  t.match(invalid.body, { reason: 'Invalid address' });
  t.equal((await as('POST', '/wallet/payonchain', { amountSat: 1000, address: REGTEST_ADDRESS })).status, 400, 'feerate required');

  const bumped = await w.app.inject({ method: 'POST', url: '/wallet/bumpfee', headers: { cookie: (await w.unlocked()), 'content-type': 'application/json' }, payload: '10' });
  t.equal(bumped.statusCode, 200, bumped.body);
  t.match(bumped.json(), { txId: /^[0-9a-f]{64}$/, newFeerateSatByte: 10, additionalFeesSat: 10 * (200 + 150) - 600 });
  const notHigher = await as('POST', '/wallet/bumpfee', 5);
  t.equal(notHigher.status, 400);
  t.match(notHigher.body, { reason: /feerate must be higher/ });
  t.equal((await as('POST', '/wallet/bumpfee', { feerateSatByte: 5 })).status, 400, 'the body is a bare integer');
  t.equal((await as('POST', '/wallet/bumpfee', 0)).status, 400);
});

t.test('node failures: down → 503, refusing our password → 502, no node configured → 503', async (t) => {
  const { restaurant } = await simNetwork(t);
  const down = await walletApp(t, new NodeClient({ url: 'http://127.0.0.1:1', password: 'x', timeoutMs: 500 }));
  const asDown = down.call(await down.unlocked());
  for (const [method, url, body] of [['GET', '/wallet/getinfo'], ['GET', '/wallet/getbalance'], ['GET', '/wallet/payments/outgoing'], ['POST', '/wallet/createinvoice', { description: 'x', amountSat: 5 }]] as const) {
    const res = await asDown(method, url, body);
    t.equal(res.status, 503, url);
    t.same(res.body, { message: 'Lightning node unavailable' });
  }
  const refusing = await walletApp(t, clientOf(restaurant, 'wrong-password'));
  const asRefused = refusing.call(await refusing.unlocked());
  const refused = await asRefused('GET', '/wallet/getbalance');
  t.equal(refused.status, 502);
  t.notMatch(JSON.stringify(refused.body), /wrong-password|Invalid authentication/, 'no credentials or node texts leak');
  const none = await walletApp(t, undefined);
  t.equal((await none.call(await none.unlocked())('GET', '/wallet/getinfo')).status, 503);
});
