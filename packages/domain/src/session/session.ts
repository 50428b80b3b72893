import type { Decider } from '../decider.js';
import { DomainError } from '../errors.js';

/**
 * A login session (`session-<id>`): the refresh token carries the session id and a generation. Each
 * refresh moves the generation on; presenting an older generation means the token was copied, and
 * the whole session is revoked. Two refreshes racing with one token: the append's expected revision
 * lets one win, and the other then presents a stale generation.
 */
export const sessionStream = (sessionId: string) => `session-${sessionId}`;

export interface Session {
  sessionId: string | null;
  userId: string | null;
  generation: number;
  expiresAt: number;
  revoked: boolean;
}

export type SessionEvent =
  | { type: 'SessionStarted'; data: { sessionId: string; userId: string; expiresAt: number } }
  | { type: 'SessionRefreshed'; data: { generation: number; expiresAt: number } }
  | { type: 'SessionRevoked'; data: { reason: 'logout' | 'refresh token reused' } };

export type SessionCommand =
  | { type: 'startSession'; sessionId: string; userId: string; expiresAt: number }
  | { type: 'refreshSession'; generation: number; now: number; expiresAt: number }
  | { type: 'endSession' };

export const unauthorized = () => new DomainError('unauthorized', 'Unauthorized');

export const session: Decider<SessionCommand, SessionEvent, Session> = {
  initialState: () => ({ sessionId: null, userId: null, generation: 0, expiresAt: 0, revoked: false }),

  decide(command, state) {
    switch (command.type) {
      case 'startSession':
        if (state.sessionId) return [];
        return [{ type: 'SessionStarted', data: { sessionId: command.sessionId, userId: command.userId, expiresAt: command.expiresAt } }];
      case 'refreshSession':
        if (!state.sessionId || state.revoked || command.now >= state.expiresAt) throw unauthorized();
        if (command.generation !== state.generation) return [{ type: 'SessionRevoked', data: { reason: 'refresh token reused' } }];
        return [{ type: 'SessionRefreshed', data: { generation: state.generation + 1, expiresAt: command.expiresAt } }];
      case 'endSession':
        if (!state.sessionId || state.revoked) return [];
        return [{ type: 'SessionRevoked', data: { reason: 'logout' } }];
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'SessionStarted':
        return { ...state, sessionId: event.data.sessionId, userId: event.data.userId, expiresAt: event.data.expiresAt };
      case 'SessionRefreshed':
        return { ...state, generation: event.data.generation, expiresAt: event.data.expiresAt };
      case 'SessionRevoked':
        return { ...state, revoked: true };
    }
  },
};
