import jwt from '@fastify/jwt';
import { createVerifier } from 'fast-jwt';
import { type DomainError, type Permission, type Role, type Roster, type Session, STAFF_STREAM, forbidden, isRole, may, roster, session, sessionStream, unauthorized } from '@comanda/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { deriveKey } from '../auth/keys.js';
import { NO_STORE } from './security.js';

export interface StaffIdentity {
  id: string;
  role: Role;
  sessionId: string;
}

export const ACCESS_TTL_S = 60;
export const REFRESH_TTL_S = 30 * 24 * 3600;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route: signed-in staff whose role has this permission, or 'anyone'. */
    permission?: Permission | 'anyone';
  }
  interface FastifyRequest {
    /** Set by `authenticate` once the access token, its session and its user are verified (role from the roster). */
    staff?: StaffIdentity;
  }
  interface FastifyInstance {
    now(): number;
    /**
     * onRequest hook of the API's context: a valid access token (401) whose role has the route's
     * `config.permission` (403). It runs before the body is parsed and validated, so an anonymous
     * caller learns nothing about the input rules.
     */
    authenticate: onRequestHookHandler;
    /**
     * A signed JWT of the claims, issued now or at `issuedAt` (ms). HS256 is deterministic: the same
     * claims issued at the same second give the same token, which lets a refresh within the grace
     * hand out again the pair a rotation issued (auth/sessions.ts).
     */
    signToken(claims: Record<string, unknown>, ttlSeconds: number, issuedAt?: number): string;
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
  // Declared up front, as Fastify asks of request fields: set on a request after it is built, every
  // request object would change its shape on the way through.
  app.decorateRequest('staff', undefined);
  const secret = deriveKey(app.deps.masterKey, 'jwt');
  await app.register(jwt, { secret, sign: { algorithm: 'HS256' } });
  // One verifier for the process (@fastify/jwt builds a new one, key included, on every call that
  // passes options, and the clock must be passed for tests to move it). Expiry is checked against
  // `now()`, as fast-jwt would (valid while now ≤ exp).
  const verifySignature = createVerifier({ key: secret, algorithms: ['HS256'], ignoreExpiration: true, ignoreNotBefore: true });
  const signedClaims = (token: string) => verifySignature(token) as Record<string, unknown>;

  app.decorate('signToken', (claims: Record<string, unknown>, ttlSeconds: number, issuedAt: number = now()) => {
    const iat = Math.floor(issuedAt / 1000);
    return app.jwt.sign({ ...claims, iat, exp: iat + ttlSeconds });
  });

  /** The token's claims if its signature holds, else null. */
  const claimsOf = (token: string | undefined): Record<string, unknown> | null => {
    if (!token) return null;
    try {
      return signedClaims(token);
    } catch {
      return null;
    }
  };

  app.decorate('readToken', (token: string | undefined, type: string) => {
    const claims = claimsOf(token);
    return claims && inTime(claims, now()) && claims.typ === type ? claims : null;
  });

  // undefined when the request names no bearer token (then the cookie counts), null for a bad one.
  const tokenOf = (authorization: string | undefined): Bearer | null | undefined => {
    if (authorization === undefined || !/^Bearer /i.test(authorization)) return undefined;
    const match = /^Bearer +(\S+)$/i.exec(authorization);
    return match ? accessBearer(match[1]) : null;
  };
  const cookieBearer = (request: FastifyRequest): Bearer | null => accessBearer(request.cookies.accessToken);
  const accessBearer = (token: string | undefined): Bearer | null => {
    const claims = claimsOf(token);
    if (!claims) return null;
    const { sub, sid, role, typ } = claims;
    if (typ !== 'access' || typeof sub !== 'string' || !isRole(role) || typeof sid !== 'string') return null;
    return { claims, sub, sid, stream: sessionStream(sid) };
  };

  const secure = (request: FastifyRequest) => app.deps.config.production || request.protocol === 'https';
  // An answer that sets or clears a cookie is never stored (a cache would hand the cookie to another).
  app.decorate('setAuthCookie', (request: FastifyRequest, reply: FastifyReply, name: string, value: string, ttl: number) => {
    reply.setCookie(name, value, { httpOnly: true, sameSite: 'strict', path: '/', secure: secure(request), maxAge: ttl }).header('cache-control', NO_STORE);
  });
  app.decorate('clearAuthCookie', (request: FastifyRequest, reply: FastifyReply, name: string) => {
    reply.clearCookie(name, { httpOnly: true, sameSite: 'strict', path: '/', secure: secure(request) }).header('cache-control', NO_STORE);
  });

  const { commands } = app.deps;
  // Revocation bites at once: the session must still be open and the user still on the roster, and
  // the role is the roster's, not the token's (a demoted manager loses the rights now, not when the
  // token expires).
  const memberOf = (bearer: Bearer, open: Session, staff: Roster): Member | undefined => {
    const member = staff.members[bearer.sub];
    return !open.sessionId || open.revoked || open.userId !== bearer.sub ? undefined : member;
  };
  // The bearer's member from the folds in memory (undefined: refused), or 'read' when the store has
  // been written since and a fold must be read first. Both folds are cached, so almost every request
  // is decided here without a wait.
  const memberNow = (bearer: Bearer): Member | undefined | 'read' => {
    const open = commands.currentState(session, bearer.stream);
    const staff = commands.currentState(roster, STAFF_STREAM);
    return open && staff ? memberOf(bearer, open.state, staff.state) : 'read';
  };

  const admit = (request: FastifyRequest, reply: FastifyReply, permission: Permission, bearer: Bearer, member: Member | undefined): DomainError | undefined => {
    if (!member) return unauthorized();
    request.staff = { id: member.id, role: member.role, sessionId: bearer.sid };
    // Whatever this request is answered, it is staff data: no cache keeps it (a route that chooses
    // its own, as revalidated reads do, sets it after this).
    reply.header('cache-control', NO_STORE);
    return may(member.role, permission) ? undefined : forbidden();
  };
  app.decorate('authenticate', function authenticate(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) {
    const permission = request.routeOptions.config.permission;
    if (permission === undefined || permission === 'anyone') return done();
    // A client that is not a browser sends its access token as `Authorization: Bearer`; browsers send the cookie.
    const named = tokenOf(request.headers.authorization);
    const bearer = named === undefined ? cookieBearer(request) : named;
    if (!bearer || !inTime(bearer.claims, now())) return done(unauthorized());
    const member = memberNow(bearer);
    if (member !== 'read') return done(admit(request, reply, permission, bearer, member));
    // Something was written since: read only the events not yet seen.
    Promise.all([commands.state(session, bearer.stream), commands.state(roster, STAFF_STREAM)]).then(
      ([o, r]) => done(admit(request, reply, permission, bearer, memberOf(bearer, o.state, r.state))),
      (error: Error) => done(error),
    );
  });
});

/**
 * The hook of the API's parent context: every route in it says who may call it, or the service does
 * not start (a route forgotten would otherwise be open to anyone).
 */
export function requirePermission(route: RouteOptions): void {
  if (route.config?.permission === undefined) throw new Error(`${String(route.method)} ${route.url} declares no permission (config.permission: a permission or 'anyone')`);
}

/** A member of staff as the roster holds them. */
type Member = Roster['members'][string];

/** An access token's verified claims, as a Cookie header carried it. */
interface Bearer {
  claims: Record<string, unknown>;
  sub: string;
  sid: string;
  /** The session's stream, named once. */
  stream: string;
}

/** Whether `at` lies within the token's `nbf`–`exp` (either may be absent), as fast-jwt checks them. */
function inTime(claims: Record<string, unknown>, at: number): boolean {
  if (claims.exp !== undefined && (typeof claims.exp !== 'number' || at > claims.exp * 1000)) return false;
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || at < claims.nbf * 1000)) return false;
  return true;
}
