import { type Authority, idFromKey, newId, order, orderStream, ticket, ticketStream } from '@comanda/domain';
import type { CommandContext, Position } from '@comanda/event-store';
import { later } from '../orders/seating.js';
import type { BillDeps } from './issueTickets.js';
import { openShiftId } from './open-shift.js';

/**
 * Reopens a paid check: its stream refunds every payment left and cancels it in one append, with a
 * manager's approval and the reason (ticket-reopen.ts); then its lines are freed on the order, to be
 * billed again. Refund ids come from the Idempotency-Key, so a retry meets its own refunds.
 */
export async function reopenTicket(deps: BillDeps, ticketId: string, reason: string, authority: Authority, context: CommandContext): Promise<Position | null> {
  const shiftId = await openShiftId(deps);
  const { state } = await deps.commands.state(ticket, ticketStream(ticketId));
  const key = context.idempotency?.key;
  const refundIds = Object.fromEntries(Object.keys(state.payments).map((p) => [p, key ? idFromKey('reopen refund', key, p) : newId()]));
  const r = await deps.commands.handle(ticket, ticketStream(ticketId), { type: 'reopenTicket', reason, refundIds, shiftId, authority, at: deps.now() }, context);
  const released = await deps.commands.handle(order, orderStream(r.state.issue!.orderId), { type: 'releaseTicket', ticketId }, { ...context, idempotency: undefined });
  return later(r.position, released.position);
}
