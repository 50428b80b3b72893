import { FLOOR_STREAM, type TableSetup, floor, isOpen, validationFailed } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { orderState } from '../orders/seating.js';

/** Whether an order is open right now, from its own stream (never a read model that may lag a seat). */
export const orderIsOpen = async (commands: CommandHandler, orderId: string): Promise<boolean> => isOpen(await orderState(commands, orderId));

/** The order a client names must be open right now; the floor itself only checks seat conflicts. */
async function requireOpenOrder(commands: CommandHandler, orderId: string | null): Promise<void> {
  if (orderId === null) return;
  if (!(await orderIsOpen(commands, orderId))) {
    throw validationFailed([{ field: 'order_id', message: 'must reference an existing order that is not completed or cancelled' }]);
  }
}

/** The order a table holds, when its stream says it is over (or it was never written): it may be replaced. */
async function finishedHolder(commands: CommandHandler, tableId: string): Promise<string[]> {
  const holder = (await commands.state(floor, FLOOR_STREAM)).state.tables[tableId]?.orderId;
  if (!holder) return [];
  return (await orderIsOpen(commands, holder)) ? [] : [holder];
}

/** Adds a table to a space; an order it is given must be open. Returns the new table's id. */
export async function addTable(commands: CommandHandler, cmd: { tableId: string; setup: TableSetup; context: CommandContext }): Promise<{ tableId: string; position: Position | null }> {
  await requireOpenOrder(commands, cmd.setup.orderId);
  const result = await commands.handle(floor, FLOOR_STREAM, { type: 'addTable', tableId: cmd.tableId, ...cmd.setup }, cmd.context);
  const { tableId } = result.events[0]!.data as { tableId: string };
  return { tableId, position: result.position };
}

/**
 * Sets up a table afresh (name, space, status, order). The floor decider refuses to take a table from
 * an order that still holds it; it is told which holder has finished, as only the order's stream knows.
 */
export async function setUpTable(
  commands: CommandHandler,
  cmd: { tableId: string; setup: TableSetup; ifMatch?: number; context: CommandContext },
): Promise<{ position: Position | null }> {
  await requireOpenOrder(commands, cmd.setup.orderId);
  const result = await commands.handle(floor, FLOOR_STREAM, {
    type: 'updateTable', tableId: cmd.tableId, ifMatch: cmd.ifMatch, finishedOrders: await finishedHolder(commands, cmd.tableId), ...cmd.setup,
  }, cmd.context);
  return { position: result.position };
}
