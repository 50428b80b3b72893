import { STAFF_STREAM, notFound, roster, timeClock, timeClockStream } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';

/**
 * A manager sets a shift on the time clock as it was (issue 60): a forgotten clock-out, a break never
 * punched, a shift never clocked in. Recorded with who and why on the member's own clock, so the hours
 * report and the audit trail both show it. Only a member on the roster has a clock.
 */
export async function correctShift(
  commands: CommandHandler,
  cmd: { userId: string; shiftId: string; clockedInAt: number; clockedOutAt: number; breakMinutes: number; by: string; reason: string; at: number; context: CommandContext },
): Promise<{ position: Position | null }> {
  if (!(await commands.state(roster, STAFF_STREAM)).state.members[cmd.userId]) throw notFound('No such member of staff');
  const { context, ...correction } = cmd;
  const result = await commands.handle(timeClock, timeClockStream(cmd.userId), { type: 'correctShift', ...correction }, context);
  return { position: result.position };
}
