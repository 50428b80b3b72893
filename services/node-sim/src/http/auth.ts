import { timingSafeEqual, createHash } from 'node:crypto';
import type { SimNode } from '../node.js';

export type Access = 'full' | 'limited' | 'none';

export const UNAUTHORIZED = 'Invalid authentication (use basic auth with the http password set in phoenix.conf)';

// Compare digests so the time taken says nothing about the password, not even its length.
function same(a: string, b: string): boolean {
  const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

function accessFor(node: SimNode, password: string): Access {
  if (same(password, node.password)) return 'full';
  if (same(password, node.limitedPassword)) return 'limited';
  return 'none';
}

/** HTTP Basic: the user name is ignored, only the password counts. */
export function basicAccess(node: SimNode, authorization: string | undefined): Access {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!match) return 'none';
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? 'none' : accessFor(node, decoded.slice(colon + 1));
}

/** The websocket also takes the password as one element of Sec-WebSocket-Protocol. */
export function protocolPassword(node: SimNode, protocols: Iterable<string>): string | undefined {
  for (const protocol of protocols) if (accessFor(node, protocol.trim()) !== 'none') return protocol;
  return undefined;
}
