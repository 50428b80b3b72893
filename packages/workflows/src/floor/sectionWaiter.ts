import { STAFF_STREAM, roster, validationFailed } from '@comanda/domain';
import type { CommandHandler } from '@comanda/event-store';

/** The waiter a section is given must be on the staff right now (read from the roster's own stream, not a lagging list). */
export async function requireStaffMember(commands: CommandHandler, waiterId: string | null): Promise<void> {
  if (waiterId === null) return;
  if (!(await commands.state(roster, STAFF_STREAM)).state.members[waiterId]) {
    throw validationFailed([{ field: 'waiter_id', message: 'must reference an existing user, or be null' }]);
  }
}
