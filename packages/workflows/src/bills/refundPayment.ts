import { ticket, ticketStream } from '@comanda/domain';
import type { CommandContext } from '@comanda/event-store';
import type { BillDeps } from './issueTickets.js';
import { openShiftId } from './open-shift.js';

/** Refunds (part of) a payment on a ticket; the ticket's stream decides what may still be refunded. */
export async function refundPayment(
  deps: BillDeps, ticketId: string, request: { refundId: string; paymentId: string; amountCents: number; reason: string }, context: CommandContext,
) {
  const shiftId = await openShiftId(deps);
  const r = await deps.commands.handle(ticket, ticketStream(ticketId), {
    type: 'refundPayment', ...request, shiftId, by: context.userId ?? null, at: deps.now(),
  }, context);
  return { state: r.state, position: r.position };
}
