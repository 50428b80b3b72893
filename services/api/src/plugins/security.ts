import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Security headers (helmet: nosniff, frame-ancestors 'none', a strict CSP that still admits the
 * /swagger page's own scripts and styles by hash) and `Cache-Control: no-store` on every answer to a
 * signed-in request or one that sets cookies, so no shared cache or back button keeps staff data.
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
  // The headers do not depend on the request (no CSP nonces): helmet works them out once, and each
  // answer is given the same set.
  const headers: Record<string, string> = {};
  const recorder = { setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)), removeHeader: () => {} };
  applyHeaders({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if ((request.staff || reply.hasHeader('set-cookie')) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
});
