import { DEVICE_MAX, ROLES, STAFF_STREAM, roster, unauthorized } from '@comanda/domain';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { REVOKED, type SignedIn, staffSessions } from '../../auth/sessions.js';
import { ACCESS_TTL_S, REFRESH_TTL_S } from '../../plugins/auth.js';
import { Headers, withHeaders } from '../../http/schemas.js';

const UserSummary = Type.Object({ id: Type.String(), name: Type.String(), role: Type.Enum([...ROLES]) });
/** Name and PIN: the body of every sign-in with them (cookies or bearer tokens). */
export const LoginBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 64 }),
  pin: Type.String({ minLength: 1, maxLength: 64 }),
  device: Type.Optional(Type.String({
    minLength: 1, maxLength: DEVICE_MAX,
    description: 'What the back office calls this device ("Tablet 3"), listed with its session (GET /sessions); without it, the User-Agent\'s short form',
  })),
}, { examples: [{ name: 'marisol', pin: '2580', device: 'Tablet 3' }] });
/** A refused refresh: `reason` says when a manager ended the session (the device tells its waiter). */
export const RefreshRefused = Type.Object({
  message: Type.Literal('Unauthorized'),
  reason: Type.Optional(Type.Literal(REVOKED, { description: 'the session was ended from the back office (POST /sessions/{id}/revoke)' })),
});
/** The body of a refused refresh. */
export const refused = (outcome: typeof REVOKED | null) => ({ message: 'Unauthorized' as const, ...(outcome ? { reason: outcome } : {}) });
/** A locked name or address: the answer of every throttled sign-in (login, tokens, the wallet). */
export const TooMany = Type.Object({ message: Type.String(), retryAfter: Type.Integer({ description: 'seconds' }) });

/** Answer for a locked name or address: 429 with Retry-After. */
export function tooManyAttempts(reply: FastifyReply, seconds: number) {
  return reply
    .code(429)
    .header('retry-after', String(seconds))
    .send({ message: 'Too many failed attempts; try again later', retryAfter: seconds });
}

/**
 * Signs a member in by name and PIN, or answers for the refusal (429 locked, 401 wrong): the one
 * path of both sign-ins (cookies and bearer tokens), so their throttling and messages never differ.
 */
export async function signInOrRefuse(
  sessions: Awaited<ReturnType<typeof staffSessions>>, request: FastifyRequest, reply: FastifyReply, credentials: Static<typeof LoginBody>,
): Promise<SignedIn | null> {
  const signed = await sessions.signIn(request, credentials.name, credentials.pin, credentials.device);
  if (signed && 'retryAfter' in signed) {
    await tooManyAttempts(reply, signed.retryAfter);
    return null;
  }
  if (!signed) {
    await reply.code(401).send({ message: 'Invalid credentials' });
    return null;
  }
  return signed;
}

/** Session endpoints for browsers: login with name and PIN, refresh with rotation, logout, in HttpOnly cookies. */
export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const sessions = await staffSessions(app);
  const issue = (request: FastifyRequest, reply: FastifyReply, signed: SignedIn) => {
    app.setAuthCookie(request, reply, 'accessToken', signed.access, ACCESS_TTL_S);
    app.setAuthCookie(request, reply, 'refreshToken', signed.refresh, REFRESH_TTL_S);
  };
  const clear = (request: FastifyRequest, reply: FastifyReply) => {
    app.clearAuthCookie(request, reply, 'accessToken');
    app.clearAuthCookie(request, reply, 'refreshToken');
  };

  app.post('/auth/login', {
    config: { permission: 'anyone' },
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
    const signed = await signInOrRefuse(sessions, request, reply, request.body);
    if (!signed) return reply;
    issue(request, reply, signed);
    return { message: 'Login successful', user: signed.member };
  });

  app.post('/auth/refresh', {
    config: { permission: 'anyone' },
    schema: {
      tags: ['auth'],
      summary: 'New access token from the refresh cookie',
      description: 'Rotates the refresh token. The same refresh token presented again within 10 s of its rotation (two tabs, a retry) is answered the same new cookies; presented later (a stolen copy) it revokes the whole session. Idempotency-Key is ignored here.',
      response: {
        200: withHeaders(Type.Object({ message: Type.Literal('Access token refreshed successfully') }), Headers.setCookie),
        401: withHeaders(Type.Object(RefreshRefused.properties, { description: 'No valid refresh token, or the session is revoked (a reused refresh token revokes it; so does a manager, said in `reason`): both cookies are cleared' }), Headers.setCookie),
      },
    },
  }, async (request, reply) => {
    const signed = await sessions.refresh(request, request.cookies.refreshToken);
    if (!signed || signed === REVOKED) {
      clear(request, reply);
      return reply.code(401).send(refused(signed));
    }
    issue(request, reply, signed);
    return { message: 'Access token refreshed successfully' as const };
  });

  app.post('/auth/logout', {
    config: { permission: 'anyone' },
    schema: {
      tags: ['auth'],
      summary: 'End the session',
      description: 'Revokes the session and clears both cookies (same Path as set): access tokens of the session stop working at once. Works with an expired access token. Idempotency-Key is ignored here.',
      response: { 200: withHeaders(Type.Object({ message: Type.Literal('Logout successful') }), Headers.setCookie) },
    },
  }, async (request, reply) => {
    await sessions.end(request, request.cookies.refreshToken);
    clear(request, reply);
    return { message: 'Logout successful' as const };
  });

  app.get('/auth/me', {
    config: { permission: 'profile:read' },
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
