import { conflict, isOpen, kitchenTicket, kitchenTicketStream, order, orderStream, ticketFinished } from '@comanda/domain';
import type { CommandContext, CommandResult } from '@comanda/event-store';
import type { KitchenCommands } from './reconcile.js';

type Ticket = CommandResult<unknown, unknown>;

/**
 * The taps of a kitchen screen. Each is one command on the ticket's own stream: a repeated tap, or two
 * screens tapping at once, lands once (the second decides again on the fresh ticket and finds nothing
 * left to do).
 */
export const startTicket = (commands: KitchenCommands, ticketId: string, at: number, context?: CommandContext): Promise<Ticket> =>
  commands.handle(kitchenTicket, kitchenTicketStream(ticketId), { type: 'startTicket', at }, context);

export const markLineDone = (commands: KitchenCommands, ticketId: string, lineId: string, at: number, context?: CommandContext): Promise<Ticket> =>
  commands.handle(kitchenTicket, kitchenTicketStream(ticketId), { type: 'markLineDone', lineId, at }, context);

export const bumpTicket = (commands: KitchenCommands, ticketId: string, at: number, context?: CommandContext): Promise<Ticket> =>
  commands.handle(kitchenTicket, kitchenTicketStream(ticketId), { type: 'bumpTicket', at }, context);

/**
 * Back onto the board, unless its order has finished meanwhile (nobody would ever take it off again;
 * should the order finish between this check and the recall, the process manager closes it).
 */
export async function recallTicket(commands: KitchenCommands, ticketId: string, at: number, context?: CommandContext): Promise<Ticket> {
  const { state: t } = await commands.state(kitchenTicket, kitchenTicketStream(ticketId));
  if (t.opened && t.bumpedAt !== null && !isOpen((await commands.state(order, orderStream(t.orderId))).state)) {
    throw conflict('Its order is finished: nothing left to cook');
  }
  return commands.handle(kitchenTicket, kitchenTicketStream(ticketId), { type: 'recallTicket', at }, context);
}

/**
 * The order follows its kitchen: once any of its tickets is started a pending order is `preparing`;
 * once every fired line is done or cancelled it is `ready`. Decided from the streams (the order's and
 * its tickets'), never from a read model, so running it again or late is harmless.
 */
export async function orderFollowsKitchen(commands: KitchenCommands, orderId: string, at: number, context: CommandContext = {}): Promise<void> {
  const { state: o } = await commands.state(order, orderStream(orderId));
  if (!isOpen(o)) return;
  const ticketIds = [...new Set(Object.values(o.fired).map((l) => l.ticketId))];
  if (ticketIds.length === 0) return;
  const tickets = await Promise.all(ticketIds.map(async (id) => (await commands.state(kitchenTicket, kitchenTicketStream(id))).state));
  const started = tickets.some((t) => t.startedAt !== null);
  const finished = tickets.every((t) => t.opened && ticketFinished(t));
  let status = o.status;
  if (status === 'pending' && (started || finished)) {
    await commands.handle(order, orderStream(orderId), { type: 'changeStatus', to: 'preparing', at }, context);
    status = 'preparing';
  }
  if (status === 'preparing' && finished) await commands.handle(order, orderStream(orderId), { type: 'changeStatus', to: 'ready', at }, context);
}
