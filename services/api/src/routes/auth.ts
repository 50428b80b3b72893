import { STAFF_STREAM, findByName, newId, roster, session, sessionStream, unauthorized } from '@comanda/domain';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { LoginThrottle } from '../auth/throttle.js';
import { hashSecret, verifySecret } from '../auth/pin.js';
import { ACCESS_TTL_S, REFRESH_TTL_S } from '../plugins/auth.js';
import { writeContext } from '../http/write-context.js';
import { Headers, withHeaders } from '../http/schemas.js';
import { readCookie } from '../http/cookies.js';

const UserSummary = Type.Object({ id: Type.String(), name: Type.String(), role: Type.String() });
const LoginBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  pin: Type.String({ minLength: 1, maxLength: 64 }),
});
const TooMany = Type.Object({ message: Type.String(), retryAfter: Type.Integer({ description: 'seconds' }) });

/** Answer for a locked name or address: 429 with Retry-After. */
export function tooManyAttempts(reply: FastifyReply, seconds: number) {
  return reply
    .code(429)
    .header('retry-after', String(seconds))
    .send({ message: 'Too many failed attempts; try again later', retryAfter: seconds });
}

/**
 * Refresh and logout never take an Idempotency-Key: a replayed refresh would hand a rotated-out token
 * the session's current tokens. Each refresh meets the decider, and a reused generation revokes.
 */
const sessionContext = (request: FastifyRequest, claims: Record<string, unknown>) => ({
  userId: typeof claims.sub === 'string' ? claims.sub : null,
  correlationId: request.id,
});

/** Session endpoints: login with name and PIN, refresh with rotation, logout. */
export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const throttle = new LoginThrottle(app.deps.readStore, 'login', app.now);
  // Unknown names still pay for a PBKDF2 run, so timing does not tell which names exist.
  const decoyHash = await hashSecret('decoy', app.deps.masterKey, '\u0000decoy');

  const issue = async (request: FastifyRequest, reply: FastifyReply, user: { id: string; role: string }, sid: string, gen: number) => {
    app.setAuthCookie(request, reply, 'accessToken', app.signToken({ sub: user.id, role: user.role, sid, typ: 'access' }, ACCESS_TTL_S), ACCESS_TTL_S);
    app.setAuthCookie(request, reply, 'refreshToken', app.signToken({ sub: user.id, sid, gen, typ: 'refresh' }, REFRESH_TTL_S), REFRESH_TTL_S);
  };
  const clear = (request: FastifyRequest, reply: FastifyReply) => {
    app.clearAuthCookie(request, reply, 'accessToken');
    app.clearAuthCookie(request, reply, 'refreshToken');
  };

  app.post('/auth/login', {
    schema: {
      tags: ['auth'],
      summary: 'Log in with name and PIN',
      description: 'Sets the HttpOnly cookies accessToken (1 minute) and refreshToken (30 days). Five consecutive failures for one name from one client address lock that pair: 429 with Retry-After, the wait doubling with each further failure (cap 1 h); a success clears it. 50 failures from one address within a minute lock the address until the minute ends. The client address is X-Forwarded-For only behind a proxy listed in COMANDA_TRUSTED_PROXIES.',
      body: LoginBody,
      response: {
        200: withHeaders(Type.Object({ message: Type.Literal('Login successful'), user: UserSummary }), Headers.setCookie),
        400: Type.Ref('ValidationFailed'),
        401: Type.Ref('Message', { description: "{message:'Invalid credentials'}" }),
        429: withHeaders(TooMany, Headers.retryAfter),
      },
    },
  }, async (request, reply) => {
    const { name, pin } = request.body;
    const wait = await throttle.admit(request.ip, name);
    if (wait > 0) return tooManyAttempts(reply, wait);
    const { state } = await app.deps.commands.state(roster, STAFF_STREAM);
    const member = findByName(state, name);
    const ok = await verifySecret(pin, app.deps.masterKey, member?.name ?? '\u0000decoy', member?.pinHash ?? decoyHash);
    if (!member || !ok) {
      return reply.code(401).send({ message: 'Invalid credentials' });
    }
    await throttle.succeed(request.ip, name);
    const sid = newId();
    await app.deps.commands.handle(session, sessionStream(sid), {
      type: 'startSession', sessionId: sid, userId: member.id, expiresAt: app.now() + REFRESH_TTL_S * 1000,
    }, { ...writeContext(request), userId: member.id });
    await issue(request, reply, member, sid, 0);
    return { message: 'Login successful', user: { id: member.id, name: member.name, role: member.role } };
  });

  app.post('/auth/refresh', {
    schema: {
      tags: ['auth'],
      summary: 'New access token from the refresh cookie',
      description: 'Rotates the refresh token. A refresh token presented a second time (a stolen copy) revokes the whole session. Idempotency-Key is ignored here.',
      response: {
        200: withHeaders(Type.Object({ message: Type.Literal('Access token refreshed successfully') }), Headers.setCookie),
        401: withHeaders(Type.Object({ message: Type.Literal('Unauthorized') }, { description: 'No valid refresh token, or the session is revoked (a reused refresh token revokes it): both cookies are cleared' }), Headers.setCookie),
      },
    },
  }, async (request, reply) => {
    const claims = app.readToken(readCookie(request, 'refreshToken'), 'refresh');
    if (!claims || typeof claims.sid !== 'string' || typeof claims.gen !== 'number') {
      clear(request, reply);
      throw unauthorized();
    }
    const now = app.now();
    const result = await app.deps.commands.handle(session, sessionStream(claims.sid), {
      type: 'refreshSession', generation: claims.gen, now, expiresAt: now + REFRESH_TTL_S * 1000,
    }, sessionContext(request, claims));
    const { state } = await app.deps.commands.state(roster, STAFF_STREAM);
    const member = result.state.userId ? state.members[result.state.userId] : undefined;
    if (result.state.revoked || !member) {
      if (!member && !result.state.revoked) await app.deps.commands.handle(session, sessionStream(claims.sid), { type: 'endSession' });
      clear(request, reply);
      throw unauthorized();
    }
    await issue(request, reply, member, claims.sid, result.state.generation);
    return { message: 'Access token refreshed successfully' as const };
  });

  app.post('/auth/logout', {
    schema: {
      tags: ['auth'],
      summary: 'End the session',
      description: 'Revokes the session and clears both cookies (same Path as set): access tokens of the session stop working at once. Works with an expired access token. Idempotency-Key is ignored here.',
      response: { 200: withHeaders(Type.Object({ message: Type.Literal('Logout successful') }), Headers.setCookie) },
    },
  }, async (request, reply) => {
    const claims = app.readToken(readCookie(request, 'refreshToken'), 'refresh');
    if (claims && typeof claims.sid === 'string') {
      await app.deps.commands.handle(session, sessionStream(claims.sid), { type: 'endSession' }, sessionContext(request, claims));
    }
    clear(request, reply);
    return { message: 'Logout successful' as const };
  });

  app.get('/auth/me', {
    onRequest: app.authorize('profile:read'),
    schema: {
      tags: ['auth'],
      summary: 'The signed-in user',
      response: { 200: UserSummary, 401: Type.Ref('Message') },
    },
  }, async (request) => {
    const { state } = await app.deps.commands.state(roster, STAFF_STREAM);
    const member = state.members[request.staff!.id];
    if (!member) throw unauthorized();
    return { id: member.id, name: member.name, role: member.role };
  });
}
