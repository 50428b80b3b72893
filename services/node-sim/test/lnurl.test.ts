import t from 'tap';
import { decodeLnurl, encodeLnurl } from '@comanda/lightning';
import { createLoginChallenge, createWithdrawLink, loggedInKey } from '../src/index.js';
import { call, harness } from './helpers.js';

t.test('paylnaddress resolves user@host through LUD-16 over HTTP and pays', async (t) => {
  const { restaurant, customer } = await harness(t);
  const address = (await call(restaurant, 'GET', '/getlnaddress')).text;
  const paid = await call(customer, 'POST', '/paylnaddress', { address, amountSat: 2_100, message: 'for the chef' });
  t.match(paid.json, { recipientAmountSat: 2_100, routingFeeSat: 12 });
  const [incoming] = (await call(restaurant, 'GET', '/payments/incoming')).json;
  t.match(incoming, { receivedSat: 2_100, payerNote: 'for the chef', paymentHash: paid.json.paymentHash });
  const plain = address.replace('₿', '');
  t.equal((await call(customer, 'POST', '/paylnaddress', { address: plain, amountSat: 10 })).json.recipientAmountSat, 10, 'without the ₿ prefix');
  t.equal((await call(customer, 'POST', '/paylnaddress', { address: 'nobody' })).text, "Request parameter address couldn't be parsed/converted to username@domain");
  const unknownUser = await call(customer, 'POST', '/paylnaddress', { address: plain.replace('restaurant', 'ghost'), amountSat: 10 });
  t.same([unknownUser.status, unknownUser.text], [400, `LNURL service ${new URL(restaurant.url).host} refused: unknown user`]);
  t.equal((await call(customer, 'POST', '/paylnaddress', { address: plain })).text, 'Request parameter amountSat is missing');
  const long = await call(customer, 'POST', '/paylnaddress', { address: plain, amountSat: 10, message: 'x'.repeat(129) });
  t.same([long.status, long.text], [400, 'comment is too long (max 128 characters)']);
  const unreachable = await call(customer, 'POST', '/paylnaddress', { address: 'someone@127.0.0.1:1', amountSat: 10 });
  t.equal(unreachable.status, 400);
  t.match(unreachable.text, /unreachable/);
});

t.test('lnurlpay with a bech32 LNURL and a LUD-17 URL', async (t) => {
  const { restaurant, customer } = await harness(t);
  const lnurl = encodeLnurl(`${restaurant.url}/.well-known/lnurlp/restaurant`);
  t.equal((await call(customer, 'POST', '/lnurlpay', { lnurl, amountSat: 50 })).json.recipientAmountSat, 50);
  const lud17 = `lnurlp://${new URL(restaurant.url).host}/.well-known/lnurlp/restaurant`;
  t.equal((await call(customer, 'POST', '/lnurlpay', { lnurl: lud17, amountSat: 60 })).json.recipientAmountSat, 60);
  t.equal((await call(customer, 'POST', '/lnurlpay', { lnurl: 'garbage', amountSat: 1 })).text, "Request parameter lnurl couldn't be parsed/converted to url");
  const tooMuch = await call(customer, 'POST', '/lnurlpay', { lnurl, amountSat: 5_000_000 });
  t.same([tooMuch.status, tooMuch.text], [400, 'amount must be between 1 and 1999890 sat'], 'at most the remaining inbound liquidity');
  const notPay = await call(customer, 'POST', '/lnurlpay', { lnurl: encodeLnurl(`${restaurant.url}/getinfo`), amountSat: 1 });
  t.equal(notPay.status, 400);
});

t.test('lnurlwithdraw (LUD-03): the wallet invoices the maximum and the service pays it once', async (t) => {
  const { restaurant, customer } = await harness(t);
  const link = createWithdrawLink(customer, { minWithdrawableSat: 100, maxWithdrawableSat: 5_000, description: 'refund' });
  t.match(decodeLnurl(link).href, `${customer.url}/lnurlw/`);
  const outcome = await call(restaurant, 'POST', '/lnurlwithdraw', { lnurl: link }, restaurant.limitedPassword);
  t.match(outcome.json, { minWithdrawable: 100_000, maxWithdrawable: 5_000_000, description: 'refund', k1: /^[0-9a-f]{64}$/, invoice: /^lnbcrt50u1/ });
  t.equal((await call(restaurant, 'GET', '/getbalance')).json.balanceSat, 55_000, 'received the withdrawal');
  const again = await call(restaurant, 'POST', '/lnurlwithdraw', { lnurl: link });
  t.same([again.status, again.text], [400, `LNURL service ${new URL(customer.url).host} refused: unknown or used withdraw link`]);
});

t.test('lnurlauth (LUD-04): one linking key per domain, verified by the service', async (t) => {
  const { restaurant, customer } = await harness(t);
  const first = createLoginChallenge(restaurant);
  const r = await call(customer, 'POST', '/lnurlauth', { lnurl: first.lnurl });
  t.same([r.status, r.text], [200, 'authentication success']);
  const key = loggedInKey(restaurant, first.k1);
  t.match(key, /^0[23][0-9a-f]{64}$/);
  const second = createLoginChallenge(restaurant);
  await call(customer, 'POST', '/lnurlauth', { lnurl: second.lnurl });
  t.equal(loggedInKey(restaurant, second.k1), key, 'same domain, same key');
  const third = createLoginChallenge(restaurant);
  await call(restaurant, 'POST', '/lnurlauth', { lnurl: third.lnurl });
  t.not(loggedInKey(restaurant, third.k1), key, 'another wallet, another key');
  const forged = await call(customer, 'POST', '/lnurlauth', { lnurl: encodeLnurl(`${restaurant.url}/lnurl-auth?tag=login&k1=${'00'.repeat(32)}`) });
  t.same([forged.status, forged.text], [400, `LNURL service ${new URL(restaurant.url).host} refused: unknown challenge`]);
  t.equal((await call(customer, 'POST', '/lnurlauth', { lnurl: encodeLnurl(`${restaurant.url}/lnurl-auth?tag=other`) })).text, 'not an LNURL-auth resource');
});
