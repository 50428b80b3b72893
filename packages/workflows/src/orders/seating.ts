import { FLOOR_STREAM, type Order, type Table, floor, isOpen, order, orderStream, seatedTable, seating, tableStream } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';

/**
 * An order's table is held by the table's own stream (`table-<id>`), the order by its own: two
 * streams, two appends. The table is always written first (a reservation: it refuses a table held by
 * another order), the order second, and a table is released last. Whatever the order's stream says
 * wins: a crash between the appends leaves a reservation that the table-occupancy process manager
 * releases. No restaurant-wide stream is written: seating table A never waits for table B.
 */
export async function seat(commands: CommandHandler, tableId: string | null, orderId: string, context: CommandContext): Promise<Position | null> {
  if (!tableId) return null;
  const r = await commands.handle(seating, tableStream(tableId), { type: 'occupyTable', tableId, orderId, floor: await onFloor(commands, tableId) }, context);
  return r.position;
}

export async function unseat(commands: CommandHandler, tableId: string | null, orderId: string, context: CommandContext): Promise<Position | null> {
  if (!tableId) return null;
  const r = await commands.handle(seating, tableStream(tableId), { type: 'releaseTable', tableId, orderId, floor: await onFloor(commands, tableId) }, context);
  return r.position;
}

/**
 * The table as the floor has it (layout, version, and a seating recorded before tables had their own
 * streams). Read, not appended to: a table leaves the floor only after its own stream is closed, so a
 * seat decided on this read and appended to the table's stream can never land on a removed table.
 */
export const onFloor = async (commands: CommandHandler, tableId: string): Promise<Table | null> =>
  (await commands.state(floor, FLOOR_STREAM)).state.tables[tableId] ?? null;

/** The table now (its layout from the floor, its seating from its own stream); null when there is none. */
export async function tableNow(commands: CommandHandler, tableId: string): Promise<Table | null> {
  const fromFloor = await onFloor(commands, tableId);
  return fromFloor && seatedTable(fromFloor, (await commands.state(seating, tableStream(tableId))).state);
}

/** After a write to an order: the table it no longer needs is released (finished, deleted or moved). */
export async function releaseAfter(
  commands: CommandHandler,
  orderId: string,
  previousTable: string | null,
  now: Pick<Order, 'orderId' | 'tableId' | 'status' | 'deleted'>,
  context: CommandContext,
): Promise<Position | null> {
  const stillHeld = isOpen(now) && now.tableId === previousTable;
  return stillHeld ? null : unseat(commands, previousTable, orderId, context);
}

/**
 * Frees `tableId` unless `orderId` sits there, open, according to its own stream. What the
 * table-occupancy process manager does after a crash between the two appends, or after an order ends.
 */
export async function releaseTableUnlessSeated(commands: CommandHandler, tableId: string | null, orderId: string, context: CommandContext): Promise<Position | null> {
  if (!tableId) return null;
  const now = await orderState(commands, orderId);
  return isOpen(now) && now.tableId === tableId ? null : unseat(commands, tableId, orderId, context);
}

/** The order's state, for a use case that must know its table before changing it. */
export const orderState = async (commands: CommandHandler, orderId: string): Promise<Order> => (await commands.state(order, orderStream(orderId))).state;

/** The latest of some positions (the one a reader must wait for), null when nothing was written. */
export const later = (...positions: Array<Position | null>): Position | null =>
  positions.reduce<Position | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null);
