import t from 'tap';
import { REFRESH_REUSE_GRACE_MS, type SessionEvent, session } from '../src/index.js';
import { given } from './given.js';

const started: SessionEvent = { type: 'SessionStarted', data: { sessionId: 's1', userId: 'u1', expiresAt: 1000 } };
const refreshed: SessionEvent = { type: 'SessionRefreshed', data: { generation: 1, expiresAt: 2000, at: 10 } };
const unauthorized = { error: { kind: 'unauthorized', message: 'Unauthorized' } };

t.test('a session starts once', async (t) => {
  t.same(given(session, []).when({ type: 'startSession', sessionId: 's1', userId: 'u1', expiresAt: 1000 }), { events: [started] });
  t.same(given(session, [started]).when({ type: 'startSession', sessionId: 's1', userId: 'u1', expiresAt: 5000 }), { events: [] });
});

t.test('a refresh moves the generation on and the expiry out', async (t) => {
  t.same(given(session, [started]).when({ type: 'refreshSession', generation: 0, now: 10, expiresAt: 2000 }), { events: [refreshed] });
  t.same(given(session, [started, refreshed]).when({ type: 'refreshSession', generation: 1, now: 1500, expiresAt: 3000 }), {
    events: [{ type: 'SessionRefreshed', data: { generation: 2, expiresAt: 3000, at: 1500 } }],
  }, 'the refreshed expiry counts, not the first one');
});

t.test('a refresh token presented twice (a stolen copy) revokes the whole session', async (t) => {
  const reused = { events: [{ type: 'SessionRevoked', data: { reason: 'refresh token reused' } }] };
  const lasting: SessionEvent = { type: 'SessionRefreshed', data: { generation: 1, expiresAt: 100_000, at: 10 } };
  t.same(given(session, [started, lasting]).when({ type: 'refreshSession', generation: 0, now: 11 + REFRESH_REUSE_GRACE_MS, expiresAt: 200_000 }), reused, 'after the grace');
  const twice: SessionEvent = { type: 'SessionRefreshed', data: { generation: 2, expiresAt: 3000, at: 20 } };
  t.same(given(session, [started, refreshed, twice]).when({ type: 'refreshSession', generation: 0, now: 21, expiresAt: 2000 }), reused, 'two rotations back, grace or not');
  const older: SessionEvent = { type: 'SessionRefreshed', data: { generation: 1, expiresAt: 2000 } };
  t.same(given(session, [started, older]).when({ type: 'refreshSession', generation: 0, now: 11, expiresAt: 2000 }), reused, 'a rotation recorded before the grace existed has none');
});

t.test('the token just rotated out, presented again within the grace (two tabs, a retry): nothing changes', async (t) => {
  const lasting: SessionEvent = { type: 'SessionRefreshed', data: { generation: 1, expiresAt: 100_000, at: 10 } };
  t.same(given(session, [started, lasting]).when({ type: 'refreshSession', generation: 0, now: 10 + REFRESH_REUSE_GRACE_MS, expiresAt: 200_000 }), { events: [] });
  t.same(given(session, [started, lasting]).when({ type: 'refreshSession', generation: 0, now: 5, expiresAt: 200_000 }), { events: [] }, 'a replica whose clock is behind');
  t.same(session.evolve(session.evolve(session.initialState(), started), refreshed).rotatedAt, 10, 'the rotation time is kept, to sign the same pair again');
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

t.test('a sign-in records the device it came from and when', async (t) => {
  t.same(given(session, []).when({ type: 'startSession', sessionId: 's1', userId: 'u1', expiresAt: 1000, device: 'Tablet 3', at: 5 }), {
    events: [{ type: 'SessionStarted', data: { sessionId: 's1', userId: 'u1', expiresAt: 1000, device: 'Tablet 3', at: 5 } }],
  });
});

t.test('a manager revokes a live session, with who and why; it then refreshes no more', async (t) => {
  const revoke = { type: 'revokeSession', by: 'm1', why: ' tablet lost ', at: 20 } as const;
  const revoked: SessionEvent = { type: 'SessionRevoked', data: { reason: 'revoked', userId: 'u1', device: null, by: 'm1', why: 'tablet lost', at: 20 } };
  t.same(given(session, [started, refreshed]).when(revoke), { events: [revoked] }, 'the reason is kept trimmed');
  const onTablet: SessionEvent = { type: 'SessionStarted', data: { sessionId: 's1', userId: 'u1', expiresAt: 1000, device: 'Tablet 3' } };
  t.match(given(session, [onTablet]).when(revoke), { events: [{ data: { userId: 'u1', device: 'Tablet 3' } }] }, 'whose session and which device, for the audit trail');
  t.same(given(session, [started, refreshed, revoked]).when({ type: 'refreshSession', generation: 1, now: 30, expiresAt: 3000 }), unauthorized);
  t.match(given(session, [started, revoked]).state, { revoked: true, revokedBy: 'm1' }, 'the device can be told a manager ended it');
  t.match(given(session, [started, { type: 'SessionRevoked', data: { reason: 'logout' } }]).state, { revoked: true, revokedBy: null });
});

t.test('no revoke of a session that is unknown, already ended or expired, nor without a reason', async (t) => {
  const revoke = { type: 'revokeSession', by: 'm1', why: 'tablet lost', at: 20 } as const;
  t.same(given(session, []).when(revoke), { error: { kind: 'not_found', message: 'Resource not found' } });
  const ended = { error: { kind: 'conflict', message: 'The session has already ended' } };
  t.same(given(session, [started, { type: 'SessionRevoked', data: { reason: 'logout' } }]).when(revoke), ended, 'logged out');
  t.same(given(session, [started]).when({ ...revoke, at: 1000 }), ended, 'expired at expiresAt');
  t.same(given(session, [started]).when({ ...revoke, why: '  ' }), {
    error: { kind: 'validation', message: 'Validation failed', details: { errors: [{ field: 'reason', message: 'must say why the session is ended' }] } },
  });
});
