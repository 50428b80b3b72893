import { createHmac, timingSafeEqual } from 'node:crypto';

/** Lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the secret's UTF-8 bytes (not hex-decoded). */
export function signWebhook(body: string | Uint8Array, secret: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/** Constant-time check of an `X-Node-Signature` (or `X-Phoenix-Signature`) header value. */
export function verifyWebhookSignature(body: string | Uint8Array, secret: string, signatureHex: string): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(signatureHex)) return false;
  const expected = Buffer.from(signWebhook(body, secret), 'hex');
  return timingSafeEqual(expected, Buffer.from(signatureHex, 'hex'));
}
