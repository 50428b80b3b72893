import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A bill's guest link token: the ticket id's 16 bytes and 16 bytes of an HMAC-SHA256 of it under a
 * key derived from the master key (`deriveKey(masterKey, 'guest-link')`), base64url (43 characters).
 * Nothing is stored: the same bill always has the same link, and no one without the key can make one
 * (128 bits to guess). It names one bill and nothing else.
 */
const MAC_BYTES = 16;

// The MAC names what the id is ("guest:" a bill, "table:" a table's QR): one key, and a bill's token never opens a table.
const mac = (key: string, kind: string, id: string) => createHmac('sha256', key).update(`${kind}:${id}`).digest().subarray(0, MAC_BYTES);

const tokenOf = (kind: string) => (key: string, id: string): string =>
  Buffer.concat([Buffer.from(id.replaceAll('-', ''), 'hex'), mac(key, kind, id)]).toString('base64url');

/** The id a token of this kind names, or null when it was not made with this key for it (or is no token at all). */
const idOf = (kind: string) => (key: string, token: string): string | null => {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== 16 + MAC_BYTES) return null;
  const hex = bytes.subarray(0, 16).toString('hex');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return timingSafeEqual(bytes.subarray(16), mac(key, kind, id)) ? id : null;
};

export const guestToken = tokenOf('guest');
export const ticketOfToken = idOf('guest');
/** A table's QR (issue 63, ordering from the table): the table's id, the same way, under its own name. */
export const tableToken = tokenOf('table');
export const tableOfToken = idOf('table');

/** How long after a bill is paid or cancelled its link still shows it (the guest's receipt): 30 minutes. */
export const GUEST_LINK_GRACE_MS = 30 * 60_000;

/** Path segments that carry a guest token, censored wherever a URL is logged. */
export const redactGuestUrl = (url: string): string => url.replace(/\/(guest\/table|guest|g|t)\/[^/?#]+/, '/$1/[redacted]');
