import t from 'tap';
import { type SessionEvent, session } from '../src/index.js';
import { given } from './given.js';

const started: SessionEvent = { type: 'SessionStarted', data: { sessionId: 's1', userId: 'u1', expiresAt: 1000 } };
const refreshed: SessionEvent = { type: 'SessionRefreshed', data: { generation: 1, expiresAt: 2000 } };
const unauthorized = { error: { kind: 'unauthorized', message: 'Unauthorized' } };

t.test('a session starts once', async (t) => {
  t.same(given(session, []).when({ type: 'startSession', sessionId: 's1', userId: 'u1', expiresAt: 1000 }), { events: [started] });
  t.same(given(session, [started]).when({ type: 'startSession', sessionId: 's1', userId: 'u1', expiresAt: 5000 }), { events: [] });
});

t.test('a refresh moves the generation on and the expiry out', async (t) => {
  t.same(given(session, [started]).when({ type: 'refreshSession', generation: 0, now: 10, expiresAt: 2000 }), { events: [refreshed] });
  t.same(given(session, [started, refreshed]).when({ type: 'refreshSession', generation: 1, now: 1500, expiresAt: 3000 }), {
    events: [{ type: 'SessionRefreshed', data: { generation: 2, expiresAt: 3000 } }],
  }, 'the refreshed expiry counts, not the first one');
});

t.test('a refresh token presented twice (a stolen copy) revokes the whole session', async (t) => {
  t.same(given(session, [started, refreshed]).when({ type: 'refreshSession', generation: 0, now: 10, expiresAt: 2000 }), {
    events: [{ type: 'SessionRevoked', data: { reason: 'refresh token reused' } }],
  });
});

t.test('no refresh on a session that is unknown, expired or revoked', async (t) => {
  t.same(given(session, []).when({ type: 'refreshSession', generation: 0, now: 10, expiresAt: 2000 }), unauthorized);
  t.same(given(session, [started]).when({ type: 'refreshSession', generation: 0, now: 1000, expiresAt: 2000 }), unauthorized, 'expired at expiresAt');
  const revoked: SessionEvent = { type: 'SessionRevoked', data: { reason: 'logout' } };
  t.same(given(session, [started, revoked]).when({ type: 'refreshSession', generation: 0, now: 10, expiresAt: 2000 }), unauthorized);
});

t.test('logout revokes once; logging out of nothing changes nothing', async (t) => {
  t.same(given(session, [started]).when({ type: 'endSession' }), { events: [{ type: 'SessionRevoked', data: { reason: 'logout' } }] });
  t.same(given(session, [started, { type: 'SessionRevoked', data: { reason: 'logout' } }]).when({ type: 'endSession' }), { events: [] });
  t.same(given(session, []).when({ type: 'endSession' }), { events: [] });
});
