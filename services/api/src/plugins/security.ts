import type { OutgoingHttpHeaders } from 'node:http';
import helmet from '@fastify/helmet';
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
 * the reply holds and the stream's own (helmet's, set on the raw response as the request came in, are
 * merged by Node's writeHead).
 */
export function eventStreamHead(reply: FastifyReply): OutgoingHttpHeaders {
  const head: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) head[name] = value;
  return Object.assign(head, EVENT_STREAM_HEADERS);
}

/**
 * Security headers on every answer, by @fastify/helmet with one fixed policy: nosniff, no framing
 * (X-Frame-Options and CSP frame-ancestors), Cross-Origin-Resource-Policy (no other site's page can
 * pull staff data in with a no-cors load), and a CSP that admits only this origin's scripts and styles,
 * /swagger's own by hash. (`Cache-Control: no-store` on staff answers is set where the reason arises:
 * when a request is authenticated and when a cookie is set or cleared, plugins/auth.ts.)
 */
export default fp(async function security(app: FastifyInstance) {
  const swagger = (app as FastifyInstance & { swaggerCSP?: { script: string[]; style: string[] } }).swaggerCSP ?? { script: [], style: [] };
  await app.register(helmet, {
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
});
