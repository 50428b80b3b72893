import { ticket, ticketStream } from '@comanda/domain';
import type { CommandContext } from '@comanda/event-store';
import type { BillDeps } from './issueTickets.js';
import { openShiftId } from './open-shift.js';

/** Takes a line off a ticket, with a reason; on a paid ticket what was paid for it is refunded in the same append. */
export async function voidTicketLine(
  deps: BillDeps, ticketId: string, request: { lineId: string; reason: string; refundId: string; paymentId?: string }, context: CommandContext,
) {
  const shiftId = await openShiftId(deps);
  const r = await deps.commands.handle(ticket, ticketStream(ticketId), { type: 'voidLine', ...request, shiftId, by: context.userId ?? null, at: deps.now() }, context);
  return { position: r.position };
}
