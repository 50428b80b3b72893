import { FLOOR_STREAM, type SectionSetup, floor } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { requireStaffMember } from './sectionWaiter.js';

/** Draws a section: tables of one space, each in no other section, and the waiter who serves them (or nobody). */
export async function drawSection(
  commands: CommandHandler,
  cmd: { sectionId: string; spaceId: string; setup: SectionSetup; context: CommandContext },
): Promise<{ sectionId: string; position: Position | null }> {
  await requireStaffMember(commands, cmd.setup.waiterId);
  const result = await commands.handle(floor, FLOOR_STREAM, { type: 'createSection', sectionId: cmd.sectionId, spaceId: cmd.spaceId, ...cmd.setup }, cmd.context);
  return { sectionId: cmd.sectionId, position: result.position };
}
