import { FLOOR_STREAM, type TableSetup, floor } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { orderIsOpen, requireOpenOrder } from './open-orders.js';

/** The order a table holds, when its stream says it is over (or it was never written): it may be replaced. */
async function finishedHolder(commands: CommandHandler, tableId: string): Promise<string[]> {
  const holder = (await commands.state(floor, FLOOR_STREAM)).state.tables[tableId]?.orderId;
  if (!holder) return [];
  return (await orderIsOpen(commands, holder)) ? [] : [holder];
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
