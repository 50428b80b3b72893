import { ticket, ticketStream, type TillMethod } from '@comanda/domain';
import type { CommandContext } from '@comanda/event-store';
import type { BillDeps } from './issueTickets.js';
import { openShiftId } from './open-shift.js';

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
