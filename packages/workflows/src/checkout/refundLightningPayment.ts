import {
  CURRENCIES, SHIFTS_STREAM, conflict, live, refundableCents, satsForCentsDown, shifts, ticket, ticketStream, validationFailed,
  type LightningRefund,
} from '@comanda/domain';
import type { CommandContext, Position } from '@comanda/event-store';
import { NodeError, decodeBolt11 } from '@comanda/lightning';
import type { CheckoutDeps, CheckoutNode, RateLookup } from './ports.js';
import { resolveRefundTarget } from './refund-destination.js';

export interface LightningRefundRequest {
  refundId: string;
  paymentId: string;
  /** Fiat to give back; default all that is left of the payment. */
  amountCents?: number;
  /** Valued at the payment's locked rate (`then`) or a fresh one (`now`), like BTCPay. */
  valuation: 'then' | 'now';
  /** A BOLT11 invoice or a Lightning address the customer gave. */
  destination: string;
  reason: string;
}

export interface RefundOutcome {
  refund: LightningRefund & { status: 'sent'; feesSat: number };
  position: Position | null;
}

type Deps = CheckoutDeps & { rates: RateLookup; node: CheckoutNode };

// Refunds this process is paying right now: a concurrent retry must not reconcile them as unsent.
const sending = new Set<string>();

const inProgress = (refundId: string) => conflict('This refund is being sent or its outcome is not known yet; try again in a moment', { refund_id: refundId });

/**
 * Sends a Lightning payment back to a customer, never twice for one refund id: the refund (amount,
 * sats, rate, the exact invoice and its hash) is recorded in the ticket's stream BEFORE the node is
 * asked, reserving the amount against the payment; the outcome is recorded after. A retry finds it:
 * sent → the same answer; failed → 409; unknown (crash, timeout) → the node is asked what became of
 * that payment hash, and only a payment the node never saw is sent again.
 */
export async function refundLightningPayment(deps: Deps, ticketId: string, request: LightningRefundRequest, context: CommandContext): Promise<RefundOutcome> {
  const stream = ticketStream(ticketId);
  const ctx: CommandContext = { userId: context.userId ?? null, correlationId: context.correlationId };
  let t = live((await deps.commands.state(ticket, stream)).state);
  let position: Position | null = null;
  if (!t.lightning.refunds[request.refundId]) {
    const payment = t.payments[request.paymentId];
    if (!payment || payment.details.method !== 'lightning') {
      throw validationFailed([{ field: 'payment_id', message: 'must name a Lightning payment of this ticket' }]);
    }
    const amountCents = request.amountCents ?? refundableCents(t, payment);
    if (amountCents < 1) throw conflict('Nothing is left to refund on that payment');
    const currency = Object.values(CURRENCIES).find((c) => c.id === t.issue.currencyId)?.acronym ?? t.issue.currencyId;
    const rate = request.valuation === 'then' ? payment.details.rate : (await deps.rates.rate(currency)).rate;
    const sats = satsForCentsDown(amountCents, rate);
    if (sats < 1) throw validationFailed([{ field: 'amount', message: 'is worth less than one sat' }]);
    const target = await resolveRefundTarget(request.destination, sats, deps.now());
    const refund: LightningRefund = {
      refundId: request.refundId, paymentId: request.paymentId, amountCents, sats, rate, valuation: request.valuation,
      destination: request.destination.trim(), invoice: target.invoice, paymentHash: target.paymentHash, reason: request.reason,
      by: context.userId ?? null, at: deps.now(),
    };
    const r = await deps.commands.handle(ticket, stream, { type: 'requestLightningRefund', refund }, ctx);
    position = r.position;
    t = live(r.state);
    if (r.events.length > 0) return send(deps, stream, t.lightning.refunds[request.refundId]!, ctx, position);
  }
  const recorded = t.lightning.refunds[request.refundId]!;
  if (recorded.paymentId !== request.paymentId || recorded.destination !== request.destination.trim()
    || (request.amountCents !== undefined && recorded.amountCents !== request.amountCents)) {
    throw conflict('This refund id was already used for a different refund', { code: 'idempotency_key_reused' });
  }
  if (recorded.status === 'sent') return { refund: { ...recorded, status: 'sent', feesSat: feesOf(t, recorded.refundId) }, position };
  if (recorded.status === 'failed') throw conflict(`This refund failed: ${recorded.failure}; make a new one`, { refund_id: recorded.refundId });
  if (sending.has(recorded.refundId)) throw inProgress(recorded.refundId);
  // Requested, outcome unknown (a crash or a timeout after the intent was recorded): ask the node.
  let found;
  try {
    found = await deps.node.getOutgoingByHash(recorded.paymentHash);
  } catch (error) {
    if (!(error instanceof NodeError && error.kind === 'rejected' && error.status === 404)) throw error;
    return send(deps, stream, recorded, ctx, position);
  }
  if (found.isPaid) return recordSent(deps, stream, recorded, Math.ceil(found.fees / 1000), ctx);
  if (found.completedAt !== undefined) {
    await deps.commands.handle(ticket, stream, { type: 'recordLightningRefundFailed', refundId: recorded.refundId, reason: 'the node could not pay it', at: deps.now() }, ctx);
    throw conflict('This refund failed: the node could not pay it; make a new one', { refund_id: recorded.refundId });
  }
  throw inProgress(recorded.refundId);
}

function feesOf(t: ReturnType<typeof live>, refundId: string): number {
  return t.lightning.refunds[refundId]?.feesSat ?? 0;
}

async function shiftId(deps: Deps): Promise<string | null> {
  return (await deps.commands.state(shifts, SHIFTS_STREAM)).state.open?.shiftId ?? null;
}

async function recordSent(deps: Deps, stream: string, refund: LightningRefund, feesSat: number, ctx: CommandContext): Promise<RefundOutcome> {
  const r = await deps.commands.handle(ticket, stream, { type: 'recordLightningRefundSent', refundId: refund.refundId, feesSat, shiftId: await shiftId(deps), at: deps.now() }, ctx);
  return { refund: { ...refund, status: 'sent', feesSat }, position: r.position };
}

async function send(deps: Deps, stream: string, refund: LightningRefund, ctx: CommandContext, _position: Position | null): Promise<RefundOutcome> {
  sending.add(refund.refundId);
  try {
    const amountless = decodeBolt11(refund.invoice).amountMsat === undefined;
    const paid = await deps.node.payInvoice({ invoice: refund.invoice, ...(amountless ? { amountSat: refund.sats } : {}) });
    return await recordSent(deps, stream, refund, paid.routingFeeSat, ctx);
  } catch (error) {
    // A definite refusal frees the reserved amount; no answer leaves the outcome to reconcile.
    if (error instanceof NodeError && (error.kind === 'payment_failed' || (error.kind === 'rejected' && error.status < 500))) {
      await deps.commands.handle(ticket, stream, { type: 'recordLightningRefundFailed', refundId: refund.refundId, reason: error.text, at: deps.now() }, ctx);
    }
    throw error;
  } finally {
    sending.delete(refund.refundId);
  }
}
