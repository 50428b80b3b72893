import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The host and port an `Origin` names, or null for `null` and anything that is not an http(s) origin. */
function hostOf(origin: string): string | null {
  try {
    const url = new URL(origin);
    return /^https?:$/.test(url.protocol) ? url.host : null;
  } catch {
    return null;
  }
}

/**
 * Browsers name the page a request comes from in `Origin`; a state-changing request from any origin but
 * the service's own (the same host and port as the request is addressed to) or one configured in
 * COMANDA_ALLOWED_ORIGINS is refused with 403 before it is routed. SameSite cookies alone let a page of
 * the same site (another port of the same host) post to us with the tablet's session. Requests without
 * `Origin` (curl, the node's webhooks, server-side clients) are not browsers' cross-origin requests and
 * pass. The configured origins also get CORS with credentials, so a front-end served elsewhere works.
 * Own origin is decided by host and port, not scheme: behind a TLS proxy we may see plain HTTP.
 */
export default fp(async function origins(app: FastifyInstance, options: { allowed: string[] }) {
  const allowed = new Set(options.allowed);
  if (allowed.size > 0) {
    await app.register(cors, {
      origin: [...allowed],
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['content-type', 'authorization', 'idempotency-key', 'if-match', 'if-none-match'],
      exposedHeaders: ['location', 'etag', 'x-total-count', 'retry-after'],
      maxAge: 600,
    });
  }
  const admitted = (request: FastifyRequest): boolean => {
    const origin = request.headers.origin;
    if (origin === undefined) return true;
    if (allowed.has(origin)) return true;
    const host = hostOf(origin);
    return host !== null && host === request.headers.host?.toLowerCase();
  };
  // Writes only, and only to a route (what no route matches is a 404 whatever its headers).
  app.addHook('onRequest', async function sameOrigin(request, reply) {
    if (SAFE_METHODS.has(request.method) || request.routeOptions.url === undefined || admitted(request)) return;
    request.log.warn({ origin: request.headers.origin, method: request.method, url: request.url }, 'cross-origin write refused');
    return reply.code(403).send({ message: 'Cross-origin request refused' });
  });
});
