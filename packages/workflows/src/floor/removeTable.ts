import { FLOOR_STREAM, floor, notFound, seating, tableStream } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { later, onFloor } from '../orders/seating.js';

/**
 * Removes a table from the floor, refused (409) while an order sits there, even one being seated at
 * that moment. The table's own stream is closed first: it decides against the seatings in one append
 * (a seat racing the close either lands first and the close is refused, or finds the table closed).
 * Then the floor forgets it, freeing its name and letting its space go. A crash between the two
 * appends leaves a table that is still listed but seats nobody: deleting it again completes the work.
 */
export async function removeTable(commands: CommandHandler, cmd: { tableId: string; context: CommandContext }): Promise<{ position: Position | null }> {
  const fromFloor = await onFloor(commands, cmd.tableId);
  if (!fromFloor) throw notFound();
  const closed = await commands.handle(seating, tableStream(cmd.tableId), { type: 'closeTable', tableId: cmd.tableId, floor: fromFloor }, cmd.context);
  const removed = await commands.handle(floor, FLOOR_STREAM, { type: 'removeTable', tableId: cmd.tableId }, cmd.context);
  return { position: later(closed.position, removed.position) };
}
