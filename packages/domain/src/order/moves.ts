import { conflict, validationFailed } from '../errors.js';
import { approve } from '../staff/approval.js';
import type { MoveLinesIn, MoveLinesOut, Order, OrderEvent, OrderStatus } from './order-types.js';
import { lineNotBilled } from './billing.js';
import { linesMayChange } from './discounts.js';

/**
 * Lines moved from one order to another (a guest changes tables, two tables' checks merged): written
 * as the removal of each line from the order it leaves and one `DishesAdded` on the order it joins, so
 * every reader that follows an order's lines (read models, reports, the kitchen) follows the move.
 * The line keeps its id, price, options and seat. `moveId` makes both halves idempotent.
 */
export type { LineMovedOut, LinesMovedIn, MoveLinesIn, MoveLinesOut } from './order-types.js';

/**
 * Moving lines out: every line must be on this order and on no live bill (a bill is cancelled first,
 * which records who and why); a line the kitchen has, or lines handed to another waiter's order, move
 * money between checks or waiters: a manager's call, recorded with who, who approved and why.
 */
export function decideMoveOut(o: Order & { status: OrderStatus }, command: MoveLinesOut): OrderEvent[] {
  if (o.moves?.[command.moveId]) return [];
  if (command.toOrderId === o.orderId) throw validationFailed([{ field: 'to_order_id', message: 'must be another order' }]);
  const lineIds = [...new Set(command.lineIds)];
  // No line (an empty check merged): nothing moves.
  if (lineIds.length === 0) return [];
  const unknown = lineIds.filter((id) => !o.lines[id]);
  if (unknown.length) throw validationFailed(unknown.map((id) => ({ field: 'line_ids', message: `${id} is not a line of this order` })));
  lineNotBilled(o.billing, lineIds);
  const rest = Object.fromEntries(Object.entries(o.lines).filter(([id]) => !lineIds.includes(id)));
  linesMayChange(o, rest);
  const fired = lineIds.filter((id) => o.fired[id]);
  const why = fired.length ? 'move of a line the kitchen has' : command.toUserId !== o.userId ? "move of lines to another waiter's order" : null;
  const approval = why ? { approval: approve(why, command.authority) } : {};
  return lineIds.map((lineId) => ({
    type: 'OrderLineRemoved',
    data: { lineId, move: { moveId: command.moveId, toOrderId: command.toOrderId, line: o.lines[lineId]!, ...(o.fired[lineId] ? { fired: o.fired[lineId] } : {}), ...approval } },
  }));
}

/** Moving lines in: once per move; the order must still take dishes (the workflow gives them back otherwise). */
export function decideMoveIn(o: Order, command: MoveLinesIn): OrderEvent[] {
  if (o.moves?.[command.moveId]) return [];
  const here = command.lines.filter((l) => o.lines[l.lineId]);
  if (here.length) throw conflict('These lines are already on the order', { lineIds: here.map((l) => l.lineId) });
  return [{ type: 'DishesAdded', data: { lines: command.lines, moved: { moveId: command.moveId, fromOrderId: command.fromOrderId, fired: command.fired } } }];
}

/** The order's firings after a move: a line that left stays fired here, marked as gone with it; one that came is fired as it was. */
export function firedAfterMove(o: Order, event: OrderEvent): Pick<Order, 'fired' | 'moves'> {
  const moves = { ...o.moves };
  const fired = { ...o.fired };
  if (event.type === 'OrderLineRemoved' && event.data.move) {
    moves[event.data.move.moveId] = true;
    const f = fired[event.data.lineId];
    if (f) fired[event.data.lineId] = { ...f, movedTo: event.data.move.toOrderId };
  }
  if (event.type === 'DishesAdded' && event.data.moved) {
    moves[event.data.moved.moveId] = true;
    for (const f of event.data.moved.fired) fired[f.lineId] = { ...f, movedFrom: event.data.moved.fromOrderId };
  }
  return { fired, moves };
}
