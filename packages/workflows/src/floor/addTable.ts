import { FLOOR_STREAM, type FloorCommand, type TableSetup, conflict, floor, seating, tableStream } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { requireOpenOrder } from './open-orders.js';

type Plan = Pick<Extract<FloorCommand, { type: 'addTable' }>, 'place' | 'look'>;

/** Adds a table to a space, on its cell and with its look when given; an order it is given must be open. Returns the new table's id. */
export async function addTable(commands: CommandHandler, cmd: { tableId: string; setup: TableSetup; plan?: Plan; context: CommandContext }): Promise<{ tableId: string; position: Position | null }> {
  await requireOpenOrder(commands, cmd.setup.orderId);
  // A removed table's own stream stays closed: its id (derived from an Idempotency-Key the floor has
  // forgotten) must not come back as a table that can never be seated.
  if ((await commands.state(seating, tableStream(cmd.tableId))).state.closed) throw conflict('This table already exists');
  const result = await commands.handle(floor, FLOOR_STREAM, { type: 'addTable', tableId: cmd.tableId, ...cmd.setup, ...cmd.plan }, cmd.context);
  const { tableId } = result.events[0]!.data as { tableId: string };
  return { tableId, position: result.position };
}
