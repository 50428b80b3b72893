import jwt from '@fastify/jwt';
import { createVerifier } from 'fast-jwt';
import { type DomainError, type Permission, type Role, type Roster, type Session, STAFF_STREAM, forbidden, isRole, may, roster, session, sessionStream, unauthorized } from '@comanda/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
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
  // Declared up front, as Fastify asks of request fields: set on a request after it is built, every
  // request object would change its shape on the way through.
  app.decorateRequest('staff', undefined);
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
      keepAtMost(verified, token, claims);
    }
    return claims;
  };

  app.decorate('signToken', (claims: Record<string, unknown>, ttlSeconds: number) => {
    const iat = Math.floor(now() / 1000);
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

  // What a Cookie header says of its access token, worked out once per header: a tablet sends the
  // same header with every request of its token's minute, and parsing it, finding the token's checked
  // signature (a Map keyed by the 200-character token) and naming the session's stream cost a
  // signed-in request about a microsecond. The token's time limits are checked on every request.
  const bearers = new Map<string, Bearer | null>();
  const bearerOf = (header: string | undefined): Bearer | null => {
    if (header === undefined) return null;
    let bearer = bearers.get(header);
    if (bearer === undefined) {
      bearer = accessBearer(app.parseCookie(header).accessToken);
      keepAtMost(bearers, header, bearer);
    }
    return bearer;
  };
  // A tablet's connection carries the same Cookie header request after request: the bearer its last
  // request named is kept with the connection, and a header equal to that one (compared, not hashed
  // as a Map key) needs no lookup.
  const lastOnConnection = new WeakMap<object, { header: string; bearer: Bearer | null }>();
  const connectionBearer = (request: FastifyRequest): Bearer | null => {
    const header = request.headers.cookie;
    if (header === undefined) return null;
    const connection = request.raw.socket;
    const last = lastOnConnection.get(connection);
    if (last !== undefined && last.header === header) return last.bearer;
    const bearer = bearerOf(header);
    if (last !== undefined) {
      last.header = header;
      last.bearer = bearer;
    } else {
      lastOnConnection.set(connection, { header, bearer });
    }
    return bearer;
  };
  const tokens = new Map<string, Bearer | null>();
  // undefined when the request names no bearer token (then the cookie counts), null for a bad one.
  const tokenOf = (authorization: string | undefined): Bearer | null | undefined => {
    if (authorization === undefined || !/^Bearer /i.test(authorization)) return undefined;
    const match = /^Bearer +(\S+)$/i.exec(authorization);
    if (!match) return null;
    let bearer = tokens.get(match[1]!);
    if (bearer === undefined) {
      bearer = accessBearer(match[1]);
      keepAtMost(tokens, match[1]!, bearer);
    }
    return bearer;
  };
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

  app.decorate('authorize', (permission: Permission): onRequestHookHandler => {
    const admit = (request: FastifyRequest, reply: FastifyReply, bearer: Bearer, member: Member | undefined): DomainError | undefined => {
      if (!member) return unauthorized();
      request.staff = { id: member.id, role: member.role, sessionId: bearer.sid };
      // Whatever this request is answered, it is staff data: no cache keeps it (a route that chooses
      // its own, as revalidated lists do, sets it after this).
      reply.header('cache-control', NO_STORE);
      return may(member.role, permission) ? undefined : forbidden();
    };
    // The permission is readable on the hook, so the OpenAPI document can mark the route as guarded.
    const hook = Object.assign(function authorized(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) {
      // A client that is not a browser sends its access token as `Authorization: Bearer`; browsers send the cookie.
      const named = tokenOf(request.headers.authorization);
      const bearer = named === undefined ? connectionBearer(request) : named;
      if (!bearer || !inTime(bearer.claims, now())) return done(unauthorized());
      const member = memberNow(bearer);
      if (member !== 'read') return done(admit(request, reply, bearer, member));
      // Something was written since: read only the events not yet seen.
      Promise.all([commands.state(session, bearer.stream), commands.state(roster, STAFF_STREAM)]).then(
        ([o, r]) => done(admit(request, reply, bearer, memberOf(bearer, o.state, r.state))),
        (error: Error) => done(error),
      );
    }, { permission });
    return hook;
  });
});

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

/** Remembers `value` under `key`, the oldest entry dropped beyond 1,000 (tokens and headers come from clients). */
function keepAtMost<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= 1000) map.delete(map.keys().next().value!);
  map.set(key, value);
}
