import { DomainError } from '@comanda/domain';
import { StreamContended } from '@comanda/event-store';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http/http-error.js';
import { sendJsonString } from '../http/replies.js';
import { isUnavailable } from '../http/unavailable.js';
import { WrittenNotYetVisible, whereToRead } from './consistency.js';
import { NO_STORE } from './security.js';

function fieldOf(error: { instancePath?: string; params?: Record<string, unknown> }, context: string): string {
  // A missing field, or an unknown one (refused: bodies are closed), is named in full.
  const missing = error.params?.missingProperty ?? error.params?.additionalProperty;
  const path = (error.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const field = [path, typeof missing === 'string' ? missing : ''].filter(Boolean).join('.');
  return field || context;
}

/** AJV's message, except that a closed set names its members. */
function messageOf(error: { keyword?: string; message?: string; params?: Record<string, unknown> }): string {
  const allowed = error.params?.allowedValues;
  if (error.keyword === 'enum' && Array.isArray(allowed)) return `must be one of ${allowed.join(', ')}`;
  return error.message ?? 'is invalid';
}

type SchemaError = { keyword?: string; instancePath?: string; schemaPath?: string; message?: string; params?: Record<string, unknown> };

/**
 * A union of literals (`Type.Union([Type.Literal('waiter'), …])`) is an `anyOf` of `const`s: a value
 * outside it fails every branch, and AJV reports each branch (a `const`, often a `type` too) and then
 * the `anyOf`. Such a failure becomes the one error an `enum` gives, naming the allowed values; an
 * `anyOf` whose branches are anything else (objects, formats) is left as AJV reports it.
 */
export function collapseClosedSets<E extends SchemaError>(errors: readonly E[]): E[] {
  // Each error of a closed set's failure, mapped to the one error that replaces them all.
  const replaced = new Map<E, E>();
  for (const error of errors) {
    if (error.keyword !== 'anyOf' || !error.schemaPath?.endsWith('/anyOf')) continue;
    const prefix = `${error.schemaPath}/`;
    const branches = errors.filter((e) => e.instancePath === error.instancePath && e.schemaPath?.startsWith(prefix));
    const values = new Map<string, unknown[]>();
    let closed = branches.length > 0;
    for (const branch of branches) {
      const [index = '', keyword, ...deeper] = branch.schemaPath!.slice(prefix.length).split('/');
      const listed = values.get(index) ?? [];
      values.set(index, listed);
      if (deeper.length > 0) closed = false;
      else if (keyword === 'const') listed.push(branch.params?.allowedValue);
      else if (keyword === 'enum' && Array.isArray(branch.params?.allowedValues)) listed.push(...branch.params.allowedValues);
      else if (keyword === 'type' && branch.params?.type === 'null') listed.push(null);
      else if (keyword !== 'type') closed = false;
    }
    if (!closed || [...values.values()].some((listed) => listed.length === 0)) continue;
    const allowedValues = [...values.values()].flat();
    const one: E = { ...error, keyword: 'enum', params: { allowedValues }, message: `must be one of ${allowedValues.join(', ')}` };
    for (const member of [...branches, error]) replaced.set(member, one);
  }
  if (replaced.size === 0) return [...errors];
  // The one error stands where the first report of its failure stood.
  const out = new Set<E>();
  for (const error of errors) out.add(replaced.get(error) ?? error);
  return [...out];
}

/**
 * One mapping from failures to HTTP: schema and domain validation → 400 'Validation failed', a bad
 * path id → 400 "Missing or malformed ID", unknown resource → 404 "Resource not found", conflicts → 409,
 * stale If-Match → 412, a stream contended past every retry or a store or bus out of reach → 503 with
 * Retry-After, a write recorded but not yet in the read models → 202, and anything unexpected → 500
 * without internals (logged with the request id).
 */
export default fp(async function errors(app: FastifyInstance) {
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    reply.code(404).send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found` });
  };
  app.setNotFoundHandler(notFound);
  // Answered before any body is read: an unknown route is 404 whatever the request carries (a JSON
  // content type with no body, broken JSON, a form, a malformed Content-Type), never a complaint
  // about a body nobody reads.
  app.addHook('onRequest', (request, reply, done) => (request.is404 ? notFound(request, reply) : done()));

  app.setErrorHandler((error: FastifyError | DomainError, request, reply) => {
    // A tag set by revalidation (plugins/revalidation.ts) names an answer, never a failure.
    if (reply.hasHeader('etag')) reply.removeHeader('etag').header('cache-control', NO_STORE);
    if (error instanceof HttpError) return reply.code(error.status).headers(error.headers).send(error.body);
    if (error instanceof StreamContended) {
      // Other replicas kept winning the race for the same stream; nothing was written, so retrying is safe.
      request.log.warn({ stream: error.stream }, 'command contended past its retries');
      return reply.code(503).header('retry-after', '1').send({ message: 'Too many changes at once; nothing was saved, try again' });
    }
    if (error instanceof DomainError) {
      switch (error.kind) {
        case 'not_found':
          return sendJsonString(reply, 404, error.message);
        case 'validation':
          return reply.code(400).send({ message: 'Validation failed', errors: error.details?.errors ?? [] });
        case 'conflict':
          return reply.code(409).send({ ...error.details, message: error.message });
        case 'precondition':
          return reply.code(412).send({ message: error.message });
        case 'forbidden':
          return reply.code(403).send({ message: error.message });
        case 'unauthorized':
          return reply.code(401).send({ message: 'Unauthorized' });
      }
    }
    const failure: unknown = error;
    if (failure instanceof WrittenNotYetVisible) {
      // Recorded, but the read models have not caught up: never a 404 or 409 for our own success, nor a 2xx the next read belies.
      const location = failure.location ?? whereToRead(app, request);
      if (location) reply.header('location', location);
      return reply.code(202).send({ message: 'Accepted: recorded, not yet visible in the lists; read it again in a moment', ...(location ? { location } : {}) });
    }
    if (isUnavailable(error)) {
      // The driver's words stay in the log: a client learns only that it may try again.
      request.log.warn({ err: error }, 'a store or the bus is unreachable: answered 503');
      return reply.code(503).header('retry-after', '2').send({ message: 'Service temporarily unavailable; try again' });
    }
    const e = error as FastifyError;
    if (e.validation) {
      const failures = collapseClosedSets(e.validation);
      const errors = failures.map((v) => ({ field: fieldOf(v, e.validationContext ?? 'body'), message: messageOf(v) }));
      // A path id (or hash) is the seed's "Missing or malformed ID"; a closed path parameter (an order status) names itself.
      if (e.validationContext === 'params' && !failures.some((v) => v.keyword === 'enum')) return sendJsonString(reply, 400, 'Missing or malformed ID');
      return reply.code(400).send({ message: 'Validation failed', errors });
    }
    if (e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || e instanceof SyntaxError) {
      return reply.code(400).send({ message: 'Validation failed', errors: [{ field: 'body', message: 'is not valid JSON' }] });
    }
    const status = e.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send({ message: e.message });
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send({ message: 'Internal server error' });
  });
});
