import { FLOOR_STREAM, type SectionSetup, floor } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { requireStaffMember } from './sectionWaiter.js';

/** Renames a section, gives it other tables of its space, or another waiter (null: nobody). */
export async function changeSection(
  commands: CommandHandler,
  cmd: { sectionId: string; setup: SectionSetup; ifMatch?: number; context: CommandContext },
): Promise<{ position: Position | null }> {
  await requireStaffMember(commands, cmd.setup.waiterId);
  const result = await commands.handle(floor, FLOOR_STREAM, { type: 'changeSection', sectionId: cmd.sectionId, ifMatch: cmd.ifMatch, ...cmd.setup }, cmd.context);
  return { position: result.position };
}
