import { MENU_STREAM, type FiredLine, conflict, kitchenTicketId, linesToFire, menu, notFound, order, orderStream, stationOf, validationFailed } from '@comanda/domain';
import type { CommandContext, Position } from '@comanda/event-store';
import { type KitchenCommands, latest, reconcileKitchen } from './reconcile.js';

export interface FireRequest {
  orderId: string;
  /** The lines to send; absent: every line not fired yet (of `course`, when given). */
  lineIds?: string[];
  /** Only this course's unfired lines (starters first, mains later). */
  course?: number;
  /** Names this firing (derived from the Idempotency-Key when there is one). */
  firingId: string;
  at: number;
}

export interface Fired {
  tickets: Array<{ id: string; stationId: string; lineIds: string[] }>;
  /** Position of the last append, for read-your-writes; null when nothing was fired. */
  position: Position | null;
}

/**
 * POST /orders/{id}/fire: routes each line to its station (the dish's, else its category's, else the
 * default station), records the firing in the order's stream (which lets each line be fired once, even
 * when two waiters tap at once) and opens one kitchen ticket per station. If the process dies after the
 * order's append, the kitchen process manager opens the tickets from the order's stream.
 */
export async function fireOrder(commands: KitchenCommands, request: FireRequest, context: CommandContext = {}): Promise<Fired> {
  const { state: o } = await commands.state(order, orderStream(request.orderId));
  if (!o.orderId || o.deleted) throw notFound();
  if (request.lineIds && request.course !== undefined) throw validationFailed([{ field: 'course', message: 'name lines or a course, not both' }]);
  const lineIds = request.lineIds ?? linesToFire(o, request.course);
  for (const id of lineIds) if (!o.lines[id]) throw notFound();
  const { state: m } = await commands.state(menu, MENU_STREAM);
  const lines: FiredLine[] = lineIds.map((lineId) => {
    const line = o.lines[lineId]!;
    const station = stationOf(m, line.dishId);
    if (!station) throw conflict('There is no kitchen station to send dishes to: add one first (POST /stations)');
    return {
      lineId, firingId: request.firingId, dishId: line.dishId, stationId: station.id,
      ticketId: kitchenTicketId(request.orderId, request.firingId, station.id), dishName: m.dishes[line.dishId]?.name ?? 'Dish no longer on the menu',
      ...(m.dishes[line.dishId]?.allergens.length ? { allergens: m.dishes[line.dishId]!.allergens } : {}),
    };
  });
  const result = await commands.handle(order, orderStream(request.orderId), { type: 'fireLines', firingId: request.firingId, lines, at: request.at, course: request.course }, context);
  const fired = result.events.flatMap((e) => (e.type === 'OrderLinesFired' ? e.data.lines : []));
  const position = await reconcileKitchen(commands, request.orderId, context);
  const tickets = new Map<string, { id: string; stationId: string; lineIds: string[] }>();
  // A replayed request (same Idempotency-Key) answers the tickets of its first firing.
  for (const l of fired) {
    const t = tickets.get(l.ticketId) ?? { id: l.ticketId, stationId: l.stationId, lineIds: [] };
    t.lineIds.push(l.lineId);
    tickets.set(l.ticketId, t);
  }
  return { tickets: [...tickets.values()], position: latest(result.position, position) };
}
