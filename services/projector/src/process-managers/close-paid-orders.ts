import { ticket } from '@comanda/domain';
import type { CommandHandler } from '@comanda/event-store';
import { closeIfPaid } from '@comanda/workflows';
import type { Reaction } from '../reactor.js';

/**
 * COMANDA_CLOSE_PAID_ORDERS: a bill paid (by card, cash or Lightning, whichever path settled it) closes
 * its order once the order is paid in full, whatever the kitchen's state, and frees its table. Decided
 * from the streams each time and idempotent (a completed order closes no further), so running late,
 * twice or after a crash changes nothing more.
 */
export function closePaidOrders(commands: CommandHandler, now: () => number = Date.now): Reaction {
  return {
    name: 'close-paid-orders',
    handles: ['TicketPaid'],
    async react(event) {
      const { state } = await commands.state(ticket, event.stream);
      if (!state.issue) return;
      await closeIfPaid(commands, { orderId: state.issue.orderId, at: now(), context: { causationId: event.id, userId: null } });
    },
  };
}
