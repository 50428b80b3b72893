import type { FastifyReply } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { sendNoContent } from './replies.js';

/**
 * Pieces the menu and floor resources share: their names, their confirmations, their list answers and
 * the headers their writes accept, described once for the OpenAPI document.
 */

/** A name staff type; surrounding spaces are trimmed, then 1–100 characters (checked by the decider). */
export const PlaceName = Type.String({ minLength: 1, pattern: '\\S', description: 'Trimmed, then 1–100 characters' });

export const Confirmation = Type.Object({ id: Type.String({ format: 'uuid' }), message: Type.String() });

export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(Type.String({ description: 'The ETag a GET returned ("<version>"): a stale one answers 412 and changes nothing' })),
});

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: 'Repeating a request with the same key answers the first response and creates nothing more' })),
});

/** The 204 of an empty list: HTTP forbids a body, so the seed's 'No … found' string is not sent. */
export const EmptyList = (what: string) => Type.Null({ description: `There are no ${what}. No body: the seed's string for this 204 is not sent, because HTTP forbids a body with 204` });

/**
 * A 409 answer: the reason in `message`, plus the fields that name what stands in the way (they would be
 * stripped by the shared `Message` schema).
 */
export const Conflict = (description: string, fields: Record<string, TSchema> = {}) =>
  Type.Object({ message: Type.String(), ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) }, {
    description: `${description}; or the Idempotency-Key was already used for a different request`, additionalProperties: true,
  });

export const Stale = Type.Ref('Message', { description: 'If-Match names a version that is no longer current' });

/** Lists of the seed's resources answer 204 with no body when empty. */
export function sendList<T>(reply: FastifyReply, items: T[]): FastifyReply | T[] {
  return items.length === 0 ? sendNoContent(reply) : items;
}
