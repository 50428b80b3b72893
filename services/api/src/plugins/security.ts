import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

/** What staff answers, and answers that set or clear a cookie, say to caches (set in plugins/auth.ts). */
export const NO_STORE = 'no-store';

/** What a server-sent event stream (kitchen screens, the cashier's payments) says of itself. */
const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/**
 * The head of a server-sent event stream, written by its route on the hijacked response: the headers
 * the reply holds (the security headers, set as the request came in) and the stream's own.
 */
export function eventStreamHead(reply: FastifyReply): OutgoingHttpHeaders {
  const head: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) head[name] = value;
  return Object.assign(head, EVENT_STREAM_HEADERS);
}

/**
 * Security headers on every answer, as helmet decides them: nosniff, no framing (X-Frame-Options and
 * CSP frame-ancestors), Cross-Origin-Resource-Policy (no other site's page can pull staff data in with
 * a no-cors load), and a CSP that admits only this origin's scripts and styles, /swagger's own by hash.
 * (`Cache-Control: no-store` on staff answers is set where the reason arises, not here: when a request
 * is authorised and when a cookie is set or cleared — plugins/auth.ts — so no hook runs at the end of
 * every answer to look for it.)
 *
 * helmet itself, not @fastify/helmet: the plugin (13.x) builds helmet's middleware anew in an onRequest
 * hook for every request (its CSP parsed each time), which was the largest part of a revalidated GET's
 * CPU (docs/benchmarks.md). The headers depend only on this configuration (no nonces), so helmet's
 * middleware is built once, run once at start against a recorder, and every answer gets what it set
 * through Fastify's own `reply.headers`.
 */
export default fp(async function security(app: FastifyInstance) {
  const swagger = (app as FastifyInstance & { swaggerCSP?: { script: string[]; style: string[] } }).swaggerCSP ?? { script: [], style: [] };
  const headers = helmetHeaders({
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
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
});

/**
 * The headers helmet's middleware sets for this configuration, recorded by running it once on a
 * response that only remembers them (helmet sets and removes headers, and calls next: nothing else).
 */
export function helmetHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const set: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => { set[name.toLowerCase()] = String(value); },
    removeHeader: (name: string) => { delete set[name.toLowerCase()]; },
  };
  let failure: unknown;
  // Kept: a stand-in for the two methods helmet calls; a real ServerResponse needs a socket and a request.
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => { failure = error; });
  if (failure) throw failure;
  return Object.freeze(set);
}
