import type { KitchenTicketEvent } from '@comanda/domain';
import { type CommandHandler, isOneOf } from '@comanda/event-store';
import { type KitchenPaperPolicy, printKitchenTicket } from '@comanda/workflows';
import type { Reaction } from '../reactor.js';

/**
 * Paper for the kitchen (issue 61): a ticket opened at a station with a printer queues its paper; a
 * fired line cancelled queues its VOID. Only queues: the spooler prints, so a printer that is down
 * never holds up the reactor. The job's id is derived from the event, so a redelivery queues nothing more.
 */
export function kitchenPaper(commands: CommandHandler, policy: KitchenPaperPolicy, now: () => number = Date.now): Reaction {
  return {
    name: 'kitchen-paper',
    handles: ['KitchenTicketOpened', 'KitchenLineCancelled'],
    async react(event) {
      type Paper = Extract<KitchenTicketEvent, { type: 'KitchenTicketOpened' | 'KitchenLineCancelled' }>;
      if (!isOneOf<Paper>(event, ['KitchenTicketOpened', 'KitchenLineCancelled'])) return;
      const at = now();
      const paper = event.type === 'KitchenLineCancelled'
        ? { kind: 'void' as const, ticketId: event.data.ticketId, lineId: event.data.lineId, causeId: event.id, at }
        : { kind: 'fired' as const, ticketId: event.data.ticketId, causeId: event.id, at };
      await printKitchenTicket(commands, paper, policy, { causationId: event.id, userId: null });
    },
  };
}
