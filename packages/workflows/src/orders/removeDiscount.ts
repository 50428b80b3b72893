import { order, orderStream } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';

/** Takes a discount or comp off an order (refused while it touches a line on a live ticket). */
export async function removeDiscount(commands: CommandHandler, orderId: string, discountId: string, context: CommandContext): Promise<{ position: Position | null }> {
  const r = await commands.handle(order, orderStream(orderId), { type: 'removeDiscount', discountId }, context);
  return { position: r.position };
}
