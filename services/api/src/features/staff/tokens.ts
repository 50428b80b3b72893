import { ROLES } from '@comanda/domain';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { REVOKED, type SignedIn, staffSessions } from '../../auth/sessions.js';
import { ACCESS_TTL_S, REFRESH_TTL_S } from '../../plugins/auth.js';
import { Headers, withHeaders } from '../../http/schemas.js';
import { LoginBody, RefreshRefused, TooMany, refused, signInOrRefuse } from './sessions.js';

const Token = Type.String({ minLength: 1, maxLength: 4096 });
const TokenPair = Type.Object({
  token_type: Type.Literal('Bearer'),
  access_token: Type.String({ description: 'Send as `Authorization: Bearer <access_token>` on every request' }),
  expires_in: Type.Integer({ description: 'seconds the access token lives' }),
  refresh_token: Type.String({ description: 'One use: POST /auth/token/refresh answers a new pair; presented again within 10 s of that it answers the same pair (two tabs, a retry), later it revokes the session' }),
  refresh_expires_in: Type.Integer({ description: 'seconds the refresh token lives' }),
  user: Type.Object({ id: Type.String(), name: Type.String(), role: Type.Enum([...ROLES]) }),
}, {
  examples: [{ token_type: 'Bearer', access_token: 'eyJhbGciOi…', expires_in: 60, refresh_token: 'eyJhbGciOi…', refresh_expires_in: 2592000, user: { id: '5f0c…', name: 'Marisol', role: 'waiter' } }],
});
const pair = (signed: SignedIn) => ({
  token_type: 'Bearer' as const, access_token: signed.access, expires_in: ACCESS_TTL_S,
  refresh_token: signed.refresh, refresh_expires_in: REFRESH_TTL_S, user: signed.member,
});

/**
 * Bearer tokens for clients that are not browsers (a till app, a script): the same session, throttle
 * and rotation as the cookies, with the tokens in the bodies instead. Refresh and revoke ignore
 * Idempotency-Key: a replayed refresh would hand a rotated-out token the session's current tokens.
 */
export default async function authTokenRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const sessions = await staffSessions(app);

  app.post('/auth/token', {
    config: { permission: 'anyone' },
    schema: {
      tags: ['auth'], summary: 'Sign in for bearer tokens (clients that are not browsers)',
      description: 'The same name, PIN and lockout as POST /auth/login; the tokens come in the body and no cookie is set. The access token lives 1 minute: on a 401, refresh once with POST /auth/token/refresh and retry.',
      body: LoginBody,
      response: {
        200: TokenPair,
        401: Type.Ref('Message', { description: "{message:'Invalid credentials'}" }),
        429: withHeaders(TooMany, Headers.retryAfter),
      },
    },
  }, async (request, reply) => {
    const signed = await signInOrRefuse(sessions, request, reply, request.body);
    return signed ? pair(signed) : reply;
  });

  app.post('/auth/token/refresh', {
    config: { permission: 'anyone' },
    schema: {
      tags: ['auth'], summary: 'A new token pair for a refresh token (rotation)',
      description: 'Each refresh token works once. Presented again within 10 s of its rotation (two tabs, a retry after a lost answer) it is answered the same new pair; presented later (a stolen copy) it revokes the whole session: every token of it stops working, and the client signs in again.',
      body: Type.Object({ refresh_token: Token }),
      response: { 200: TokenPair, 401: RefreshRefused },
    },
  }, async (request, reply) => {
    const signed = await sessions.refresh(request, request.body.refresh_token);
    if (!signed || signed === REVOKED) return reply.code(401).send(refused(signed));
    return pair(signed);
  });

  app.post('/auth/token/revoke', {
    config: { permission: 'anyone' },
    schema: {
      tags: ['auth'], summary: 'End the session of a refresh token (logout)',
      body: Type.Object({ refresh_token: Token }),
      response: { 200: Type.Object({ message: Type.Literal('Logout successful') }) },
    },
  }, async (request) => {
    await sessions.end(request, request.body.refresh_token);
    return { message: 'Logout successful' as const };
  });
}
