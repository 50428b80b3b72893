import jwt from '@fastify/jwt';
import { createVerifier } from 'fast-jwt';
import { type DomainError, type Permission, type Role, type Roster, type Session, STAFF_STREAM, forbidden, isRole, may, roster, session, sessionStream, unauthorized } from '@comanda/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { deriveKey } from '../auth/keys.js';
import { readCookie } from '../http/cookies.js';

export interface StaffIdentity {
  id: string;
  role: Role;
  sessionId: string;
}

export const ACCESS_TTL_S = 60;
export const REFRESH_TTL_S = 30 * 24 * 3600;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `authorize` once the access token, its session and its user are verified (role from the roster). */
    staff?: StaffIdentity;
  }
  interface FastifyInstance {
    now(): number;
    /**
     * onRequest hook: a valid access token (401) whose role has the permission (403). It runs before
     * the body is parsed and validated, so an anonymous caller learns nothing about the input rules.
     */
    authorize(permission: Permission): onRequestHookHandler;
    signToken(claims: Record<string, unknown>, ttlSeconds: number): string;
    /** Verified claims of a token of the given type, or null. */
    readToken(token: string | undefined, type: string): Record<string, unknown> | null;
    setAuthCookie(request: FastifyRequest, reply: FastifyReply, name: string, value: string, ttlSeconds: number): void;
    clearAuthCookie(request: FastifyRequest, reply: FastifyReply, name: string): void;
  }
}

/**
 * JWTs in HttpOnly, SameSite=Strict cookies, signed with a key derived from the master key. Every
 * token names its type (access, refresh, wallet), so one kind can never stand in for another.
 */
export default fp(async function auth(app: FastifyInstance) {
  const now = app.deps.now ?? Date.now;
  app.decorate('now', now);
  const secret = deriveKey(app.deps.masterKey, 'jwt');
  await app.register(jwt, { secret, sign: { algorithm: 'HS256' } });
  // One verifier for the process (@fastify/jwt builds a new one, key included, on every call that
  // passes options, and the clock must be passed for tests to move it), remembering the tokens whose
  // signature it has checked: every request of a tablet carries the same access token for its
  // minute. Expiry is checked on every call against `now()`, as fast-jwt would (valid while now ≤ exp).
  const verifySignature = createVerifier({ key: secret, algorithms: ['HS256'], ignoreExpiration: true, ignoreNotBefore: true });
  const verified = new Map<string, Record<string, unknown>>();
  const signedClaims = (token: string) => {
    let claims = verified.get(token);
    if (!claims) {
      claims = Object.freeze(verifySignature(token) as Record<string, unknown>);
      if (verified.size >= 1000) verified.delete(verified.keys().next().value!);
      verified.set(token, claims);
    }
    return claims;
  };

  app.decorate('signToken', (claims: Record<string, unknown>, ttlSeconds: number) => {
    const iat = Math.floor(now() / 1000);
    return app.jwt.sign({ ...claims, iat, exp: iat + ttlSeconds });
  });

  app.decorate('readToken', (token: string | undefined, type: string) => {
    if (!token) return null;
    let claims: Record<string, unknown>;
    try {
      claims = signedClaims(token);
    } catch {
      return null;
    }
    const at = now();
    if (claims.exp !== undefined && (typeof claims.exp !== 'number' || at > claims.exp * 1000)) return null;
    if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || at < claims.nbf * 1000)) return null;
    return claims.typ === type ? claims : null;
  });

  const secure = (request: FastifyRequest) => app.deps.config.production || request.protocol === 'https';
  app.decorate('setAuthCookie', (request: FastifyRequest, reply: FastifyReply, name: string, value: string, ttl: number) => {
    reply.setCookie(name, value, { httpOnly: true, sameSite: 'strict', path: '/', secure: secure(request), maxAge: ttl });
  });
  app.decorate('clearAuthCookie', (request: FastifyRequest, reply: FastifyReply, name: string) => {
    reply.clearCookie(name, { httpOnly: true, sameSite: 'strict', path: '/', secure: secure(request) });
  });

  app.decorate('authorize', (permission: Permission): onRequestHookHandler => {
    const { commands } = app.deps;
    // Revocation bites at once: the session must still be open and the user still on the roster,
    // and the role is the roster's, not the token's (a demoted manager loses the rights now, not
    // when the token expires).
    const admit = (request: FastifyRequest, sid: string, sub: string, open: Session, staff: Roster): DomainError | undefined => {
      const member = staff.members[sub];
      if (!open.sessionId || open.revoked || open.userId !== sub || !member) return unauthorized();
      request.staff = { id: member.id, role: member.role, sessionId: sid };
      return may(member.role, permission) ? undefined : forbidden();
    };
    // The permission is readable on the hook, so the OpenAPI document can mark the route as guarded.
    return Object.assign(function authorized(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) {
      const claims = app.readToken(readCookie(request, 'accessToken'), 'access');
      if (!claims || typeof claims.sub !== 'string' || !isRole(claims.role) || typeof claims.sid !== 'string') return done(unauthorized());
      const { sub, sid } = claims;
      // Both folds are cached: when the store can tell nothing was written to either since, the check
      // runs without a wait (almost every request); otherwise it reads only the events not yet seen.
      const open = commands.currentState(session, sessionStream(sid));
      const staff = commands.currentState(roster, STAFF_STREAM);
      if (open && staff) return done(admit(request, sid, sub, open.state, staff.state));
      Promise.all([commands.state(session, sessionStream(sid)), commands.state(roster, STAFF_STREAM)]).then(
        ([o, r]) => done(admit(request, sid, sub, o.state, r.state)),
        (error: Error) => done(error),
      );
    }, { permission });
  });
});
