import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The nearest proxy's value of a forwarding header (the last of a list), lowercased. */
function lastEntry(header: string | string[] | undefined): string | undefined {
  const value = [header ?? []].flat().join(',');
  return value === '' ? undefined : value.slice(value.lastIndexOf(',') + 1).trim().toLowerCase();
}

/** An `Origin` as a URL, or null for `null` and anything that is not an http(s) origin. */
function parseOrigin(origin: string): URL | null {
  try {
    const url = new URL(origin);
    return /^https?:$/.test(url.protocol) ? url : null;
  } catch {
    return null;
  }
}

/**
 * Where the client addressed the request, as far as we can tell. The host is `request.host`: Fastify
 * takes X-Forwarded-Host there only from a proxy listed in COMANDA_TRUSTED_PROXIES (its trustProxy),
 * the Host header otherwise. The scheme is known on our own TLS socket, or when Fastify believed an
 * X-Forwarded-Proto (again only from a listed proxy); otherwise it is unknown and not compared, since
 * behind a TLS proxy we are not told about we see plain HTTP for an https site.
 */
function addressedTo(request: FastifyRequest): { host: string; scheme: string | null; unbelieved: boolean } {
  const host = request.host.toLowerCase();
  const forwardedProto = lastEntry(request.headers['x-forwarded-proto']);
  const forwardedHost = lastEntry(request.headers['x-forwarded-host']);
  const protocol = request.protocol.toLowerCase();
  const encrypted = (request.raw.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const scheme = encrypted ? 'https' : forwardedProto !== undefined && protocol === forwardedProto ? protocol : null;
  // Forwarding headers sent but not taken: the proxy that sent them is not listed (or is not one).
  const unbelieved = (forwardedHost !== undefined && forwardedHost !== host) || (forwardedProto !== undefined && forwardedProto !== protocol);
  return { host, scheme, unbelieved };
}

/** Whether `origin` is the origin the request was addressed to (scheme compared only when known; default ports as elided). */
function isOwn(origin: URL | null, own: { host: string; scheme: string | null }): boolean {
  if (!origin || (own.scheme !== null && `${own.scheme}:` !== origin.protocol)) return false;
  try {
    return new URL(`${origin.protocol}//${own.host}`).host === origin.host;
  } catch {
    return false;
  }
}

/**
 * Browsers name the page a request comes from in `Origin`; a state-changing request from any origin but
 * the service's own (the scheme, host and port the request is addressed to, see `addressedTo`) or one
 * configured in COMANDA_ALLOWED_ORIGINS is refused with 403 before it is routed. SameSite cookies alone
 * let a page of the same site (another port of the same host) post to us with the tablet's session.
 * Requests without `Origin` (curl, the node's webhooks, server-side clients) are not browsers'
 * cross-origin requests and pass. The configured origins also get CORS with credentials, so a
 * front-end served elsewhere works. A front-end whose own server proxies to us is same-origin when that
 * proxy is listed in COMANDA_TRUSTED_PROXIES and passes X-Forwarded-Host (and -Proto). The refusal
 * names the origin refused, ours, and the setting that would admit it.
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
  // Writes only, and only to a route (what no route matches is a 404 whatever its headers).
  app.addHook('onRequest', async function sameOrigin(request, reply) {
    const origin = request.headers.origin;
    if (origin === undefined || SAFE_METHODS.has(request.method) || request.routeOptions.url === undefined || allowed.has(origin)) return;
    const own = addressedTo(request);
    if (isOwn(parseOrigin(origin), own)) return;
    const ours = own.scheme ? `${own.scheme}://${own.host}` : own.host;
    request.log.warn({ origin, own: ours, method: request.method, url: request.url }, 'cross-origin write refused');
    const proxy = own.unbelieved
      ? ', or, if a proxy of yours forwards it, list the proxy\'s address in COMANDA_TRUSTED_PROXIES (X-Forwarded-Host is believed only from those)'
      : '';
    return reply.code(403).send({ message: `Origin ${origin} is not allowed: it is not this server's origin (${ours}); list it in COMANDA_ALLOWED_ORIGINS${proxy}` });
  });
});
