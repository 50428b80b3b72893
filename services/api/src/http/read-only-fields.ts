import { isDeepStrictEqual } from 'node:util';
import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { TSchema } from 'typebox';

/** The resource as a GET answers it, or null when there is none (the route then answers 404 itself). */
export type Representation = (request: FastifyRequest) => Promise<Record<string, unknown> | null>;

/**
 * Clients edit by read-modify-write: GET a record, change a field, PUT the whole record back, its own
 * `id`, `created_at` or computed `total` included. A PUT names this preValidation hook with its body
 * schema and the resource's representation as its GET answers it. A field the body schema does not
 * list but the representation has is read-only: equal to the stored value, it is dropped before
 * validation; different, it is a 400 naming the field (a client that believes it
 * can change it should hear that it cannot). Fields the resource does not have are still refused by
 * the schema.
 */
export function readOnlyFields(body: TSchema, represent: Representation): preValidationAsyncHookHandler {
  const writable = new Set(Object.keys((body as { properties?: Record<string, unknown> }).properties ?? {}));
  return async function readOnlyFieldsOf(request, reply) {
    const fields = request.body;
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) return;
    const extra = Object.keys(fields).filter((k) => !writable.has(k));
    if (extra.length === 0) return;
    const current = await represent(request);
    if (!current) return;
    const given = fields as Record<string, unknown>;
    const differing = extra.filter((k) => k in current && !isDeepStrictEqual(given[k], current[k]));
    if (differing.length) {
      return reply.code(400).send({ message: 'Validation failed', errors: differing.map((field) => ({ field, message: 'is read-only and differs from the stored value' })) });
    }
    for (const k of extra) if (k in current) delete given[k];
  };
}
