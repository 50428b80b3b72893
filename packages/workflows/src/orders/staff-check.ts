import { STAFF_STREAM, type FieldError, type StaffMember, roster } from '@comanda/domain';
import type { CommandHandler } from '@comanda/event-store';

/** An order names the member of staff who placed it: that user must exist on the roster right now. */
export async function checkUserExists(commands: CommandHandler, userId: string, errors: FieldError[]): Promise<StaffMember | null> {
  const { state } = await commands.state(roster, STAFF_STREAM);
  const member = state.members[userId] ?? null;
  if (!member) errors.push({ field: 'user_id', message: 'must reference an existing user' });
  return member;
}
