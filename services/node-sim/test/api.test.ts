import t from 'tap';
import { decodeBolt11, decodeOffer } from '@comanda/lightning';
import { NODE_VERSION } from '../src/index.js';
import { valid as specOffers } from '../../../packages/lightning/test/fixtures/bolt12-spec-offers.js';
import { call, harness, invoiceOf, START } from './helpers.js';

const UNAUTHORIZED = 'Invalid authentication (use basic auth with the http password set in phoenix.conf)';
const FULL_ACCESS = ['/payinvoice', '/payoffer', '/paylnaddress', '/lnurlpay', '/lnurlauth', '/sendtoaddress', '/closechannel', '/bumpfee', '/export'];

t.test('authentication, unknown paths and wrong methods', async (t) => {
  const { restaurant } = await harness(t);
  for (const password of [null, 'wrong', '']) {
    const r = await call(restaurant, 'GET', '/getinfo', {}, password);
    t.same([r.status, r.text], [401, UNAUTHORIZED], `password ${password}`);
  }
  const userIgnored = await fetch(`${restaurant.url}/getinfo`, { headers: { authorization: `Basic ${Buffer.from(`anyone:${restaurant.password}`).toString('base64')}` } });
  t.equal(userIgnored.status, 200, 'the user name is ignored');
  const notFound = await call(restaurant, 'GET', '/nothing');
  t.same([notFound.status, notFound.text], [404, 'Unknown endpoint (check api doc)']);
  for (const [method, path] of [['POST', '/getinfo'], ['GET', '/createinvoice'], ['DELETE', '/payments/incoming'], ['POST', '/websocket']]) {
    const r = await call(restaurant, method, path);
    t.same([r.status, r.text], [405, 'Invalid http method (use the correct GET/POST)'], `${method} ${path}`);
  }
  t.match((await call(restaurant, 'GET', '/getinfo')).contentType, 'application/json; charset=UTF-8');
});

t.test('the limited password: refused exactly on the full-access endpoints', async (t) => {
  const { restaurant } = await harness(t);
  for (const path of FULL_ACCESS) {
    const r = await call(restaurant, 'POST', path, {}, restaurant.limitedPassword);
    t.same([r.status, r.text], [401, UNAUTHORIZED], path);
  }
  t.equal((await call(restaurant, 'GET', '/getinfo', {}, restaurant.limitedPassword)).status, 200);
  t.equal((await call(restaurant, 'POST', '/createinvoice', { description: 'x' }, restaurant.limitedPassword)).status, 200);
  t.equal((await call(restaurant, 'GET', '/payments/incoming', {}, restaurant.limitedPassword)).status, 200);
  t.equal((await call(restaurant, 'POST', '/lnurlwithdraw', {}, restaurant.limitedPassword)).text, 'Request parameter lnurl is missing', 'lnurlwithdraw is not full-access');
});

t.test('getinfo, getbalance, listchannels, estimateliquidityfees', async (t) => {
  const { restaurant, net } = await harness(t);
  const info = (await call(restaurant, 'GET', '/getinfo')).json;
  t.same(Object.keys(info), ['nodeId', 'channels', 'chain', 'blockHeight', 'version']);
  t.match(info, { nodeId: restaurant.nodeId, chain: 'regtest', blockHeight: 100, version: NODE_VERSION });
  t.match(info.channels, [{ state: 'Normal', balanceSat: 50_000, inboundLiquiditySat: 2_000_000, capacitySat: 2_050_000 }]);
  t.match(info.channels[0].channelId, /^[0-9a-f]{64}$/);
  net.mineBlocks(3);
  t.equal((await call(restaurant, 'GET', '/getinfo')).json.blockHeight, 103);
  t.same((await call(restaurant, 'GET', '/getbalance')).json, { balanceSat: 50_000, feeCreditSat: 0 });
  const [channel] = (await call(restaurant, 'GET', '/listchannels')).json;
  t.match(channel, { type: 'Normal', commitments: { params: { channelId: info.channels[0].channelId, localParams: { nodeId: restaurant.nodeId }, remoteParams: {} } }, channelUpdate: { feeBaseMsat: 1000 } });
  t.same((await call(restaurant, 'GET', '/estimateliquidityfees', { amountSat: 100_000 })).json, { miningFeeSat: 600, serviceFeeSat: 1000 });
  t.same((await call(restaurant, 'POST', '/estimateliquidityfees', { amountSat: 100_000 })).json, { miningFeeSat: 600, serviceFeeSat: 1000 });
  t.equal((await call(restaurant, 'GET', '/estimateliquidityfees')).text, 'Request parameter amountSat is missing');
  t.equal((await call(restaurant, 'GET', '/estimateliquidityfees', { amountSat: 'lots' })).text, "Request parameter amountSat couldn't be parsed/converted to integer");
});

t.test('createinvoice: defaults, limits and errors', async (t) => {
  const { restaurant } = await harness(t);
  const created = await invoiceOf(restaurant, { description: 'Mesa 1', amountSat: 1500 });
  t.same(Object.keys(created), ['amountSat', 'paymentHash', 'serialized']);
  const decoded = decodeBolt11(created.serialized);
  t.match(decoded, { chain: 'regtest', amountMsat: 1_500_000, description: 'Mesa 1', expirySeconds: 3600, payeeNodeId: restaurant.nodeId, timestampSeconds: START / 1000, paymentHash: created.paymentHash });
  t.match(decoded.paymentSecret, /^[0-9a-f]{64}$/);
  t.same(decoded.featureBits, [8, 14, 17]);
  const hashed = await invoiceOf(restaurant, { descriptionHash: 'AB'.repeat(32), expirySeconds: 60 });
  t.same([decodeBolt11(hashed.serialized).descriptionHash, decodeBolt11(hashed.serialized).expirySeconds], ['ab'.repeat(32), 60]);
  const cases: [Record<string, string | number>, string][] = [
    [{}, 'Must provide either a description or descriptionHash'],
    [{ description: 'x', descriptionHash: 'ab'.repeat(32) }, 'Must provide either a description or descriptionHash'],
    [{ description: 'x'.repeat(129) }, 'Request parameter description is too long (max 128 characters)'],
    [{ descriptionHash: 'xyz' }, "Request parameter descriptionHash couldn't be parsed/converted to hex32"],
    [{ description: 'x', amountSat: '1.5' }, "Request parameter amountSat couldn't be parsed/converted to integer"],
    [{ description: 'x', amountSat: -1 }, 'Request parameter amountSat must be positive'],
    [{ description: 'x', amountSat: 9_007_199_254_741 }, 'Request parameter amountSat must be at most 9007199254740'],
    [{ description: 'x', expirySeconds: 0 }, 'Request parameter expirySeconds must be at least 1'],
    [{ description: 'x', webhookUrl: 'not a url' }, "Request parameter webhookUrl couldn't be parsed/converted to url"],
    [{ description: 'x', webhookUrl: 'ftp://x/y' }, "Request parameter webhookUrl couldn't be parsed/converted to url"],
  ];
  for (const [fields, message] of cases) {
    const r = await call(restaurant, 'POST', '/createinvoice', fields);
    t.same([r.status, r.text], [400, message], JSON.stringify(fields));
  }
  t.equal((await call(restaurant, 'POST', '/createinvoice', { description: 'x'.repeat(128) })).status, 200, '128 characters are fine');
});

t.test('multipart forms and non-form bodies', async (t) => {
  const { restaurant } = await harness(t);
  const form = new FormData();
  form.set('description', 'multipart ñ');
  form.set('amountSat', '42');
  const auth = { authorization: `Basic ${Buffer.from(`:${restaurant.password}`).toString('base64')}` };
  const r = await fetch(`${restaurant.url}/createinvoice`, { method: 'POST', headers: auth, body: form });
  const created = (await r.json()) as { serialized: string };
  t.equal(decodeBolt11(created.serialized).description, 'multipart ñ');
  const asJson = await fetch(`${restaurant.url}/createinvoice`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"description":"x"}' });
  t.same([asJson.status, await asJson.text()], [400, 'Must provide either a description or descriptionHash'], 'JSON bodies carry no parameters');
});

t.test('createoffer, getoffer, decodeoffer, getlnaddress', async (t) => {
  const { restaurant } = await harness(t);
  const r = await call(restaurant, 'POST', '/createoffer', { description: 'Menú del día', amountSat: 12 });
  t.match(r.contentType, 'text/plain');
  const offer = decodeOffer(r.text);
  t.match(offer, { issuerId: restaurant.nodeId, description: 'Menú del día', amount: 12_000 });
  t.equal(offer.absoluteExpirySeconds, undefined, 'offers do not expire');
  t.not((await call(restaurant, 'POST', '/createoffer', {})).text, (await call(restaurant, 'POST', '/createoffer', {})).text);
  t.equal((await call(restaurant, 'GET', '/getoffer')).text, (await call(restaurant, 'GET', '/getoffer')).text, 'getoffer: always the same');
  t.equal((await call(restaurant, 'POST', '/createoffer', { amountSat: 5 })).text, 'Must provide a description if an amount is specified');
  t.equal((await call(restaurant, 'POST', '/createoffer', { description: 'y'.repeat(129) })).status, 400);
  const decoded = (await call(restaurant, 'POST', '/decodeoffer', { offer: r.text })).json;
  t.match(decoded, { chain: 'regtest', amount: 12_000, description: 'Menú del día', issuerId: restaurant.nodeId });
  const spec = specOffers['with no issuer_id and blinded path via Bob (0x424242...), path_key 020202...'];
  const withPath = (await call(restaurant, 'POST', '/decodeoffer', { offer: spec })).json;
  t.match(withPath, { chain: 'mainnet', path: [{ introductionNodeId: { publicKey: /^0324653e/ }, blindingKey: '02'.repeat(33), blindedNodes: [{ encryptedPayload: '00'.repeat(16) }, {}] }] });
  t.equal((await call(restaurant, 'POST', '/decodeoffer', {})).text, 'Request parameter offer is missing');
  t.equal((await call(restaurant, 'POST', '/decodeoffer', { offer: 'lno1pg' })).text, "Request parameter offer couldn't be parsed/converted to offer");
  t.equal((await call(restaurant, 'GET', '/getlnaddress')).text, `₿restaurant@${new URL(restaurant.url).host}`);
});

t.test('decodeinvoice: spec example, checksum and signature errors', async (t) => {
  const { restaurant } = await harness(t);
  const coffee = 'lnbc25m1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5vdhkven9v5sxyetpdeessp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs9q5sqqqqqqqqqqqqqqqpqsq67gye39hfg3zd8rgc80k32tvy9xk2xunwm5lzexnvpx6fd77en8qaq424dxgt56cag2dpt359k3ssyhetktkpqh24jqnjyw6uqd08sgptq44qu';
  const decoded = (await call(restaurant, 'POST', '/decodeinvoice', { invoice: coffee })).json;
  t.same(decoded, {
    chain: 'mainnet',
    amount: 2_500_000_000,
    paymentHash: '0001020304050607080900010203040506070809000102030405060708090102',
    description: 'coffee beans',
    paymentSecret: '11'.repeat(32),
    extraHops: [],
    features: { activated: { var_onion_optin: 'Optional', payment_secret: 'Optional' }, unknown: [99] },
    timestampSeconds: 1496314658,
  });
  const hints = 'lnbc9678785340p1pwmna7lpp5gc3xfm08u9qy06djf8dfflhugl6p7lgza6dsjxq454gxhj9t7a0sd8dgfkx7cmtwd68yetpd5s9xar0wfjn5gpc8qhrsdfq24f5ggrxdaezqsnvda3kkum5wfjkzmfqf3jkgem9wgsyuctwdus9xgrcyqcjcgpzgfskx6eqf9hzqnteypzxz7fzypfhg6trddjhygrcyqezcgpzfysywmm5ypxxjemgw3hxjmn8yptk7untd9hxwg3q2d6xjcmtv4ezq7pqxgsxzmnyyqcjqmt0wfjjq6t5v4khxxqyjw5qcqp2rzjq0gxwkzc8w6323m55m4jyxcjwmy7stt9hwkwe2qxmy8zpsgg7jcuwz87fcqqeuqqqyqqqqlgqqqqn3qq9qn07ytgrxxzad9hc4xt3mawjjt8znfv8xzscs7007v9gh9j569lencxa8xeujzkxs0uamak9aln6ez02uunw6rd2ht2sqe4hz8thcdagpleym0j';
  t.same((await call(restaurant, 'POST', '/decodeinvoice', { invoice: hints })).json.extraHops, [
    [{ nodeId: '03d06758583bb5154774a6eb221b1276c9e82d65bbaceca806d90e20c108f4b1c7', shortChannelId: '589390x3312x1', feeProportionalMillionths: 2500, cltvExpiryDelta: 40, feeBase: 1000 }],
  ]);
  const badChecksum = coffee.slice(0, -1) + (coffee.endsWith('u') ? 'q' : 'u');
  const unrecoverable = 'lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpuaxtrnwngzn3kdzw5hydlzf03qdgm2hdq27cqv3agm2awhz5se903vruatfhq77w3ls4evs3ch9zw97j25emudupq63nyw24cg27h2rspk28uwq';
  for (const invoice of [badChecksum, unrecoverable, 'lnbc1', 'hello']) {
    const r = await call(restaurant, 'POST', '/decodeinvoice', { invoice });
    t.same([r.status, r.text], [400, "Request parameter invoice couldn't be parsed/converted to bolt11invoice"]);
  }
  t.equal((await call(restaurant, 'POST', '/decodeinvoice')).text, 'Request parameter invoice is missing');
});

t.test('payment lists: from, to, limit, offset, all, externalId; lookups', async (t) => {
  const { restaurant, customer, clock } = await harness(t);
  const hashes: string[] = [];
  for (let i = 0; i < 5; i++) {
    clock.advance(1000);
    const inv = await invoiceOf(restaurant, { description: `n${i}`, amountSat: 100 + i, externalId: i % 2 === 0 ? 'even' : 'odd' });
    hashes.push(inv.paymentHash);
    if (i < 4) await call(customer, 'POST', '/payinvoice', { invoice: inv.serialized });
  }
  const list = async (q: Record<string, string | number>) => (await call(restaurant, 'GET', '/payments/incoming', q)).json.map((p: { paymentHash: string }) => hashes.indexOf(p.paymentHash));
  t.same(await list({}), [3, 2, 1, 0], 'received payments, newest first');
  t.same(await list({ all: 'TRUE' }), [4, 3, 2, 1, 0], 'all: unpaid invoices too');
  t.same(await list({ all: 'yes' }), [3, 2, 1, 0], 'only "true" means true');
  t.same(await list({ limit: 2, offset: 1 }), [2, 1]);
  t.same(await list({ from: START + 2000, to: START + 3000 }), [2, 1], 'both ends inclusive');
  t.same(await list({ externalId: 'even', all: 'true' }), [4, 2, 0]);
  t.same(await list({ externalId: 'eve' }), [], 'externalId matches exactly');
  t.same(await list({ to: START }), []);
  t.equal((await call(restaurant, 'GET', '/payments/incoming', { limit: -1 })).text, 'Request parameter limit must be at least 0');
  t.equal((await call(restaurant, 'GET', '/payments/incoming', { from: 'yesterday' })).text, "Request parameter from couldn't be parsed/converted to integer");
  const outgoing = (await call(customer, 'GET', '/payments/outgoing', { limit: 3 })).json;
  t.same(outgoing.map((p: { paymentHash: string }) => hashes.indexOf(p.paymentHash)), [3, 2, 1]);
  t.same([(await call(restaurant, 'GET', `/payments/incoming/${'00'.repeat(32)}`)).status, (await call(restaurant, 'GET', `/payments/incoming/${'00'.repeat(32)}`)).text], [404, 'Not found']);
  t.equal((await call(restaurant, 'GET', '/payments/incoming/xyz')).text, "Request parameter paymentHash couldn't be parsed/converted to hex32");
  t.equal((await call(customer, 'GET', '/payments/outgoing/not-a-uuid')).text, "Request parameter paymentId couldn't be parsed/converted to uuid");
  t.equal((await call(customer, 'GET', '/payments/outgoing/00000000-0000-4000-8000-000000000000')).status, 404);
  t.equal((await call(customer, 'GET', `/payments/outgoingbyhash/${'00'.repeat(32)}`)).text, 'Not found');
});
