import {
  SHIFTS_STREAM, order, orderStream, shifts, ticket, ticketStream, type TillMethod,
} from '@comanda/domain';
import type { CommandContext, Position } from '@comanda/event-store';
import { later } from '../orders/seating.js';
import type { BillDeps } from './issueTickets.js';

/** The shift open now, or null: a payment names the shift it is counted in. */
export async function openShiftId(deps: BillDeps): Promise<string | null> {
  return (await deps.commands.state(shifts, SHIFTS_STREAM)).state.open?.shiftId ?? null;
}

export interface PaymentRequest { paymentId: string; method: TillMethod; amountCents: number; tipCents: number; tenderedCents?: number }

/**
 * A cashier takes a payment. The ticket's stream decides (what is due, paid or cancelled), so of two
 * cashiers paying at once the second is decided again on the paid ticket and refused; a retried request
 * (same Idempotency-Key) is answered with the payment it already took.
 */
export async function takePayment(deps: BillDeps, ticketId: string, request: PaymentRequest, context: CommandContext) {
  const shiftId = await openShiftId(deps);
  const r = await deps.commands.handle(ticket, ticketStream(ticketId), {
    type: 'takePayment', ...request, shiftId, by: context.userId ?? null, at: deps.now(),
  }, context);
  const taken = r.events.find((e) => e.type === 'PaymentTaken');
  const payment = taken?.type === 'PaymentTaken' ? taken.data : r.state.payments[request.paymentId];
  return { payment: payment ?? null, state: r.state, position: r.position };
}

export async function refundPayment(
  deps: BillDeps, ticketId: string, request: { refundId: string; paymentId: string; amountCents: number; reason: string }, context: CommandContext,
) {
  const shiftId = await openShiftId(deps);
  const r = await deps.commands.handle(ticket, ticketStream(ticketId), {
    type: 'refundPayment', ...request, shiftId, by: context.userId ?? null, at: deps.now(),
  }, context);
  return { state: r.state, position: r.position };
}

/** Takes a line off a ticket, with a reason; on a paid ticket what was paid for it is refunded in the same append. */
export async function voidTicketLine(
  deps: BillDeps, ticketId: string, request: { lineId: string; reason: string; refundId: string; paymentId?: string }, context: CommandContext,
) {
  const shiftId = await openShiftId(deps);
  const r = await deps.commands.handle(ticket, ticketStream(ticketId), { type: 'voidLine', ...request, shiftId, by: context.userId ?? null, at: deps.now() }, context);
  return { position: r.position };
}

/** Cancels a ticket (its stream decides: no payments left), then frees its lines on the order. */
export async function cancelTicket(deps: BillDeps, ticketId: string, reason: string, context: CommandContext): Promise<Position | null> {
  const r = await deps.commands.handle(ticket, ticketStream(ticketId), { type: 'cancelTicket', reason, by: context.userId ?? null, at: deps.now() }, context);
  const orderId = r.state.issue!.orderId;
  const released = await deps.commands.handle(order, orderStream(orderId), { type: 'releaseTicket', ticketId }, { ...context, idempotency: undefined });
  return later(r.position, released.position);
}
