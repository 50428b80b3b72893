import { ticket, ticketStream } from '@comanda/domain';
import type { CommandContext } from '@comanda/event-store';
import type { BillDeps } from './issueTickets.js';

/** A manager takes a bill's service charge off, with a reason; the ticket records who and when. */
export async function takeOffServiceCharge(deps: BillDeps, ticketId: string, reason: string, context: CommandContext) {
  const r = await deps.commands.handle(ticket, ticketStream(ticketId), { type: 'removeServiceCharge', reason, by: context.userId ?? null, at: deps.now() }, context);
  return { position: r.position };
}
