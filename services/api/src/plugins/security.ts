import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The head of a server-sent event stream (kitchen screens, the cashier's payments), written by its
 * route; the security headers are already on the response (helmet sets them as the request comes in).
 */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/**
 * Security headers on every answer, by @fastify/helmet: nosniff, no framing (X-Frame-Options and CSP
 * frame-ancestors), Cross-Origin-Resource-Policy (no other site's page can pull staff data in with a
 * no-cors load), and a CSP that admits only this origin's scripts and styles, /swagger's own by hash.
 * `Cache-Control: no-store` goes on every answer to a signed-in request or one that sets cookies, so no
 * shared cache or back button keeps staff data; an answer that set its own (revalidation's
 * `private, no-cache`) keeps it.
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
  app.addHook('onSend', (request, reply, payload, done) => {
    if ((request.staff || reply.hasHeader('set-cookie')) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
});
