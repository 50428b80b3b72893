import { order, orderStream, ticket, ticketStream } from '@comanda/domain';
import type { CommandContext, Position } from '@comanda/event-store';
import { later } from '../orders/seating.js';
import type { BillDeps } from './issueTickets.js';

/** Cancels a ticket (its stream decides: no payments left), then frees its lines on the order. */
export async function cancelTicket(deps: BillDeps, ticketId: string, reason: string, context: CommandContext): Promise<Position | null> {
  const r = await deps.commands.handle(ticket, ticketStream(ticketId), { type: 'cancelTicket', reason, by: context.userId ?? null, at: deps.now() }, context);
  const orderId = r.state.issue!.orderId;
  const released = await deps.commands.handle(order, orderStream(orderId), { type: 'releaseTicket', ticketId }, { ...context, idempotency: undefined });
  return later(r.position, released.position);
}
