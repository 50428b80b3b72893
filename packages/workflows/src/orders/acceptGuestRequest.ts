import { type Authority, conflict, forbidden, guestRequest, guestRequestStream, idFromKey, notFound } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { addDishes } from './addDishes.js';
import { placeOrder } from './placeOrder.js';
import { later, tableNow } from './seating.js';

export interface AcceptGuestRequest {
  requestId: string;
  /** The waiter who accepts: the lines are theirs, and a new order at the table is theirs too. */
  authority: Authority;
  at: number;
  timezone: string;
  context: CommandContext;
}

/**
 * A waiter accepts what a guest asked for at the table's QR (issue 63): the lines go on the table's
 * open order (unfired: the waiter fires them), or on a new order at the table when none is open; then
 * the request records who accepted it and onto which order. Every write is keyed by the request, so a
 * retry after a crash anywhere replays what was written (the same lines, the same order) and adds
 * nothing twice. A dish sold out or not served since refuses the whole acceptance by name (409).
 */
export async function acceptGuestRequest(commands: CommandHandler, cmd: AcceptGuestRequest): Promise<{ orderId: string; position: Position | null }> {
  // Money moves only with a name: the lines and the answer are this waiter's.
  const by = cmd.authority.userId;
  if (by === null) throw forbidden();
  const stream = guestRequestStream(cmd.requestId);
  const { state: r } = await commands.state(guestRequest, stream);
  if (r.status === null) throw notFound();
  if (r.status === 'accepted') return { orderId: r.orderId!, position: null };
  if (r.status === 'declined') throw conflict('This request was already declined');
  const key = `guest-request:${cmd.requestId}`;
  const context: CommandContext = { ...cmd.context, idempotency: { key, fingerprint: cmd.requestId } };
  const dishes = r.lines.map((l) => ({ dishId: l.dishId, quantity: l.quantity, notes: l.notes }));
  const lineId = (i: number) => idFromKey('line', key, String(i));
  const table = await tableNow(commands, r.tableId);
  if (!table) throw conflict('This table is no longer on the floor');
  const open = table.orderId;
  const written = open
    ? { orderId: open, position: (await addDishes(commands, { orderId: open, dishes, lineId, at: cmd.at, timezone: cmd.timezone, authority: cmd.authority, context })).position }
    : await placeOrder(commands, { orderId: idFromKey('order', key), tableId: r.tableId, dishes, lineId, at: cmd.at, timezone: cmd.timezone, authority: cmd.authority, context });
  const answered = await commands.handle(guestRequest, stream, { type: 'acceptRequest', orderId: written.orderId, by, at: cmd.at }, cmd.context);
  return { orderId: written.orderId, position: later(written.position, answered.position) };
}
