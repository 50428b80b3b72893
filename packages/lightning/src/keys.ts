import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';

// secp256k1 operations a Lightning wallet needs beyond invoices: node ids and LNURL-auth signatures.
// Keys and signatures are hex.

export function publicKeyOf(privateKeyHex: string): string {
  return bytesToHex(secp256k1.getPublicKey(hexToBytes(privateKeyHex), true));
}

/** DER ECDSA signature of a 32-byte message, not hashed again (LUD-04 signs k1 itself). */
export function signDigestDer(digestHex: string, privateKeyHex: string): string {
  return bytesToHex(secp256k1.sign(hexToBytes(digestHex), hexToBytes(privateKeyHex), { prehash: false, format: 'der' }));
}

export function verifyDigestDer(signatureHex: string, digestHex: string, publicKeyHex: string): boolean {
  try {
    return secp256k1.verify(hexToBytes(signatureHex), hexToBytes(digestHex), hexToBytes(publicKeyHex), { prehash: false, format: 'der', lowS: false });
  } catch {
    return false;
  }
}

/** Whether the hex is a usable private key (non-zero, below the curve order). */
export function isValidPrivateKey(privateKeyHex: string): boolean {
  try {
    return secp256k1.utils.isValidSecretKey(hexToBytes(privateKeyHex));
  } catch {
    return false;
  }
}
