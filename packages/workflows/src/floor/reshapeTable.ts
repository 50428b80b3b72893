import { FLOOR_STREAM, type TableShape, floor } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';

/** Gives a table its shape (square, round, rectangle) and how many it seats. */
export async function reshapeTable(
  commands: CommandHandler,
  cmd: { tableId: string; shape: TableShape; seats: number; context: CommandContext },
): Promise<{ position: Position | null }> {
  const result = await commands.handle(floor, FLOOR_STREAM, { type: 'reshapeTable', tableId: cmd.tableId, shape: cmd.shape, seats: cmd.seats }, cmd.context);
  return { position: result.position };
}
