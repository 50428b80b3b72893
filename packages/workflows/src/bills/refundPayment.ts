import { type Authority, ticket, ticketStream } from '@comanda/domain';
import type { CommandContext } from '@comanda/event-store';
import type { BillDeps } from './issueTickets.js';
import { openShiftId } from './open-shift.js';

/**
 * Refunds (part of) a payment on a ticket; the ticket's stream decides what may still be refunded and,
 * given the authority, whether a manager approved it (a waiter's refund needs one).
 */
export async function refundPayment(
  deps: BillDeps, ticketId: string, request: { refundId: string; paymentId: string; amountCents: number; reason: string }, context: CommandContext, authority?: Authority,
) {
  const shiftId = await openShiftId(deps);
  const r = await deps.commands.handle(ticket, ticketStream(ticketId), {
    type: 'refundPayment', ...request, shiftId, by: context.userId ?? null, at: deps.now(), ...(authority ? { authority } : {}),
  }, context);
  return { state: r.state, position: r.position };
}
