import {
  FLOOR_STREAM, type Decider, type DomainEvent, type FiredLine, type LineForCooks, type Order, type OrderLine, type TicketCloseReason, floor, isOpen, kitchenTicket, kitchenTicketStream, order, orderStream,
} from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';

/** What the kitchen workflows need of the command handler (tests may pass their own). */
export type KitchenCommands = Pick<CommandHandler, 'handle' | 'state'>;

export const latest = (...positions: Array<Position | null>): Position | null =>
  positions.reduce<Position | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null);

const tableName = async (commands: KitchenCommands, tableId: string | null): Promise<string | null> =>
  tableId ? ((await commands.state(floor, FLOOR_STREAM)).state.tables[tableId]?.name ?? null) : null;

/** How many, which course and seat, the modifiers' names and the dish's allergens as fired (a line removed since: as a single portion). */
const forCooks = (line: OrderLine | undefined, fired: FiredLine): LineForCooks => ({
  quantity: line?.quantity ?? 1, course: line?.course ?? 1, seat: line?.seat ?? null,
  modifiers: (line?.modifiers ?? []).map((m) => m.name), allergens: fired.allergens ?? [],
});

/** Why an order that is no longer open takes its tickets off the board. */
const closeReason = (o: Order): TicketCloseReason => (o.deleted ? 'order_deleted' : o.status === 'cancelled' ? 'order_cancelled' : 'order_completed');

/**
 * Makes the kitchen tickets of an order agree with the order's stream, which is the truth: every
 * ticket of every firing is open; a line removed from the order (or an order cancelled or deleted) is
 * cancelled on its ticket, struck through rather than vanishing; changed notes and a new table reach
 * the ticket; once the order is completed, cancelled or deleted, each ticket still on the board is
 * closed, saying why. Every command is idempotent, so running this again (after a crash, on a redelivered
 * event, from two processes) changes nothing more. Returns the position of its last append.
 */
export async function reconcileKitchen(commands: KitchenCommands, orderId: string, context: CommandContext = {}, at: number = Date.now()): Promise<Position | null> {
  const { state: o } = await commands.state(order, orderStream(orderId));
  if (!o.orderId) return null;
  const byTicket = new Map<string, FiredLine[]>();
  // A line moved in from another order is that order's ticket's to keep (moves.ts).
  for (const l of Object.values(o.fired)) if (!l.movedFrom) byTicket.set(l.ticketId, [...(byTicket.get(l.ticketId) ?? []), l]);
  if (byTicket.size === 0) return null;
  const gone = !isOpen(o);
  const table = await tableName(commands, o.tableId);
  let position: Position | null = null;
  const run = async <C, E extends DomainEvent, S>(d: Decider<C, E, S>, stream: string, command: C) => {
    position = latest(position, (await commands.handle(d, stream, command, { ...context, idempotency: undefined, expectedRevision: undefined })).position);
  };
  for (const [ticketId, lines] of byTicket) {
    const stream = kitchenTicketStream(ticketId);
    const first = lines[0]!;
    await run(kitchenTicket, stream, {
      type: 'openTicket', ticketId, orderId, stationId: first.stationId, tableId: o.tableId, tableName: table, waiter: o.waiter, ...(o.number === null ? {} : { orderNumber: o.number }),
      firedAt: o.firings[first.firingId] ?? 0,
      lines: lines.map((l) => ({ lineId: l.lineId, dishId: l.dishId, dishName: l.dishName, notes: o.lines[l.lineId]?.notes ?? '', ...forCooks(o.lines[l.lineId], l) })),
    });
    const { state: t } = await commands.state(kitchenTicket, stream);
    if (t.tableId !== o.tableId || t.tableName !== table) await run(kitchenTicket, stream, { type: 'moveTicket', tableId: o.tableId, tableName: table });
    for (const l of lines) {
      const current = o.lines[l.lineId];
      const onTicket = t.kitchenLines[l.lineId];
      // A line moved to another order is still cooked: neither cancelled nor changed from here.
      if (!onTicket || l.movedTo) continue;
      if (gone || !current) {
        if (onTicket.status !== 'cancelled' && onTicket.status !== 'done') await run(kitchenTicket, stream, { type: 'cancelLine', lineId: l.lineId, at });
      } else if (current.notes !== onTicket.notes) {
        await run(kitchenTicket, stream, { type: 'changeLineNotes', lineId: l.lineId, notes: current.notes });
      }
    }
    if (gone && t.closedAt === null && t.bumpedAt === null) await run(kitchenTicket, stream, { type: 'closeTicket', reason: closeReason(o), at });
  }
  return position;
}
