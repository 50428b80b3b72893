import { createHash, createHmac } from 'node:crypto';
import { isValidPrivateKey, publicKeyOf } from '@comanda/lightning';

// Keys a node derives from its node key, each under its own label so they never coincide.

export const publicKeyHex = publicKeyOf;

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function derive(privateKeyHex: string, label: string, data: string): string {
  const key = Buffer.concat([Buffer.from(privateKeyHex, 'hex'), Buffer.from(label, 'utf8')]);
  return createHmac('sha256', key).update(data, 'utf8').digest('hex');
}

/** Key a node uses as payer_key when paying an offer: stable per node and offer. */
export function payerKey(privateKeyHex: string, offer: string): string {
  return publicKeyOf(derive(privateKeyHex, 'bolt12-payer', offer));
}

/**
 * LUD-04 linking key for a service domain. The real node derives it from its seed and the domain
 * (LUD-05); the simulator uses HMAC-SHA256(node key ‖ label, domain), which has the same property:
 * one key per domain, the same one every time.
 */
export function linkingPrivateKey(privateKeyHex: string, domain: string): string {
  return derive(privateKeyHex, 'lnurl-auth', domain);
}

/** A private key from a seed string: 64 hex digits are taken as the key itself. */
export function privateKeyFromSeed(seed: string): string {
  const key = /^[0-9a-f]{64}$/i.test(seed) ? seed.toLowerCase() : sha256Hex(seed);
  if (!isValidPrivateKey(key)) throw new Error('the seed does not give a valid secp256k1 key');
  return key;
}

/** Payment hash of a preimage, both hex. */
export function paymentHashOf(preimageHex: string): string {
  return sha256Hex(Buffer.from(preimageHex, 'hex'));
}
