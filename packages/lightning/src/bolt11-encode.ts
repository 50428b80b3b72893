import { bech32 } from '@scure/base';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { formatBolt11Amount } from './amount.js';
import { chainByName, type ChainName } from './chains.js';
import { wordsFromBits } from './features.js';
import { TAG } from './bolt11.js';
import { bytesToWords, intToFixedWords, intToWords, wordsToBytesPadded } from './words.js';

/** What a node puts in an invoice it issues. Binary fields are hex. */
export interface Bolt11Draft {
  chain: ChainName;
  amountMsat?: number;
  timestampSeconds: number;
  paymentHash: string;
  paymentSecret: string;
  /** Exactly one of description and descriptionHash. */
  description?: string;
  descriptionHash?: string;
  expirySeconds?: number;
  minFinalCltvExpiryDelta?: number;
  paymentMetadata?: string;
  featureBits?: readonly number[];
  /** Write the `n` field so readers need not recover the key from the signature. */
  includeNodeId?: boolean;
}

/** Encodes a BOLT11 invoice and signs it with the node's private key. */
export function encodeBolt11(draft: Bolt11Draft, privateKey: Uint8Array): string {
  const chain = chainByName(draft.chain);
  if (!chain) throw new RangeError(`unknown chain ${draft.chain}`);
  if ((draft.description === undefined) === (draft.descriptionHash === undefined)) {
    throw new RangeError('an invoice needs exactly one of description and descriptionHash');
  }
  const prefix = `ln${chain.bolt11Prefix}${draft.amountMsat === undefined ? '' : formatBolt11Amount(draft.amountMsat)}`;
  const words = [
    ...intToFixedWords(draft.timestampSeconds, 7),
    ...field(TAG.paymentHash, bytesToWords(hexToBytes(draft.paymentHash))),
    ...field(TAG.paymentSecret, bytesToWords(hexToBytes(draft.paymentSecret))),
    ...(draft.description === undefined
      ? field(TAG.descriptionHash, bytesToWords(hexToBytes(draft.descriptionHash ?? '')))
      : field(TAG.description, bytesToWords(utf8ToBytes(draft.description)))),
    ...(draft.includeNodeId ? field(TAG.payeeNodeId, bytesToWords(secp256k1.getPublicKey(privateKey, true))) : []),
    ...(draft.expirySeconds === undefined ? [] : field(TAG.expiry, intToWords(draft.expirySeconds))),
    ...(draft.minFinalCltvExpiryDelta === undefined ? [] : field(TAG.minFinalCltvExpiry, intToWords(draft.minFinalCltvExpiryDelta))),
    ...(draft.paymentMetadata === undefined ? [] : field(TAG.paymentMetadata, bytesToWords(hexToBytes(draft.paymentMetadata)))),
    ...(draft.featureBits && draft.featureBits.length > 0 ? field(TAG.features, wordsFromBits(draft.featureBits)) : []),
  ];
  const messageHash = sha256(concatBytes(utf8ToBytes(prefix), wordsToBytesPadded(words)));
  // noble writes the recovery id first; BOLT11 wants it after r and s.
  const recovered = secp256k1.sign(messageHash, privateKey, { prehash: false, format: 'recovered' });
  const signature = concatBytes(recovered.slice(1), recovered.slice(0, 1));
  return bech32.encode(prefix, [...words, ...bytesToWords(signature)], false);
}

function field(tag: number, data: number[]): number[] {
  if (data.length >= 1024) throw new RangeError('tagged field too long');
  return [tag, data.length >> 5, data.length & 31, ...data];
}
