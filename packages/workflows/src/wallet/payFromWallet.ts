import {
  conflict, walletPayment, walletPaymentStream, type WalletPaymentFailure, type WalletPaymentOutcome, type WalletPaymentRequest,
} from '@comanda/domain';
import type { CommandContext, CommandHandler } from '@comanda/event-store';
import { NodeError } from '@comanda/lightning';

/** One money-moving request, described so that it can be sent, replayed and reconciled. */
export interface PaymentAttempt<A> {
  paymentId: string;
  request: WalletPaymentRequest;
  /** Asks the node; answers what is recorded (no preimage) and, apart, the secret part of the answer. */
  send(): Promise<{ outcome: WalletPaymentOutcome; preimage?: string }>;
  /**
   * After a crash or a timeout the outcome is unknown: asks the node what became of it. `not_sent`
   * means the node never paid it (safe to send); absent → the kind cannot be reconciled.
   */
  reconcile?(): Promise<WalletPaymentOutcome | 'not_sent' | 'pending'>;
  /** The answer from the recorded outcome (a replay fetches the preimage from the node). */
  answer(outcome: WalletPaymentOutcome, preimage?: string): Promise<A>;
}

export interface WalletPaymentDeps {
  commands: CommandHandler;
  now(): number;
  /** Payments this process is sending right now: a concurrent retry must not reconcile them. */
  sending: Set<string>;
}

/** The node refused the payment for good (recorded on the payment's stream): the caller's answer. */
export class WalletPaymentFailed extends Error {
  readonly code: WalletPaymentFailure;
  readonly reason: string;
  constructor(code: WalletPaymentFailure, reason: string) {
    super(reason);
    this.code = code;
    this.reason = reason;
    this.name = 'WalletPaymentFailed';
  }
}

/** The node's reason texts (phoenixd and the simulator) sorted into the restaurant's failure kinds. */
export function classifyFailure(reason: string): WalletPaymentFailure {
  const r = reason.toLowerCase();
  if (r.includes('already been paid') || r.includes('already paid')) return 'already_paid';
  if (r.includes('expired')) return 'expired';
  if (r.includes('not enough funds') || r.includes('insufficient funds')) return 'insufficient_funds';
  if (r.includes('invalid')) return 'invalid';
  return 'refused';
}

const unknownOutcome = (paymentId: string) =>
  conflict('This payment is in progress or its outcome is unknown; check the outgoing payments', { paymentId });

/**
 * Pays from the restaurant's wallet, never twice: the request is appended (on a fresh stream) before
 * the node is called, the outcome after. A retry with the same Idempotency-Key finds the stream: a
 * finished payment answers the same again; an unfinished one is reconciled with the node instead of
 * being sent again. Node errors other than a refusal (unreachable, timeout) are thrown as they are,
 * leaving the outcome unknown.
 */
export async function payFromWallet<A>(deps: WalletPaymentDeps, attempt: PaymentAttempt<A>, context: CommandContext): Promise<A> {
  const stream = walletPaymentStream(attempt.paymentId);
  // Outcome appends carry no idempotency key: the key marks the request event only.
  const outcomeContext: CommandContext = { userId: context.userId ?? null, correlationId: context.correlationId };
  const requested = await deps.commands.handle(walletPayment, stream, {
    type: 'requestPayment', paymentId: attempt.paymentId, request: attempt.request, at: deps.now(),
  }, outcomeContext);
  if (requested.events.length === 0) {
    const { state } = requested;
    if (state.request?.fingerprint !== attempt.request.fingerprint) {
      throw conflict('Idempotency-Key was already used for a different request', { code: 'idempotency_key_reused' });
    }
    if (state.status === 'succeeded') return attempt.answer(state.outcome!);
    if (state.status === 'failed') throw new WalletPaymentFailed(state.failure!.code, state.failure!.reason);
    if (deps.sending.has(attempt.paymentId) || !attempt.reconcile) throw unknownOutcome(attempt.paymentId);
    const found = await attempt.reconcile();
    if (found === 'pending') throw unknownOutcome(attempt.paymentId);
    if (found !== 'not_sent') {
      await deps.commands.handle(walletPayment, stream, { type: 'recordSuccess', outcome: found, at: deps.now() }, outcomeContext);
      return attempt.answer(found);
    }
  }
  return send(deps, attempt, stream, outcomeContext);
}

async function send<A>(deps: WalletPaymentDeps, attempt: PaymentAttempt<A>, stream: string, context: CommandContext): Promise<A> {
  deps.sending.add(attempt.paymentId);
  try {
    let sent: { outcome: WalletPaymentOutcome; preimage?: string };
    try {
      sent = await attempt.send();
    } catch (error) {
      // A definite refusal is recorded; no answer (unreachable, timeout) leaves the outcome unknown.
      if (error instanceof NodeError && error.kind !== 'unreachable' && error.kind !== 'timeout') {
        const code = error.kind === 'payment_failed' || error.status === 200 ? classifyFailure(error.text) : 'refused';
        await deps.commands.handle(walletPayment, stream, { type: 'recordFailure', code, reason: error.text, at: deps.now() }, context);
        if (error.kind === 'payment_failed' || error.status === 200) throw new WalletPaymentFailed(code, error.text);
      }
      throw error;
    }
    await deps.commands.handle(walletPayment, stream, { type: 'recordSuccess', outcome: sent.outcome, at: deps.now() }, context);
    return await attempt.answer(sent.outcome, sent.preimage);
  } finally {
    deps.sending.delete(attempt.paymentId);
  }
}
