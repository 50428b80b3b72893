import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Message, ValidationFailed } from '../http/schemas.js';

const description = `Back end of the Comanda restaurant point of sale.

Conventions: JSON bodies; ids are UUID v4; money is a decimal number with at most two decimals
(stored as integer cents); timestamps are ISO 8601 UTC in order records.

Where the contract leaves a choice, this document states it: 204 answers carry no body (HTTP forbids one),
so the strings the contract lists beside a 204 are not sent. Error bodies are {message} objects, except the
bare JSON strings "Missing or malformed ID" (400) and "Resource not found" (404).

Writes are idempotent with an Idempotency-Key header (POST) and guarded by If-Match with the ETag a GET
returned (PUT, 412 when stale). A write's response is sent after the read models include it.`;

/** Third-party plugins: cookies and the OpenAPI document with its UI at /swagger. */
export default fp(async function external(app: FastifyInstance) {
  // Cookies are parsed when a route reads one (`readCookie`), not on every request.
  await app.register(cookie, { hook: false });
  app.addSchema(Message);
  app.addSchema(ValidationFailed);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Comanda POS API', version: '1.0.0', description, license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } },
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          accessToken: { type: 'apiKey', in: 'cookie', name: 'accessToken', description: 'Browsers: the HttpOnly cookie set by POST /auth/login (1 minute). On a 401, POST /auth/refresh once (the refreshToken cookie, 30 days, rotated on every use; a reused one revokes the session) and retry; a second 401 means sign in again' },
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Clients that are not browsers: the access_token of POST /auth/token (1 minute) as `Authorization: Bearer`. On a 401, POST /auth/token/refresh once with the refresh_token (30 days, one use: a reused one revokes the session) and retry' },
          walletAccessToken: { type: 'apiKey', in: 'cookie', name: 'walletAccessToken', description: 'Set by POST /wallet/auth (5 minutes), bound to the signed-in admin' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string) ?? `def-${i}` },
  });
  await app.register(swaggerUi, { routePrefix: '/swagger' });
});
