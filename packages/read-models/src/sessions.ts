import type { SessionEvent } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';

/**
 * The sessions still open, as the back office lists them (issue 59): who, from which device, signed in
 * when, last refreshed when. An ended one (logout, a reused refresh token, a manager's revoke) is
 * removed; an expired one stays, so the route asks only for those before `expires_at`. Nothing
 * that signs in is kept: no token, no generation.
 */
export type SessionView = Tracked & {
  id: string; user_id: string; device: string | null; signed_in_at: number; last_refreshed_at: number | null; expires_at: number;
};

export const SESSIONS = 'sessions';

export const sessionsProjection = projectionOf<SessionEvent>({
  name: 'sessions',
  handles: ['SessionStarted', 'SessionRefreshed', 'SessionRevoked'],
  // The list asks for those not expired yet: a tablet's session never signed out of stays until it expires.
  collections: { [SESSIONS]: [{ expires_at: 1 }] },
  async apply(e, store) {
    const id = e.stream.slice('session-'.length);
    await updateDocument(store.collection<SessionView>(SESSIONS), id, e, (s) => {
      switch (e.type) {
        case 'SessionStarted':
          // Sign-ins recorded before issue 59 carry no time of their own: the log's is as good.
          return { _id: id, id, user_id: e.data.userId, device: e.data.device ?? null, signed_in_at: e.data.at ?? e.recordedAt, last_refreshed_at: null, expires_at: e.data.expiresAt };
        case 'SessionRefreshed':
          return s ? { ...s, last_refreshed_at: e.data.at ?? e.recordedAt, expires_at: e.data.expiresAt } : undefined;
        case 'SessionRevoked':
          return null;
      }
    });
  },
});
