import { conflict, walletPayment, walletPaymentStream, type WalletPaymentOutcome, type WalletPaymentRequest } from '@comanda/domain';
import type { CommandContext, CommandHandler } from '@comanda/event-store';
import { NodeError } from '@comanda/lightning';
import { HttpError } from '../http/http-error.js';
import { classifyFailure, nodeFailure, paymentFailed } from './node-failures.js';

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
  /** The HTTP answer from the recorded outcome (a replay fetches the preimage from the node). */
  answer(outcome: WalletPaymentOutcome, preimage?: string): Promise<A>;
}

const unknownOutcome = (paymentId: string) =>
  new HttpError(409, { message: 'This payment is in progress or its outcome is unknown; check the outgoing payments', paymentId });

/**
 * Never pays twice: the request is appended (on a fresh stream) before the node is called, the outcome
 * after. A retry with the same Idempotency-Key finds the stream: a finished payment answers the same
 * again; an unfinished one is reconciled with the node instead of being sent again.
 */
export class WalletPayments {
  /** Payments this process is sending right now: a concurrent retry must not reconcile them. */
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly commands: CommandHandler,
    private readonly now: () => number,
  ) {}

  async pay<A>(attempt: PaymentAttempt<A>, context: CommandContext): Promise<A> {
    const stream = walletPaymentStream(attempt.paymentId);
    // Outcome appends carry no idempotency key: the key marks the request event only.
    const outcomeContext: CommandContext = { userId: context.userId ?? null, correlationId: context.correlationId };
    const requested = await this.commands.handle(walletPayment, stream, {
      type: 'requestPayment', paymentId: attempt.paymentId, request: attempt.request, at: this.now(),
    }, outcomeContext);
    if (requested.events.length === 0) {
      const { state } = requested;
      if (state.request?.fingerprint !== attempt.request.fingerprint) {
        throw conflict('Idempotency-Key was already used for a different request', { code: 'idempotency_key_reused' });
      }
      if (state.status === 'succeeded') return attempt.answer(state.outcome!);
      if (state.status === 'failed') throw paymentFailed(state.failure!.code, state.failure!.reason);
      if (this.inFlight.has(attempt.paymentId) || !attempt.reconcile) throw unknownOutcome(attempt.paymentId);
      let found: WalletPaymentOutcome | 'not_sent' | 'pending';
      try {
        found = await attempt.reconcile();
      } catch (error) {
        throw nodeFailure(error);
      }
      if (found === 'pending') throw unknownOutcome(attempt.paymentId);
      if (found !== 'not_sent') {
        await this.commands.handle(walletPayment, stream, { type: 'recordSuccess', outcome: found, at: this.now() }, outcomeContext);
        return attempt.answer(found);
      }
    }
    return this.send(attempt, stream, outcomeContext);
  }

  private async send<A>(attempt: PaymentAttempt<A>, stream: string, context: CommandContext): Promise<A> {
    this.inFlight.add(attempt.paymentId);
    try {
      const { outcome, preimage } = await attempt.send();
      await this.commands.handle(walletPayment, stream, { type: 'recordSuccess', outcome, at: this.now() }, context);
      return await attempt.answer(outcome, preimage);
    } catch (error) {
      // A definite refusal is recorded; no answer (unreachable, timeout) leaves the outcome unknown.
      if (error instanceof NodeError && error.kind !== 'unreachable' && error.kind !== 'timeout') {
        const code = error.kind === 'payment_failed' || error.status === 200 ? classifyFailure(error.text) : 'refused';
        await this.commands.handle(walletPayment, stream, { type: 'recordFailure', code, reason: error.text, at: this.now() }, context);
        if (error.kind === 'payment_failed' || error.status === 200) throw paymentFailed(code, error.text);
      }
      throw nodeFailure(error);
    } finally {
      this.inFlight.delete(attempt.paymentId);
    }
  }
}
