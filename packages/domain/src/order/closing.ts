import { conflict } from '../errors.js';
import type { Billing } from './billing.js';
import type { CloseOrder, OrderEvent, OrderStatus } from './order-types.js';

/**
 * Closes a table's order once it is paid in full, whatever the kitchen's state: the guests have paid
 * and left, and a kitchen that forgot to bump must not keep the table blocked. `paidBills`: the bills
 * (of `billing.bills`) whose every live ticket the caller found paid, read from the tickets' streams.
 * The rule that every line is on one of them is decided here, against the order's own lines, so a
 * line added or a ticket cancelled while the caller read the tickets is refused rather than left unpaid.
 */
export function decideClose(o: { status: OrderStatus; lines: Record<string, unknown>; billing: Billing }, command: CloseOrder): OrderEvent[] {
  if (o.status === 'completed') return [];
  if (o.status === 'cancelled') throw conflict('A cancelled order cannot be closed');
  const lineIds = Object.keys(o.lines);
  if (lineIds.length === 0) throw conflict('An order with no dishes is cancelled, not closed');
  const paid = new Set(command.paidBills);
  const unbilled = lineIds.filter((id) => !o.billing.billedLines[id]);
  if (unbilled.length) throw conflict('The order cannot be closed: some dishes are on no bill', { lineIds: unbilled });
  const unpaid = lineIds.filter((id) => !paid.has(o.billing.billedLines[id]!));
  if (unpaid.length) throw conflict('The order cannot be closed before every bill is paid', { lineIds: unpaid });
  // `paid`: completed because it was paid in full, not because the kitchen finished (which it may not have).
  return [{ type: 'OrderStatusChanged', data: { from: o.status, to: 'completed', at: command.at, paid: true } }];
}
