import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';

/** The resource as a GET answers it, or null when there is none (the route then answers 404 itself). */
export type Representation = (request: FastifyRequest) => Promise<Record<string, unknown> | null>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A PUT that replaces this resource: its body may carry the representation's read-only fields. */
    representation?: Representation;
  }
}

/**
 * Clients edit by read-modify-write: GET a record, change a field, PUT the whole record back, its own
 * `id`, `created_at` or computed `total` included. On a PUT with a `representation`, a field the body
 * schema does not list but the resource's representation has is read-only: equal to the stored value,
 * it is dropped before validation; different, it is a 400 naming the field (a client that believes it
 * can change it should hear that it cannot). Fields the resource does not have are still refused by
 * the schema.
 */
export default fp(async function readOnlyFields(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const represent = route.config?.representation;
    if (!represent) return;
    const writable = new Set(Object.keys(((route.schema?.body ?? {}) as { properties?: Record<string, unknown> }).properties ?? {}));
    const drop: preValidationAsyncHookHandler = async (request, reply) => {
      const body = request.body;
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
      const extra = Object.keys(body).filter((k) => !writable.has(k));
      if (extra.length === 0) return;
      const current = await represent(request);
      if (!current) return;
      const fields = body as Record<string, unknown>;
      const differing = extra.filter((k) => k in current && !isDeepStrictEqual(fields[k], current[k]));
      if (differing.length) {
        return reply.code(400).send({ message: 'Validation failed', errors: differing.map((field) => ({ field, message: 'is read-only and differs from the stored value' })) });
      }
      for (const k of extra) if (k in current) delete fields[k];
    };
    route.preValidation = [drop, ...[route.preValidation ?? []].flat()];
  });
});
