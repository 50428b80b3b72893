import t from 'tap';
import { DomainError, newId, walletPaymentStream } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { NodeError } from '@comanda/lightning';
import { WalletPaymentFailed, classifyFailure, payFromWallet, type PaymentAttempt } from '../src/index.js';

function wallet() {
  const store = new MemoryEventStore();
  const deps = { commands: new CommandHandler(store), now: () => 7, sending: new Set<string>() };
  const types = async (paymentId: string) => (await store.readStream(walletPaymentStream(paymentId))).map((e) => e.type);
  return { deps, types };
}

/** An invoice payment whose node behaves as `send` and `reconcile` say, counting the sends. */
function attempt(paymentId: string, node: { send?: () => Promise<{ outcome: Record<string, string | number>; preimage?: string }>; reconcile?: PaymentAttempt<unknown>['reconcile']; fingerprint?: string }) {
  let sends = 0;
  const a: PaymentAttempt<{ outcome: Record<string, string | number>; preimage?: string }> = {
    paymentId,
    request: { kind: 'invoice', by: 'admin', target: 'lnbc1…', paymentHash: 'ab'.repeat(32), fingerprint: node.fingerprint ?? 'fp' },
    send: async () => {
      sends++;
      return node.send ? node.send() : { outcome: { paymentId: 'p1', recipientAmountSat: 100, routingFeeSat: 1 }, preimage: 'secret' };
    },
    ...(node.reconcile ? { reconcile: node.reconcile } : {}),
    answer: async (outcome, preimage) => ({ outcome, ...(preimage ? { preimage } : {}) }),
  };
  return { a, sends: () => sends };
}

t.test('given nothing, when paid: the request is recorded before the node is asked, the outcome after', async (t) => {
  const w = wallet();
  const id = newId();
  const { a, sends } = attempt(id, {});
  t.same(await payFromWallet(w.deps, a, {}), { outcome: { paymentId: 'p1', recipientAmountSat: 100, routingFeeSat: 1 }, preimage: 'secret' });
  t.same(await w.types(id), ['WalletPaymentRequested', 'WalletPaymentSucceeded']);
  t.equal(sends(), 1);
  t.equal(w.deps.sending.size, 0, 'no longer in flight');

  const again = attempt(id, {});
  t.same(await payFromWallet(w.deps, again.a, {}), { outcome: { paymentId: 'p1', recipientAmountSat: 100, routingFeeSat: 1 } }, 'a retry answers the recorded outcome (no preimage kept)');
  t.equal(again.sends(), 0, 'and never pays twice');
  const other = attempt(id, { fingerprint: 'another request' });
  await t.rejects(payFromWallet(w.deps, other.a, {}), { kind: 'conflict', details: { code: 'idempotency_key_reused' } });
});

t.test('given a refusal by the node, it is recorded and a retry answers it again', async (t) => {
  const w = wallet();
  const id = newId();
  const { a } = attempt(id, { send: async () => { throw new NodeError('payment_failed', 200, 'not enough funds'); } });
  await t.rejects(payFromWallet(w.deps, a, {}), new WalletPaymentFailed('insufficient_funds', 'not enough funds'));
  t.same(await w.types(id), ['WalletPaymentRequested', 'WalletPaymentFailed']);
  const retry = attempt(id, {});
  await t.rejects(payFromWallet(w.deps, retry.a, {}), { code: 'insufficient_funds' });
  t.equal(retry.sends(), 0);

  const rejected = newId();
  const r = attempt(rejected, { send: async () => { throw new NodeError('rejected', 400, 'bad amount'); } });
  await t.rejects(payFromWallet(w.deps, r.a, {}), NodeError, 'a rejection by the node is recorded and passed on for the edge to map');
  t.same(await w.types(rejected), ['WalletPaymentRequested', 'WalletPaymentFailed']);
});

t.test('given no answer from the node, the outcome stays unknown and a retry reconciles', async (t) => {
  const w = wallet();
  const id = newId();
  const first = attempt(id, { send: async () => { throw new NodeError('timeout', 0, 'timed out'); } });
  await t.rejects(payFromWallet(w.deps, first.a, {}), NodeError);
  t.same(await w.types(id), ['WalletPaymentRequested'], 'nothing recorded but the request');

  const pending = attempt(id, { reconcile: async () => 'pending' });
  await t.rejects(payFromWallet(w.deps, pending.a, {}), DomainError, 'still pending at the node: 409, not sent again');
  t.equal(pending.sends(), 0);
  const unreconcilable = attempt(id, {});
  await t.rejects(payFromWallet(w.deps, unreconcilable.a, {}), { kind: 'conflict', details: { paymentId: id } });

  const found = attempt(id, { reconcile: async () => ({ paymentId: 'p9', recipientAmountSat: 5, routingFeeSat: 0 }) });
  t.same(await payFromWallet(w.deps, found.a, {}), { outcome: { paymentId: 'p9', recipientAmountSat: 5, routingFeeSat: 0 } }, 'paid after all: recorded, not sent again');
  t.equal(found.sends(), 0);
  t.same(await w.types(id), ['WalletPaymentRequested', 'WalletPaymentSucceeded']);

  const lost = newId();
  await t.rejects(payFromWallet(w.deps, attempt(lost, { send: async () => { throw new NodeError('unreachable', 0, 'down'); } }).a, {}));
  const resend = attempt(lost, { reconcile: async () => 'not_sent' });
  await payFromWallet(w.deps, resend.a, {});
  t.equal(resend.sends(), 1, 'the node never saw it: sent now');
});

t.test('a payment this process is sending is not reconciled by a concurrent retry', async (t) => {
  const w = wallet();
  const id = newId();
  let release!: () => void;
  const slow = attempt(id, { send: () => new Promise((resolve) => { release = () => resolve({ outcome: { paymentId: 'p2' } }); }) });
  const paying = payFromWallet(w.deps, slow.a, {});
  await new Promise((r) => setTimeout(r, 10));
  const retry = attempt(id, { reconcile: async () => 'not_sent' });
  await t.rejects(payFromWallet(w.deps, retry.a, {}), { kind: 'conflict' });
  t.equal(retry.sends(), 0);
  release();
  await paying;
});

t.test('failure texts of phoenixd and the simulator', async (t) => {
  t.equal(classifyFailure('This invoice has already been paid'), 'already_paid');
  t.equal(classifyFailure('invoice expired'), 'expired');
  t.equal(classifyFailure('Insufficient funds'), 'insufficient_funds');
  t.equal(classifyFailure('invalid invoice'), 'invalid');
  t.equal(classifyFailure('no route'), 'refused');
});
