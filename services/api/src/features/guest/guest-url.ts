import { TICKET_STATUS } from '@comanda/domain';
import type { FastifyRequest } from 'fastify';
import { deriveKey } from '../../auth/keys.js';
import { guestToken } from './guest-token.js';

/** The key guest links are made with: derived from the master key, never stored. */
export const guestLinkKey = (masterKey: string): string => deriveKey(masterKey, 'guest-link');

/**
 * A bill's guest link as a phone opens it (issue 63): at COMANDA_GUEST_URL when the restaurant set
 * one (a public address), else where the asking tablet reached the POS: its page's Origin (a write
 * from our own page carries it, scheme included, even behind a TLS proxy we were not told about),
 * else the address the request came to (Host, or a trusted proxy's X-Forwarded-Host/-Proto).
 */
export function guestUrl(request: FastifyRequest, base: string | null, key: string, ticketId: string): string {
  const origin = typeof request.headers.origin === 'string' && /^https?:\/\/[^/]+$/.test(request.headers.origin) ? request.headers.origin : null;
  return `${base ?? origin ?? `${request.protocol}://${request.host}`}/g/${guestToken(key, ticketId)}`;
}

/** A bill's receipt data with its guest link when it is still to pay (paper and receipt page alike); a paid one has none. */
export function withGuestLink<T extends { ticket: { id: string; status: number } }>(request: FastifyRequest, base: string | null, key: string, data: T): T & { guestUrl: string | null } {
  return { ...data, guestUrl: data.ticket.status === TICKET_STATUS.pending ? guestUrl(request, base, key, data.ticket.id) : null };
}
