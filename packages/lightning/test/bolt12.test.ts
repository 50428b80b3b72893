import t from 'tap';
import { DecodeError, decodeOffer, encodeOffer } from '../src/index.js';
import { ISSUER_ID, invalid, valid } from './fixtures/bolt12-spec-offers.js';

const TESTNET = '43497fd7f826957108f4a30fd9cec3aeba79972084e90ead01ea330900000000';
const BITCOIN = '6fe28c0ab6f1b372c1a6a246ae63f74f931e8365e15a089c68d6190000000000';

t.test('every valid offer of the spec decodes', async (t) => {
  for (const [name, offer] of Object.entries(valid)) {
    t.doesNotThrow(() => decodeOffer(offer), name);
  }
});

t.test('fields of the valid offers', async (t) => {
  t.same(decodeOffer(valid['Minimal bolt12 offer']), { offer: valid['Minimal bolt12 offer'], issuerId: ISSUER_ID, unknownTypes: [] });
  t.equal(decodeOffer(valid['with description (but no amount)']).description, 'Test vectors');
  t.same(decodeOffer(valid['for testnet']).chainHashes, [TESTNET]);
  t.same(decodeOffer(valid['for bitcoin or liquidv1']).chainHashes, ['1466275836220db2944ca059a3a10ef6fd2ea684b0688d2c379296888a206003', BITCOIN]);
  t.equal(decodeOffer(valid['with metadata']).metadata, '00'.repeat(16));
  t.equal(decodeOffer(valid['with amount']).amount, 10000);
  const currency = decodeOffer(valid['with currency']);
  t.same([currency.currency, currency.amount], ['USD', 10000]);
  t.equal(decodeOffer(valid['with expiry']).absoluteExpirySeconds, 0x7a4297d8);
  t.equal(decodeOffer(valid['with issuer']).issuer, 'https://bolt12.org BOLT12 industries');
  t.equal(decodeOffer(valid['with quantity']).quantityMax, 5);
  t.equal(decodeOffer(valid['with unlimited (or unknown) quantity']).quantityMax, 0);
  t.same(decodeOffer(valid['with feature']).featureBits, [99]);
  t.same(decodeOffer(valid['unknown odd field']).unknownTypes, [33]);
  t.same(decodeOffer(valid['unknown odd experimental field']).unknownTypes, [1000000033]);
});

t.test('blinded paths', async (t) => {
  const viaBob = decodeOffer(valid['with blinded path via Bob (0x424242...), path_key 020202...']);
  t.same(viaBob.paths, [
    {
      introductionNode: { publicKey: '0324653eac434488002cc06bbfb7f10fe18991e35f9fe4302dbea6d2353dc0ab1c' },
      blindingKey: '02'.repeat(33),
      blindedNodes: [
        { blindedPublicKey: '02'.repeat(33), encryptedPayload: '00'.repeat(16) },
        { blindedPublicKey: '02'.repeat(33), encryptedPayload: '11'.repeat(8) },
      ],
    },
  ]);
  const scid = decodeOffer(valid['same, with blinded path first_node_id using sciddir']);
  t.same(scid.paths?.[0].introductionNode, { shortChannelId: '0x0x42', isNode1: true });
  const noIssuer = decodeOffer(valid['with no issuer_id and blinded path via Bob (0x424242...), path_key 020202...']);
  t.equal(noIssuer.issuerId, undefined);
  const two = decodeOffer(valid['... and with second blinded path via 1x2x3 (direction 1), path_key 020202...']);
  t.same(two.paths?.[1].introductionNode, { shortChannelId: '1x2x3', isNode1: false });
  t.equal(two.paths?.[1].blindedNodes[1].encryptedPayload, '22'.repeat(8));
});

t.test('every malformed offer of the spec is rejected', async (t) => {
  for (const [name, offer] of Object.entries(invalid)) {
    t.throws(() => decodeOffer(offer), DecodeError, name);
  }
  t.throws(() => decodeOffer('lnbc1qqqq'), DecodeError, 'not an offer');
  t.throws(() => decodeOffer('lno1pgx9getnwss8vetrw3hhyuckyypwa3eyt44h6txtxquqh7lz5djge4afgfjn7k4rgrkuag0jsd5xvxG'), DecodeError, 'mixed case');
});

t.test('split with + and whitespace, upper case', async (t) => {
  const offer = valid['with description (but no amount)'];
  const split = `${offer.slice(0, 20)}+\n  ${offer.slice(20)}`;
  t.equal(decodeOffer(split).description, 'Test vectors');
  t.equal(decodeOffer(offer.toUpperCase()).issuerId, ISSUER_ID);
});

t.test('encode round-trips', async (t) => {
  const offer = encodeOffer({ chainHash: TESTNET, metadata: 'aa'.repeat(16), amountMsat: 21_000, description: 'Café', issuerId: ISSUER_ID });
  t.match(offer, /^lno1/);
  t.same(decodeOffer(offer), { offer, chainHashes: [TESTNET], metadata: 'aa'.repeat(16), amount: 21_000, description: 'Café', issuerId: ISSUER_ID, unknownTypes: [] });
  t.equal(encodeOffer({ issuerId: ISSUER_ID }), valid['Minimal bolt12 offer']);
  t.throws(() => encodeOffer({ issuerId: ISSUER_ID, amountMsat: 1 }));
});
