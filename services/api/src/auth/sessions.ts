import { DomainError, type Role, STAFF_STREAM, findByName, newId, roster, session, sessionStream } from '@comanda/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LoginThrottle } from './throttle.js';
import { hashSecret, verifySecret } from './pin.js';
import { ACCESS_TTL_S, REFRESH_TTL_S } from '../plugins/auth.js';
import { writeContext } from '../http/write-context.js';
import { deviceLabel } from './device.js';

export type Member = { id: string; name: string; role: Role };
export type SignedIn = { member: Member; access: string; refresh: string };
export type SignIn = SignedIn | { retryAfter: number } | null;
/** A refresh refused because a manager ended the session (issue 59): the device says so to its waiter. */
export const REVOKED = 'signed out by a manager' as const;

/**
 * What every way of holding a session shares, cookies for browsers and bearer tokens for other clients:
 * sign in with name and PIN (throttled), refresh with rotation (a refresh token presented twice revokes
 * the session, but for a grace of seconds after its rotation), and end. Each step meets the session
 * decider; the tokens are the same JWTs either way.
 */
export function staffSessions(app: FastifyInstance): ReturnType<typeof makeSessions> {
  // One per app: the cookie routes and the token routes share it (and its decoy hash, a PBKDF2 run made once at start).
  let sessions = made.get(app.deps);
  if (!sessions) made.set(app.deps, (sessions = makeSessions(app)));
  return sessions;
}

const made = new WeakMap<object, ReturnType<typeof makeSessions>>();

async function makeSessions(app: FastifyInstance) {
  const throttle = new LoginThrottle(app.deps.attempts, 'login', app.now);
  // Unknown names still pay for a PBKDF2 run, so timing does not tell which names exist.
  const decoyHash = await hashSecret('decoy', app.deps.masterKey, '\u0000decoy');
  const { commands } = app.deps;
  /**
   * A generation's pair, issued at `issuedAt` (ms). Nothing of a token is stored: a token is its claims
   * signed with the key derived from the master key, and the claims are the session id, the
   * generation, the member, and the time its rotation recorded (SessionRefreshed `at`). So a
   * reuse of the token just rotated out, within the grace (REFRESH_REUSE_GRACE_MS), is answered
   * the pair the rotation issued by signing the same claims again: byte for byte the same on any
   * replica, with no token (nor a hash of one) in the log, the logs or memory. Only the access token's
   * role can differ, when the member's role changed in those seconds (the roster decides anyway).
   */
  const tokens = (member: Member, sid: string, gen: number, issuedAt?: number): SignedIn => ({
    member,
    access: app.signToken({ sub: member.id, role: member.role, sid, typ: 'access' }, ACCESS_TTL_S, issuedAt),
    refresh: app.signToken({ sub: member.id, sid, gen, typ: 'refresh' }, REFRESH_TTL_S, issuedAt),
  });
  const sessionContext = (request: FastifyRequest, claims: Record<string, unknown>) => ({
    userId: typeof claims.sub === 'string' ? claims.sub : null,
    correlationId: request.id,
  });

  /**
   * The member a name and PIN belong to; `{retryAfter}` while the (address, name) pair is locked; null
   * for wrong credentials. One throttle for every use of a PIN (a sign-in, a manager's approval), so no
   * way of trying PINs escapes the lock.
   */
  async function checkPin(request: FastifyRequest, name: string, pin: string): Promise<Member | { retryAfter: number } | null> {
    const wait = await throttle.admit(request.ip, name);
    if (wait > 0) return { retryAfter: wait };
    const { state } = await commands.state(roster, STAFF_STREAM);
    const member = findByName(state, name);
    const ok = await verifySecret(pin, app.deps.masterKey, member?.name ?? '\u0000decoy', member?.pinHash ?? decoyHash);
    if (!member || !ok) return null;
    await throttle.succeed(request.ip, name);
    return { id: member.id, name: member.name, role: member.role };
  }

  return {
    checkPin,

    /**
     * The member and fresh tokens; `{retryAfter}` while the (address, name) pair is locked; null for
     * wrong credentials. The session records the device it came from (`device`, else the User-Agent's
     * short form) for the back office's list of sessions.
     */
    async signIn(request: FastifyRequest, name: string, pin: string, device?: string): Promise<SignIn> {
      const member = await checkPin(request, name, pin);
      if (!member || 'retryAfter' in member) return member;
      const sid = newId();
      const label = deviceLabel(device, request.headers['user-agent']);
      const at = app.now();
      await commands.handle(session, sessionStream(sid), {
        type: 'startSession', sessionId: sid, userId: member.id, expiresAt: at + REFRESH_TTL_S * 1000, at, ...(label ? { device: label } : {}),
      }, { ...writeContext(request), userId: member.id });
      return tokens(member, sid, 0);
    },

    /**
     * Rotated tokens for a valid refresh token, or null (invalid, expired, reused: the session is then
     * revoked), or REVOKED when a manager ended the session. The token just rotated out, presented
     * again within the grace (two tabs, a retry), is answered the pair its rotation issued; the decider
     * then records nothing.
     */
    async refresh(request: FastifyRequest, refreshToken: string | undefined): Promise<SignedIn | typeof REVOKED | null> {
      const claims = app.readToken(refreshToken, 'refresh');
      if (!claims || typeof claims.sid !== 'string' || typeof claims.gen !== 'number') return null;
      const now = app.now();
      const stream = sessionStream(claims.sid);
      const result = await commands.handle(session, stream, {
        type: 'refreshSession', generation: claims.gen, now, expiresAt: now + REFRESH_TTL_S * 1000,
      }, sessionContext(request, claims)).catch(async (error: unknown) => {
        if (!(error instanceof DomainError) || error.kind !== 'unauthorized') throw error;
        return (await commands.state(session, stream)).state.revokedBy ? REVOKED : null;
      });
      if (result === null || result === REVOKED) return result;
      const { state } = await commands.state(roster, STAFF_STREAM);
      const member = result.state.userId ? state.members[result.state.userId] : undefined;
      if (result.state.revoked || !member) {
        if (!member && !result.state.revoked) await commands.handle(session, sessionStream(claims.sid), { type: 'endSession' });
        return null;
      }
      return tokens({ id: member.id, name: member.name, role: member.role }, claims.sid, result.state.generation, result.state.rotatedAt ?? now);
    },

    /** Ends the session a refresh token names (nothing when it names none). */
    async end(request: FastifyRequest, refreshToken: string | undefined): Promise<void> {
      const claims = app.readToken(refreshToken, 'refresh');
      if (claims && typeof claims.sid === 'string') {
        await commands.handle(session, sessionStream(claims.sid), { type: 'endSession' }, sessionContext(request, claims));
      }
    },
  };
}
