import { FLOOR_STREAM, floor } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';

/** Removes a section; its tables stay where they stand, served by whoever seats them. */
export async function removeSection(commands: CommandHandler, cmd: { sectionId: string; ifMatch?: number; context: CommandContext }): Promise<{ position: Position | null }> {
  const result = await commands.handle(floor, FLOOR_STREAM, { type: 'removeSection', sectionId: cmd.sectionId, ifMatch: cmd.ifMatch }, cmd.context);
  return { position: result.position };
}
