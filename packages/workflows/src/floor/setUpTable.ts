import { FLOOR_STREAM, type TableSetup, floor, notFound, seatedTable, seating, tableStream } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { later } from '../orders/seating.js';
import { orderIsOpen, requireOpenOrder } from './open-orders.js';

/**
 * Sets up a table afresh (name, space, status, order). Two streams, as a table's layout is the floor's
 * (names unique in a space) and its status its own stream's (seated orders):
 *
 * 1. Both are read and the floor decides on the whole request without writing (every validation error
 *    in one answer, the name free in its space, If-Match against the version of both streams' events),
 *    so a refused request writes nothing.
 * 2. The status goes to the table's own stream, which checks If-Match again and refuses to take the
 *    table from an order that still holds it (it is told which holder has finished, as only the
 *    order's stream knows). An order seated meanwhile makes this 412 (or 409), with nothing written.
 * 3. The name and space go to the floor, pinned to the floor's own part of the version as read in 1,
 *    so two managers renaming the same table at once get one 412.
 *
 * Only a request that changes both status and name can be cut in two: by another manager's edit of
 * the same table's name between 2 and 3 (412 with the status set) or a crash between the appends.
 */
export async function setUpTable(
  commands: CommandHandler,
  cmd: { tableId: string; setup: TableSetup; ifMatch?: number; context: CommandContext },
): Promise<{ position: Position | null }> {
  await requireOpenOrder(commands, cmd.setup.orderId);
  const { tableId } = cmd;
  const laidOut = (await commands.state(floor, FLOOR_STREAM)).state;
  const fromFloor = laidOut.tables[tableId];
  if (!fromFloor) throw notFound();
  const own = (await commands.state(seating, tableStream(tableId))).state;
  const layout = { type: 'updateTable' as const, tableId, ...cmd.setup, ifMatch: cmd.ifMatch, seatingChanges: own.changes };
  floor.decide(layout, laidOut);
  const holder = seatedTable(fromFloor, own)?.orderId;
  const finishedOrders = holder && !(await orderIsOpen(commands, holder)) ? [holder] : [];
  const seated = await commands.handle(seating, tableStream(tableId), {
    type: 'setStatus', tableId, status: cmd.setup.status, orderId: cmd.setup.orderId, ifMatch: cmd.ifMatch, finishedOrders, floor: fromFloor,
  }, cmd.context);
  const moved = seated.events.length;
  const pinned = cmd.ifMatch === undefined ? {} : { ifMatch: fromFloor.version + own.changes + moved, seatingChanges: own.changes + moved };
  const laid = await commands.handle(floor, FLOOR_STREAM, { ...layout, ifMatch: undefined, ...pinned }, cmd.context);
  return { position: later(seated.position, laid.position) };
}
