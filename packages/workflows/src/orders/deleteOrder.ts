import { order, orderStream } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { later, orderState, releaseAfter } from './seating.js';

/** Deletes a pending or cancelled order and frees the table it held. */
export async function deleteOrder(commands: CommandHandler, cmd: { orderId: string; context: CommandContext }): Promise<{ position: Position | null }> {
  const before = await orderState(commands, cmd.orderId);
  const deleted = await commands.handle(order, orderStream(cmd.orderId), { type: 'deleteOrder' }, cmd.context);
  const released = await releaseAfter(commands, cmd.orderId, before.tableId, deleted.state, cmd.context);
  return { position: later(deleted.position, released) };
}
