import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The API set every answer that is not a page carries; the event streams, which write their own head,
 * put it there too.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** The head of a server-sent event stream (kitchen screens, the cashier's payments), written by its route. */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  ...API_HEADERS,
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/**
 * Security headers in two sets, as OWASP's REST Security Cheat Sheet draws the line:
 * - every answer carries the API set: nosniff, no framing (X-Frame-Options and CSP frame-ancestors),
 *   a CSP that lets a JSON body opened as a page run nothing (`default-src 'none'`) and
 *   Cross-Origin-Resource-Policy, so no other site's page can pull staff data in with a no-cors load;
 * - an answer that is not JSON (the kitchen page, /swagger and its assets, an HTML receipt) also gets
 *   helmet's full document set, with a CSP that admits /swagger's own scripts and styles by hash.
 * The document-only headers (COOP, Origin-Agent-Cluster, Referrer-Policy, X-DNS-Prefetch-Control…)
 * act only on a rendered page, and each header costs a JSON answer ~1.5 µs to write (seven of them a
 * tenth of a small GET), so the API answers leave them out.
 * `Cache-Control: no-store` goes on every answer to a signed-in request or one that sets cookies, so no
 * shared cache or back button keeps staff data.
 */
export default fp(async function security(app: FastifyInstance) {
  const swagger = (app as FastifyInstance & { swaggerCSP?: { script: string[]; style: string[] } }).swaggerCSP ?? { script: [], style: [] };
  // helmet's middleware is built once: @fastify/helmet builds it again on every request (parsing the
  // CSP each time), a tenth of the cost of a small GET.
  const applyHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'self'"],
        'frame-ancestors': ["'none'"],
        'form-action': ["'self'"],
        'object-src': ["'none'"],
        'img-src': ["'self'", 'data:'],
        'script-src': ["'self'", ...swagger.script],
        'style-src': ["'self'", ...swagger.style],
        'upgrade-insecure-requests': null,
      },
    },
    frameguard: { action: 'deny' as const },
    // A POS on a LAN is often plain HTTP: HSTS belongs to the TLS-terminating proxy.
    strictTransportSecurity: false,
  });
  // The headers do not depend on the request (no CSP nonces): helmet works them out once.
  const documentHeaders: Record<string, string> = {};
  const recorder = { setHeader: (name: string, value: string) => void (documentHeaders[name.toLowerCase()] = String(value)), removeHeader: () => {} };
  applyHeaders({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  // Set as the answer goes out, not as the request comes in: a cached answer (answer-cache.ts) goes
  // out with the headers its first sending had, and passes no hook of this plugin at all.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(isDocument(reply.getHeader('content-type'), payload) ? documentHeaders : API_HEADERS);
    if ((request.staff || reply.hasHeader('set-cookie')) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
});

/**
 * Whether an answer could be rendered as a page: any body that is not JSON (`application/json`,
 * `application/problem+json`…), including one with no type yet; a 204 or a HEAD has nothing to render.
 */
const isDocument = (type: unknown, payload: unknown) =>
  payload !== null && payload !== undefined && payload !== '' && !(typeof type === 'string' && /^application\/([\w.-]+\+)?json\b/.test(type));
