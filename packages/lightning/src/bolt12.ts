import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { fail } from './errors.js';
import { bitsFromBytes } from './features.js';
import { ByteReader, readTlvStream, readTu64, writeTlvStream, writeTu64, type TlvRecord } from './tlv.js';
import { readBolt12String, writeBolt12String } from './bolt12-string.js';

/** An onion-message hop of a blinded path. */
export interface BlindedHop {
  blindedPublicKey: string;
  encryptedPayload: string;
}

export interface BlindedPath {
  /** A node id, or a short channel id with the direction bit (`sciddir_or_pubkey`). */
  introductionNode: { publicKey: string } | { shortChannelId: string; isNode1: boolean };
  blindingKey: string;
  blindedNodes: BlindedHop[];
}

/** A decoded BOLT12 offer. Offers are unsigned; binary fields are lowercase hex. */
export interface Bolt12Offer {
  offer: string;
  chainHashes?: string[];
  metadata?: string;
  currency?: string;
  /** In msat when there is no currency, otherwise in the currency's minor unit. */
  amount?: number;
  description?: string;
  featureBits?: number[];
  absoluteExpirySeconds?: number;
  paths?: BlindedPath[];
  issuer?: string;
  /** Present with an empty value: any quantity. */
  quantityMax?: number;
  issuerId?: string;
  /** Odd types this codec does not know, kept so the offer can be inspected. */
  unknownTypes: number[];
}

const T = { chains: 2n, metadata: 4n, currency: 6n, amount: 8n, description: 10n, features: 12n, absoluteExpiry: 14n, paths: 16n, issuer: 18n, quantityMax: 20n, issuerId: 22n } as const;
const KNOWN = new Set<bigint>(Object.values(T));

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes an `lno1…` offer and applies the reader requirements of BOLT12. Throws DecodeError. */
export function decodeOffer(input: string): Bolt12Offer {
  const { hrp, bytes } = readBolt12String(input);
  if (hrp !== 'lno') fail(`not an offer: prefix ${hrp}`);
  const offer: Bolt12Offer = { offer: input.trim().toLowerCase().replace(/\+\s*/g, ''), unknownTypes: [] };
  for (const record of readTlvStream(bytes)) readRecord(offer, record);
  if (offer.amount !== undefined && offer.description === undefined) fail('offer with an amount has no description');
  if (offer.currency !== undefined && offer.amount === undefined) fail('offer with a currency has no amount');
  if (offer.issuerId === undefined && offer.paths === undefined) fail('offer has neither issuer_id nor paths');
  return offer;
}

function readRecord(offer: Bolt12Offer, { type, value }: TlvRecord): void {
  const inOfferRange = (type >= 1n && type <= 79n) || (type >= 1_000_000_000n && type <= 1_999_999_999n);
  if (!inOfferRange) fail(`type ${type} is not an offer field`);
  if (!KNOWN.has(type)) {
    if (type % 2n === 0n) fail(`unknown required type ${type}`);
    offer.unknownTypes.push(Number(type));
    return;
  }
  switch (type) {
    case T.chains:
      if (value.length === 0 || value.length % 32 !== 0) fail('invalid offer_chains length');
      offer.chainHashes = Array.from({ length: value.length / 32 }, (_, i) => bytesToHex(value.subarray(i * 32, i * 32 + 32)));
      return;
    case T.metadata:
      offer.metadata = bytesToHex(value);
      return;
    case T.currency:
      offer.currency = text(value, 'offer_currency');
      return;
    case T.amount:
      offer.amount = safe(readTu64(value, 'offer_amount'), 'offer_amount');
      return;
    case T.description:
      offer.description = text(value, 'offer_description');
      return;
    case T.features: {
      const bits = bitsFromBytes(value);
      // No offer feature is defined yet, so every even bit is an unknown requirement.
      if (bits.some((bit) => bit % 2 === 0)) fail('offer requires unknown features');
      offer.featureBits = bits;
      return;
    }
    case T.absoluteExpiry:
      offer.absoluteExpirySeconds = safe(readTu64(value, 'offer_absolute_expiry'), 'offer_absolute_expiry');
      return;
    case T.paths:
      offer.paths = readPaths(value);
      return;
    case T.issuer:
      offer.issuer = text(value, 'offer_issuer');
      return;
    case T.quantityMax:
      offer.quantityMax = safe(readTu64(value, 'offer_quantity_max'), 'offer_quantity_max');
      return;
    case T.issuerId:
      offer.issuerId = point(value, 'offer_issuer_id');
      return;
  }
}

function readPaths(value: Uint8Array): BlindedPath[] {
  const reader = new ByteReader(value);
  const paths: BlindedPath[] = [];
  while (reader.remaining > 0) {
    const firstByte = reader.take(1, 'blinded path')[0];
    const introductionNode =
      firstByte <= 1
        ? { shortChannelId: formatScid(reader.take(8, 'blinded path')), isNode1: firstByte === 0 }
        : { publicKey: point(concatBytes(Uint8Array.of(firstByte), reader.take(32, 'blinded path')), 'first_node_id') };
    const blindingKey = point(reader.take(33, 'blinded path'), 'path_key');
    const hopCount = reader.u8('blinded path');
    if (hopCount === 0) fail('blinded path has no hops');
    const blindedNodes: BlindedHop[] = [];
    for (let i = 0; i < hopCount; i++) {
      const blindedPublicKey = point(reader.take(33, 'onionmsg_hop'), 'blinded_node_id');
      const length = reader.u16('onionmsg_hop');
      blindedNodes.push({ blindedPublicKey, encryptedPayload: bytesToHex(reader.take(length, 'onionmsg_hop')) });
    }
    paths.push({ introductionNode, blindingKey, blindedNodes });
  }
  if (paths.length === 0) fail('offer_paths is empty');
  return paths;
}

function formatScid(bytes: Uint8Array): string {
  const scid = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0);
  return `${scid >> 40n}x${(scid >> 16n) & 0xffffffn}x${scid & 0xffffn}`;
}

function point(bytes: Uint8Array, what: string): string {
  const hex = bytesToHex(bytes);
  try {
    if (bytes.length !== 33) throw new Error();
    secp256k1.Point.fromHex(hex);
  } catch {
    fail(`invalid ${what}`);
  }
  return hex;
}

function text(bytes: Uint8Array, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    fail(`${what} is not valid UTF-8`);
  }
}

function safe(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) fail(`${what} is too large`);
  return Number(value);
}

/** What a node writes in an offer it issues. */
export interface OfferDraft {
  chainHash?: string;
  metadata?: string;
  amountMsat?: number;
  description?: string;
  issuer?: string;
  issuerId: string;
}

export function encodeOffer(draft: OfferDraft): string {
  if (draft.amountMsat !== undefined && draft.description === undefined) {
    throw new RangeError('an offer with an amount needs a description');
  }
  const records: TlvRecord[] = [{ type: T.issuerId, value: hexToBytes(draft.issuerId) }];
  if (draft.chainHash !== undefined) records.push({ type: T.chains, value: hexToBytes(draft.chainHash) });
  if (draft.metadata !== undefined) records.push({ type: T.metadata, value: hexToBytes(draft.metadata) });
  if (draft.amountMsat !== undefined) records.push({ type: T.amount, value: writeTu64(BigInt(draft.amountMsat)) });
  if (draft.description !== undefined) records.push({ type: T.description, value: utf8ToBytes(draft.description) });
  if (draft.issuer !== undefined) records.push({ type: T.issuer, value: utf8ToBytes(draft.issuer) });
  return writeBolt12String('lno', writeTlvStream(records));
}
