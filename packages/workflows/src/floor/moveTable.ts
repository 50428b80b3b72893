import { FLOOR_STREAM, floor } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';

/**
 * Moves a table to a cell of its space's grid. Decided on the whole floor inside the append, so of two
 * tables dropped on the same free cell at once one lands and the other is refused (409).
 */
export async function moveTable(
  commands: CommandHandler,
  cmd: { tableId: string; column: number; row: number; context: CommandContext },
): Promise<{ position: Position | null }> {
  const result = await commands.handle(floor, FLOOR_STREAM, { type: 'moveTable', tableId: cmd.tableId, column: cmd.column, row: cmd.row }, cmd.context);
  return { position: result.position };
}
