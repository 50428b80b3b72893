import t from 'tap';
import { type WalletActivityEvent, type WalletPaymentEvent, unmatchedPayment, walletActivity, walletPayment, walletUnlockOpen } from '../src/index.js';
import { given } from './given.js';

const unlocked = (sessionId: string, at: number, expiresAt: number): WalletActivityEvent => ({
  type: 'WalletUnlocked', data: { userId: 'u1', at, sessionId, expiresAt },
});

t.test('wallet activity: every action is recorded as it happened', async (t) => {
  const event: WalletActivityEvent = { type: 'WalletUnlockFailed', data: { userId: 'u1', at: 5 } };
  t.same(given(walletActivity, []).when({ type: 'recordActivity', event }), { events: [event] });
});

t.test('wallet unlocks: open until they expire or the wallet is locked', async (t) => {
  const state = given(walletActivity, [unlocked('s1', 0, 300_000)]).state;
  t.ok(walletUnlockOpen(state, 's1', 1_000), 'open right after unlocking');
  t.notOk(walletUnlockOpen(state, 's1', 300_000), 'closed once expired');
  t.notOk(walletUnlockOpen(state, 's2', 1_000), 'another unlock id is not open');
  t.notOk(walletUnlockOpen(state, undefined, 1_000), 'a token without an unlock id is refused');

  const locked = given(walletActivity, [unlocked('s1', 0, 300_000), unlocked('s2', 10, 300_010), { type: 'WalletLocked', data: { userId: 'u1', at: 20 } }]).state;
  t.notOk(walletUnlockOpen(locked, 's1', 30), 'locking closes every open unlock');
  t.notOk(walletUnlockOpen(locked, 's2', 30));

  const again = given(walletActivity, [unlocked('s1', 0, 300_000), { type: 'WalletLocked', data: { userId: 'u1', at: 20 } }, unlocked('s3', 40, 300_040)]).state;
  t.ok(walletUnlockOpen(again, 's3', 50), 'a new unlock after locking is open');
  t.notOk(walletUnlockOpen(again, 's1', 50), 'the locked one stays closed');

  const pruned = given(walletActivity, [unlocked('s1', 0, 100), unlocked('s2', 200, 500)]).state;
  t.same(Object.keys(pruned.unlocks), ['s2'], 'expired unlocks are dropped when a new one is recorded');

  const legacy = given(walletActivity, [{ type: 'WalletUnlocked', data: { userId: 'u1', at: 0 } }]).state;
  t.same(legacy.unlocks, {}, 'an unlock recorded before unlock ids existed opens nothing');
});

t.test('unmatched payments: recorded once per payment hash', async (t) => {
  const payment = { paymentHash: 'ab'.repeat(32), amountSat: 10, externalId: null, payerNote: null, payerKey: null, receivedAt: 1 };
  const received = { type: 'UnmatchedPaymentReceived' as const, data: payment };
  t.same(given(unmatchedPayment, []).when({ type: 'recordUnmatchedPayment', payment }), { events: [received] });
  t.same(given(unmatchedPayment, [received]).when({ type: 'recordUnmatchedPayment', payment }), { events: [] });
});

t.test('a payment sent: requested once, then its first outcome stands', async (t) => {
  const request = { kind: 'invoice' as const, by: 'admin-1', amountSat: 1000, target: 'lnbc1…', paymentHash: 'ab'.repeat(32), fingerprint: 'f1' };
  const requested: WalletPaymentEvent = { type: 'WalletPaymentRequested', data: { ...request, paymentId: 'p1', at: 5 } };
  t.same(given(walletPayment, []).when({ type: 'requestPayment', paymentId: 'p1', request, at: 5 }), { events: [requested] });
  t.same(given(walletPayment, [requested]).when({ type: 'requestPayment', paymentId: 'p1', request, at: 6 }), { events: [] }, 'a retry asks nothing new');
  const succeeded: WalletPaymentEvent = { type: 'WalletPaymentSucceeded', data: { outcome: { paymentId: 'n1', feesSat: 2 }, at: 7 } };
  t.same(given(walletPayment, [requested]).when({ type: 'recordSuccess', outcome: { paymentId: 'n1', feesSat: 2 }, at: 7 }), { events: [succeeded] });
  t.same(given(walletPayment, [requested, succeeded]).when({ type: 'recordFailure', code: 'expired', reason: 'late', at: 8 }), { events: [] }, 'a late answer does not rewrite history');
  t.same(given(walletPayment, [requested]).when({ type: 'recordFailure', code: 'insufficient_funds', reason: 'no funds', at: 8 }), {
    events: [{ type: 'WalletPaymentFailed', data: { code: 'insufficient_funds', reason: 'no funds', at: 8 } }],
  });
  t.same(given(walletPayment, []).when({ type: 'recordSuccess', outcome: {}, at: 1 }), { events: [] }, 'no outcome without a request');
  t.match(given(walletPayment, [requested, succeeded]).state, { status: 'succeeded', request: { kind: 'invoice', amountSat: 1000, fingerprint: 'f1' }, outcome: { paymentId: 'n1' } });
});
