import type { Decider } from '../decider.js';
import { DomainError, conflict, notFound, validationFailed } from '../errors.js';

/**
 * A login session (`session-<id>`): the refresh token carries the session id and a generation. Each
 * refresh moves the generation on; presenting an older generation means the token was copied, and
 * the whole session is revoked, except for the generation just rotated out within
 * REFRESH_REUSE_GRACE_MS of its rotation (see there). Two refreshes racing with one token: the
 * append's expected revision lets one win; the other decides again on the rotated state, finds its
 * token just rotated out, and is answered the same pair.
 */
export const sessionStream = (sessionId: string) => `session-${sessionId}`;

/**
 * How long after a rotation the refresh token it replaced is still answered, with the pair that
 * rotation issued, instead of revoking the session. Honest clients present one token twice: two tabs
 * refresh at once with the cookie they share, or a client retries a refresh whose answer it lost (a
 * timeout, a dropped connection). Revoking then signs the member out for nothing. A copy of the token
 * presented within the window gets only the pair the rightful holder got (no further generation, and
 * the next rotation ends the window); after it, reuse revokes the session as before. 10 s covers a
 * retry after a slow network without leaving a stolen token much room.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;

export interface Session {
  sessionId: string | null;
  userId: string | null;
  generation: number;
  expiresAt: number;
  revoked: boolean;
  /**
   * When the current generation was issued by a refresh (ms), null at sign-in or for a refresh
   * recorded before issue 58. The tokens of the generation are signed as issued at this time, so they
   * can be signed again, byte for byte, for a reuse within the grace.
   */
  rotatedAt: number | null;
  /** The device it was started from (issue 59), null before. */
  device: string | null;
  /** Who ended it from the back office (a manager's revoke), so the device can be told so. */
  revokedBy: string | null;
}

/**
 * The device a session was started from, as the back office names it ("Tablet 3", or the browser's
 * short name): a label the device chose, never anything that signs in.
 */
export const DEVICE_MAX = 64;

/** Who ended someone's session from the back office, and why (issue 59): the audit trail shows it. */
export interface SessionRevocation { by: string; why: string; at: number }

export type SessionEvent =
  /** `device` and `at` (when it was signed in) from issue 59: absent in older events. */
  | { type: 'SessionStarted'; data: { sessionId: string; userId: string; expiresAt: number; device?: string; at?: number } }
  /** `at`: when the rotation happened (absent in events written before issue 58: no grace for those). */
  | { type: 'SessionRefreshed'; data: { generation: number; expiresAt: number; at?: number } }
  /** A manager's revoke names whose session it was and its device, so the audit trail reads alone. */
  | { type: 'SessionRevoked'; data: { reason: 'logout' | 'refresh token reused' } | ({ reason: 'revoked'; userId: string; device: string | null } & SessionRevocation) };

export type SessionCommand =
  | { type: 'startSession'; sessionId: string; userId: string; expiresAt: number; device?: string; at?: number }
  | { type: 'refreshSession'; generation: number; now: number; expiresAt: number }
  | { type: 'endSession' }
  | ({ type: 'revokeSession' } & SessionRevocation);

export const unauthorized = () => new DomainError('unauthorized', 'Unauthorized');

/** Whether `generation` is the one the last rotation replaced, presented within the grace of it. */
function reusedInGrace(state: Session, generation: number, now: number): boolean {
  return generation === state.generation - 1 && state.rotatedAt !== null && now - state.rotatedAt <= REFRESH_REUSE_GRACE_MS;
}

export const session: Decider<SessionCommand, SessionEvent, Session> = {
  initialState: () => ({ sessionId: null, userId: null, generation: 0, expiresAt: 0, revoked: false, rotatedAt: null, device: null, revokedBy: null }),

  decide(command, state) {
    switch (command.type) {
      case 'startSession':
        if (state.sessionId) return [];
        return [{
          type: 'SessionStarted',
          data: {
            sessionId: command.sessionId, userId: command.userId, expiresAt: command.expiresAt,
            ...(command.device !== undefined ? { device: command.device } : {}), ...(command.at !== undefined ? { at: command.at } : {}),
          },
        }];
      case 'refreshSession':
        if (!state.sessionId || state.revoked || command.now >= state.expiresAt) throw unauthorized();
        if (command.generation === state.generation) {
          return [{ type: 'SessionRefreshed', data: { generation: state.generation + 1, expiresAt: command.expiresAt, at: command.now } }];
        }
        // The token just rotated out, again within the grace: nothing changes, and the caller answers
        // the current generation's pair (the one that rotation issued).
        if (reusedInGrace(state, command.generation, command.now)) return [];
        return [{ type: 'SessionRevoked', data: { reason: 'refresh token reused' } }];
      case 'endSession':
        if (!state.sessionId || state.revoked) return [];
        return [{ type: 'SessionRevoked', data: { reason: 'logout' } }];
      case 'revokeSession':
        // An expired session is as good as ended: revoking it would record a cut that cut nothing.
        if (!state.sessionId || !state.userId) throw notFound();
        if (state.revoked || command.at >= state.expiresAt) throw conflict('The session has already ended');
        if (!command.why.trim()) throw validationFailed([{ field: 'reason', message: 'must say why the session is ended' }]);
        return [{ type: 'SessionRevoked', data: { reason: 'revoked', userId: state.userId, device: state.device, by: command.by, why: command.why.trim(), at: command.at } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'SessionStarted':
        return { ...state, sessionId: event.data.sessionId, userId: event.data.userId, expiresAt: event.data.expiresAt, device: event.data.device ?? null };
      case 'SessionRefreshed':
        return { ...state, generation: event.data.generation, expiresAt: event.data.expiresAt, rotatedAt: event.data.at ?? null };
      case 'SessionRevoked':
        return { ...state, revoked: true, revokedBy: event.data.reason === 'revoked' ? event.data.by : null };
    }
  },
};
