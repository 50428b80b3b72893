import { DomainError, kitchenTicket, kitchenTicketStream, ticketFinished } from '@comanda/domain';
import type { CommandContext } from '@comanda/event-store';
import type { KitchenCommands } from './reconcile.js';

/**
 * A ticket whose every line is done (or cancelled), left on the board by its cook, is bumped once it
 * has stayed so for `waitMs` (COMANDA_KITCHEN_AUTO_BUMP_MINUTES), counted from when it became ready or
 * was last recalled. The process manager calls this when that time has passed after such a change; a
 * call too early (a recall since) does nothing, the recall's own call comes later. Idempotent: after a
 * crash, a cook's bump or a second call, nothing more is appended. Returns true when it bumped.
 */
export async function autoBumpTicket(commands: KitchenCommands, ticketId: string, waitMs: number, at: number, context: CommandContext = {}): Promise<boolean> {
  const stream = kitchenTicketStream(ticketId);
  const { state: t, revision } = await commands.state(kitchenTicket, stream);
  if (!t.opened || t.bumpedAt !== null || t.closedAt !== null || !ticketFinished(t) || t.readySince === null || t.readySince + waitMs > at) return false;
  try {
    // Pinned to the revision just judged: a recall or a cook's bump landing meanwhile wins.
    const result = await commands.handle(kitchenTicket, stream, { type: 'bumpTicket', at, auto: true }, { ...context, expectedRevision: revision });
    return result.events.length > 0;
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'precondition') return false;
    throw error;
  }
}
