import { FLOOR_STREAM, floor, isActive, order, orderStream, type OrderStatus } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';

/**
 * An order's table is held by the floor, the order by its own stream: two streams, two appends.
 * The floor is always written first (a reservation: it refuses a table held by another order), the
 * order second, and a table is released last. Whatever the order's stream says wins: a crash between
 * the appends leaves a reservation that the table-occupancy process manager releases.
 */
export async function seat(commands: CommandHandler, tableId: string | null, orderId: string, context: CommandContext): Promise<Position | null> {
  if (!tableId) return null;
  const r = await commands.handle(floor, FLOOR_STREAM, { type: 'occupyTable', tableId, orderId }, context);
  return r.position;
}

export async function unseat(commands: CommandHandler, tableId: string | null, orderId: string, context: CommandContext): Promise<Position | null> {
  if (!tableId) return null;
  const r = await commands.handle(floor, FLOOR_STREAM, { type: 'releaseTable', tableId, orderId }, context);
  return r.position;
}

/** After a write to an order: the table it no longer needs is released (finished, deleted or moved). */
export async function releaseAfter(
  commands: CommandHandler,
  orderId: string,
  previousTable: string | null,
  now: { tableId: string | null; status: OrderStatus | null; deleted: boolean },
  context: CommandContext,
): Promise<Position | null> {
  const stillHeld = !now.deleted && now.status !== null && isActive(now.status) && now.tableId === previousTable;
  return stillHeld ? null : unseat(commands, previousTable, orderId, context);
}

/** The order's state, for a route that must know its table before changing it. */
export const orderState = async (commands: CommandHandler, orderId: string) => (await commands.state(order, orderStream(orderId))).state;

export const later = (...positions: Array<Position | null>): Position | null =>
  positions.reduce<Position | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null);
