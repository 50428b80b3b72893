import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A bill's guest link token: the ticket id's 16 bytes and 16 bytes of an HMAC-SHA256 of it under a
 * key derived from the master key (`deriveKey(masterKey, 'guest-link')`), base64url (43 characters).
 * Nothing is stored: the same bill always has the same link, and no one without the key can make one
 * (128 bits to guess). It names one bill and nothing else.
 */
const MAC_BYTES = 16;

const mac = (key: string, ticketId: string) => createHmac('sha256', key).update(`guest:${ticketId}`).digest().subarray(0, MAC_BYTES);

export function guestToken(key: string, ticketId: string): string {
  const id = Buffer.from(ticketId.replaceAll('-', ''), 'hex');
  return Buffer.concat([id, mac(key, ticketId)]).toString('base64url');
}

/** The ticket id a token names, or null when it was not made with this key (or is no token at all). */
export function ticketOfToken(key: string, token: string): string | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== 16 + MAC_BYTES) return null;
  const hex = bytes.subarray(0, 16).toString('hex');
  const ticketId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return timingSafeEqual(bytes.subarray(16), mac(key, ticketId)) ? ticketId : null;
}

/** How long after a bill is paid or cancelled its link still shows it (the guest's receipt): 30 minutes. */
export const GUEST_LINK_GRACE_MS = 30 * 60_000;

/** Path segments that carry a guest token, censored wherever a URL is logged. */
export const redactGuestUrl = (url: string): string => url.replace(/\/(guest|g)\/[^/?#]+/, '/$1/[redacted]');
