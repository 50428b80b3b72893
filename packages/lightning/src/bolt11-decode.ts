import { bech32 } from '@scure/base';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { parseBolt11Amount } from './amount.js';
import { chainByBolt11Prefix } from './chains.js';
import { DecodeError, fail } from './errors.js';
import { bitsFromWords, unknownRequiredBits } from './features.js';
import { SIGNATURE_WORDS, TAG, TIMESTAMP_WORDS, type Bolt11Invoice, type RouteHintHop } from './bolt11.js';
import { wordsToBytes, wordsToBytesPadded, wordsToInt } from './words.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes and verifies a BOLT11 invoice. Throws {@link DecodeError} for a bad checksum, an unknown
 * chain, a malformed field, an unknown required feature or a signature that does not verify.
 */
export function decodeBolt11(input: string): Bolt11Invoice {
  const text = input.trim().replace(/^lightning:/i, '');
  let decoded: { prefix: string; words: number[] };
  try {
    decoded = bech32.decode(text as `${string}1${string}`, false);
  } catch (error) {
    throw new DecodeError(`invalid bech32 string: ${(error as Error).message}`);
  }
  const { chain, amountMsat } = parseHrp(decoded.prefix);
  const words = decoded.words;
  if (words.length < TIMESTAMP_WORDS + SIGNATURE_WORDS) fail('invoice is too short');
  const dataWords = words.slice(0, words.length - SIGNATURE_WORDS);
  const signature = wordsToBytes(words.slice(-SIGNATURE_WORDS), 'signature');
  const fields = parseTaggedFields(dataWords.slice(TIMESTAMP_WORDS));
  if (fields.paymentHash === undefined) fail('invoice has no payment hash');
  const unknownRequired = unknownRequiredBits(fields.featureBits);
  if (unknownRequired.length > 0) fail(`unknown required feature ${unknownRequired.join(',')}`);
  const messageHash = sha256(concatBytes(utf8ToBytes(decoded.prefix), wordsToBytesPadded(dataWords)));
  const payeeNodeId = checkSignature(signature, messageHash, fields.payeeNodeId);
  const { paymentHash, fallbackAddresses, routeHints, featureBits, payeeNodeId: _declared, ...optional } = fields;
  return {
    paymentRequest: text.toLowerCase(),
    chain,
    ...(amountMsat === undefined ? {} : { amountMsat }),
    timestampSeconds: wordsToInt(dataWords.slice(0, TIMESTAMP_WORDS), 'timestamp'),
    paymentHash,
    ...withoutUndefined(optional),
    fallbackAddresses,
    routeHints,
    featureBits,
    payeeNodeId,
  };
}

function parseHrp(prefix: string): { chain: Bolt11Invoice['chain']; amountMsat?: number } {
  const match = /^ln(bcrt|bc|tbs|tb)(.*)$/.exec(prefix);
  const chain = match ? chainByBolt11Prefix(match[1]) : undefined;
  if (!match || !chain) fail(`unknown invoice prefix ${prefix}`);
  return match[2] === '' ? { chain: chain.name } : { chain: chain.name, amountMsat: parseBolt11Amount(match[2]) };
}

type OptionalField = 'paymentHash' | 'paymentSecret' | 'description' | 'descriptionHash' | 'expirySeconds' | 'minFinalCltvExpiryDelta' | 'paymentMetadata' | 'payeeNodeId';
type TaggedFields = Partial<Pick<Bolt11Invoice, OptionalField>> & Pick<Bolt11Invoice, 'fallbackAddresses' | 'routeHints' | 'featureBits'>;

// The first well-formed field of a kind wins; fields of a known kind but unexpected length are skipped,
// as the spec requires of readers.
function parseTaggedFields(words: number[]): TaggedFields {
  const fields: TaggedFields = { fallbackAddresses: [], routeHints: [], featureBits: [] };
  let i = 0;
  while (i < words.length) {
    if (i + 3 > words.length) fail('truncated tagged field');
    const tag = words[i];
    const length = words[i + 1] * 32 + words[i + 2];
    const data = words.slice(i + 3, i + 3 + length);
    if (data.length < length) fail('truncated tagged field');
    i += 3 + length;
    readField(fields, tag, data);
  }
  return fields;
}

function readField(fields: TaggedFields, tag: number, data: number[]): void {
  const hash32 = (): string | undefined => (data.length === 52 ? bytesToHex(wordsToBytes(data, 'hash field')) : undefined);
  switch (tag) {
    case TAG.paymentHash:
      fields.paymentHash ??= hash32();
      return;
    case TAG.paymentSecret:
      fields.paymentSecret ??= hash32();
      return;
    case TAG.descriptionHash:
      fields.descriptionHash ??= hash32();
      return;
    case TAG.payeeNodeId:
      if (data.length === 53) fields.payeeNodeId ??= bytesToHex(wordsToBytes(data, 'node id'));
      return;
    case TAG.description:
      if (fields.description === undefined) {
        try {
          fields.description = utf8.decode(wordsToBytes(data, 'description'));
        } catch (error) {
          if (error instanceof DecodeError) throw error;
          fail('description is not valid UTF-8');
        }
      }
      return;
    case TAG.expiry:
      fields.expirySeconds ??= wordsToInt(data, 'expiry');
      return;
    case TAG.minFinalCltvExpiry:
      fields.minFinalCltvExpiryDelta ??= wordsToInt(data, 'min_final_cltv_expiry');
      return;
    case TAG.paymentMetadata:
      fields.paymentMetadata ??= bytesToHex(wordsToBytes(data, 'payment metadata'));
      return;
    case TAG.features:
      if (fields.featureBits.length === 0) fields.featureBits = bitsFromWords(data);
      return;
    case TAG.fallback:
      if (data.length > 0 && data[0] <= 18) {
        fields.fallbackAddresses.push({ version: data[0], program: bytesToHex(wordsToBytesPadded(data.slice(1)).slice(0, Math.floor(((data.length - 1) * 5) / 8))) });
      }
      return;
    case TAG.routeHint:
      fields.routeHints.push(parseRouteHint(wordsToBytesPadded(data).slice(0, Math.floor((data.length * 5) / 8))));
      return;
    default:
      return;
  }
}

const HOP_BYTES = 33 + 8 + 4 + 4 + 2;

function parseRouteHint(bytes: Uint8Array): RouteHintHop[] {
  if (bytes.length === 0 || bytes.length % HOP_BYTES !== 0) fail('invalid route hint length');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hops: RouteHintHop[] = [];
  for (let at = 0; at < bytes.length; at += HOP_BYTES) {
    const scid = view.getBigUint64(at + 33);
    hops.push({
      nodeId: bytesToHex(bytes.slice(at, at + 33)),
      shortChannelId: `${scid >> 40n}x${(scid >> 16n) & 0xffffffn}x${scid & 0xffffn}`,
      feeBaseMsat: view.getUint32(at + 41),
      feeProportionalMillionths: view.getUint32(at + 45),
      cltvExpiryDelta: view.getUint16(at + 49),
    });
  }
  return hops;
}

function checkSignature(signature: Uint8Array, messageHash: Uint8Array, declaredNodeId: string | undefined): string {
  const recovery = signature[64];
  if (recovery > 3) fail('invalid signature recovery id');
  if (declaredNodeId !== undefined) {
    let valid = false;
    try {
      valid = secp256k1.verify(signature.slice(0, 64), messageHash, hexToBytes(declaredNodeId), { prehash: false, lowS: false });
    } catch {
      valid = false;
    }
    if (!valid) fail('invalid signature');
    return declaredNodeId;
  }
  try {
    const recovered = concatBytes(Uint8Array.of(recovery), signature.slice(0, 64));
    return bytesToHex(secp256k1.recoverPublicKey(recovered, messageHash, { prehash: false }));
  } catch {
    fail('invalid signature: public key is not recoverable');
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
