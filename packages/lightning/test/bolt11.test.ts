import t from 'tap';
import { hexToBytes } from '@noble/hashes/utils.js';
import { bech32 } from '@scure/base';
import { DecodeError, decodeBolt11, encodeBolt11, invoiceExpiresAtMs, summarizeFeatures } from '../src/index.js';
import { CAKE_HASH, HASH_0001, SPEC_NODE_ID, SPEC_PRIVATE_KEY, invalid, valid } from './fixtures/bolt11-spec-examples.js';

t.test('every valid example of the spec decodes and recovers the signer', async (t) => {
  for (const [name, invoice] of Object.entries(valid)) {
    const decoded = decodeBolt11(invoice);
    t.equal(decoded.payeeNodeId, SPEC_NODE_ID, `${name}: payee`);
  }
});

t.test('donation: no amount, description, default expiry', async (t) => {
  const d = decodeBolt11(valid.donation);
  t.equal(d.chain, 'mainnet');
  t.equal(d.amountMsat, undefined);
  t.equal(d.timestampSeconds, 1496314658);
  t.equal(d.paymentHash, HASH_0001);
  t.equal(d.description, 'Please consider supporting this project');
  t.equal(d.expirySeconds, undefined);
  t.equal(invoiceExpiresAtMs(d), (1496314658 + 3600) * 1000);
});

t.test('amounts, expiry and UTF-8 descriptions', async (t) => {
  const coffee = decodeBolt11(valid.coffee);
  t.equal(coffee.amountMsat, 250_000_000);
  t.equal(coffee.description, '1 cup coffee');
  t.equal(coffee.expirySeconds, 60);
  t.equal(decodeBolt11(valid.nonsense).description, 'ナンセンス 1杯');
  const pico = decodeBolt11(valid.pico);
  t.equal(pico.amountMsat, 967_878_534);
  t.equal(pico.expirySeconds, 604800);
  t.equal(pico.minFinalCltvExpiryDelta, 10);
  t.same(pico.routeHints, [
    [{ nodeId: '03d06758583bb5154774a6eb221b1276c9e82d65bbaceca806d90e20c108f4b1c7', shortChannelId: '589390x3312x1', feeBaseMsat: 1000, feeProportionalMillionths: 2500, cltvExpiryDelta: 40 }],
  ]);
});

t.test('description hash, testnet and fallback addresses', async (t) => {
  const hashed = decodeBolt11(valid.hashed);
  t.equal(hashed.amountMsat, 2_000_000_000);
  t.equal(hashed.descriptionHash, CAKE_HASH);
  t.equal(hashed.description, undefined);
  const testnet = decodeBolt11(valid.testnetFallback);
  t.equal(testnet.chain, 'testnet3');
  t.same(testnet.fallbackAddresses, [{ version: 17, program: '3172b5654f6683c8fb146959d347ce303cae4ca7' }]);
  t.equal(decodeBolt11(valid.p2sh).fallbackAddresses[0].version, 18);
  t.same(decodeBolt11(valid.p2wpkh).fallbackAddresses, [{ version: 0, program: '751e76e8199196d454941c45d1b3a323f1433bd6' }]);
  t.equal(decodeBolt11(valid.p2wsh).fallbackAddresses[0].program.length, 64);
});

t.test('route hints with two hops', async (t) => {
  const d = decodeBolt11(valid.routeHints);
  t.same(d.routeHints[0].map((hop) => [hop.nodeId.slice(0, 4), hop.feeBaseMsat, hop.feeProportionalMillionths, hop.cltvExpiryDelta]), [
    ['029e', 1, 20, 3],
    ['039e', 2, 30, 4],
  ]);
  t.equal(d.routeHints[0][0].shortChannelId, '66051x263430x1800');
});

t.test('payment secret, features, upper case and ignored fields', async (t) => {
  const d = decodeBolt11(valid.features);
  t.equal(d.paymentSecret, '11'.repeat(32));
  t.same(d.featureBits, [9, 15, 99]);
  t.same(summarizeFeatures(d.featureBits), { activated: { var_onion_optin: 'Optional', payment_secret: 'Optional' }, unknown: [99] });
  t.same(decodeBolt11(valid.upperCase), d);
  const ignored = decodeBolt11(valid.ignoredFields);
  t.equal(ignored.paymentHash, HASH_0001);
  t.equal(ignored.paymentSecret, '11'.repeat(32));
  t.equal(ignored.descriptionHash, undefined);
  t.same(ignored.fallbackAddresses, []);
});

t.test('every invalid example of the spec is rejected', async (t) => {
  for (const [name, invoice] of Object.entries(invalid)) {
    t.throws(() => decodeBolt11(invoice), DecodeError, name);
  }
  t.throws(() => decodeBolt11(''), DecodeError);
  t.throws(() => decodeBolt11('not an invoice at all'), DecodeError);
});

t.test('encode then decode round-trips and is signed by the node key', async (t) => {
  const key = hexToBytes(SPEC_PRIVATE_KEY);
  const draft = {
    chain: 'regtest' as const,
    amountMsat: 123_456_789,
    timestampSeconds: 1_700_000_000,
    paymentHash: 'ab'.repeat(32),
    paymentSecret: 'cd'.repeat(32),
    description: 'Mesa 4 — 2 cafés',
    expirySeconds: 3600,
    minFinalCltvExpiryDelta: 144,
    featureBits: [8, 14, 17],
  };
  const invoice = encodeBolt11(draft, key);
  t.match(invoice, /^lnbcrt1234567890p1/);
  const d = decodeBolt11(invoice);
  t.equal(d.payeeNodeId, SPEC_NODE_ID);
  t.same(
    { chain: d.chain, amountMsat: d.amountMsat, paymentHash: d.paymentHash, paymentSecret: d.paymentSecret, description: d.description, expirySeconds: d.expirySeconds, minFinalCltvExpiryDelta: d.minFinalCltvExpiryDelta, featureBits: d.featureBits },
    { chain: 'regtest', amountMsat: 123_456_789, paymentHash: draft.paymentHash, paymentSecret: draft.paymentSecret, description: draft.description, expirySeconds: 3600, minFinalCltvExpiryDelta: 144, featureBits: [8, 14, 17] },
  );
  const hashed = decodeBolt11(encodeBolt11({ ...draft, chain: 'mainnet', amountMsat: 2_000_000_000, description: undefined, descriptionHash: CAKE_HASH }, key));
  t.equal(hashed.paymentRequest.slice(0, 9), 'lnbc20m1p');
  t.equal(hashed.descriptionHash, CAKE_HASH);
});

t.test('a tampered invoice with a correct checksum fails signature verification', async (t) => {
  const key = hexToBytes(SPEC_PRIVATE_KEY);
  const invoice = encodeBolt11({ chain: 'mainnet', timestampSeconds: 1_700_000_000, paymentHash: 'ab'.repeat(32), paymentSecret: 'cd'.repeat(32), description: 'x', includeNodeId: true }, key);
  t.equal(decodeBolt11(invoice).payeeNodeId, SPEC_NODE_ID);
  const { prefix, words } = bech32.decode(invoice as `${string}1${string}`, false);
  const tampered = [...words];
  tampered[10] ^= 1; // inside the payment hash
  t.throws(() => decodeBolt11(bech32.encode(prefix, tampered, false)), { message: 'invalid signature' });
  // Without an `n` field the tampered data still recovers a key, just not the signer's.
  const anonymous = encodeBolt11({ chain: 'mainnet', timestampSeconds: 1_700_000_000, paymentHash: 'ab'.repeat(32), paymentSecret: 'cd'.repeat(32), description: 'x' }, key);
  const plain = bech32.decode(anonymous as `${string}1${string}`, false);
  const changed = [...plain.words];
  changed[10] ^= 1;
  t.not(decodeBolt11(bech32.encode(plain.prefix, changed, false)).payeeNodeId, SPEC_NODE_ID);
});
