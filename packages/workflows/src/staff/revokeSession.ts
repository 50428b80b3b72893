import { STAFF_STREAM, type Role, forbidden, may, notFound, roster, session, sessionStream } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';

/**
 * A manager ends a device's session from the back office (issue 59: a lost tablet, a waiter gone
 * home still signed in), recorded with who and why. Its refresh token is refused from then on and its
 * access token at the next request: the auth hook folds the session's stream on every request.
 * Managers manage staff but never admins (`users:admins`), so an admin's session is an admin's to end.
 */
export async function revokeSession(
  commands: CommandHandler,
  cmd: { sessionId: string; by: string; actorRole: Role; why: string; at: number; context: CommandContext },
): Promise<{ position: Position | null }> {
  const stream = sessionStream(cmd.sessionId);
  const { state } = await commands.state(session, stream);
  if (!state.userId) throw notFound();
  const holder = (await commands.state(roster, STAFF_STREAM)).state.members[state.userId];
  if (holder?.role === 'admin' && !may(cmd.actorRole, 'users:admins')) throw forbidden();
  const result = await commands.handle(session, stream, { type: 'revokeSession', by: cmd.by, why: cmd.why, at: cmd.at }, cmd.context);
  return { position: result.position };
}
