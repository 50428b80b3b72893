import { type Authority, type FieldError, type OrderStatus, forbidden, isOrderStatus, may, notFound, order, orderStream, validationFailed } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { requirePaid } from './amount-due.js';
import { later, orderState, releaseAfter, seat, unseat } from './seating.js';
import { checkUserExists } from './staff-check.js';

export interface UpdateOrder {
  orderId: string;
  /** Another member of staff than the order's: the order is handed to them (a transfer, a manager's call). */
  userId: string;
  tableId: string | null;
  /** Absent: the order keeps its status. */
  status?: string;
  /** Absent: the order keeps its guest count (covers). */
  guests?: number;
  /** Who asks (kitchen staff may change the status only), and a manager's approval for a transfer. */
  authority: Authority;
  /** The version the client last saw (If-Match). */
  ifMatch?: number;
  at: number;
  context: CommandContext;
}

export interface UpdateOrderPolicy {
  /** COMANDA_COMPLETE_REQUIRES_PAYMENT: completing needs every line on a paid ticket. */
  completeRequiresPayment: boolean;
}

/**
 * Changes an order's waiter, user, table or status. Moving to another table seats the new one first
 * (refused while another open order holds it) and frees the old one after; finishing the order frees
 * its table. Details other than the status need `orders:write` (kitchen staff move only the status).
 */
export async function updateOrder(commands: CommandHandler, policy: UpdateOrderPolicy, cmd: UpdateOrder): Promise<{ position: Position | null }> {
  const before = await orderState(commands, cmd.orderId);
  if (!before.orderId || before.deleted) throw notFound();
  const status = cmd.status ?? before.status!;
  const errors: FieldError[] = [];
  if (!isOrderStatus(status)) errors.push({ field: 'status', message: 'must be pending, preparing, ready, completed or cancelled' });
  // The waiter is the order's member of staff, named as the roster names them (the request's `waiter`
  // text is not a name of its own): another user id is a transfer.
  const handedTo = cmd.userId !== before.userId ? await checkUserExists(commands, cmd.userId, errors) : null;
  if (errors.length) throw validationFailed(errors);
  if (policy.completeRequiresPayment && status === 'completed' && before.status !== 'completed') await requirePaid(commands, before);
  const waiter = handedTo?.name ?? before.waiter;
  const detailsChange = handedTo !== null || cmd.tableId !== before.tableId || (cmd.guests !== undefined && cmd.guests !== before.guests);
  if (detailsChange && !may(cmd.authority.role, 'orders:write')) throw forbidden();
  const moving = cmd.tableId !== before.tableId;
  const seated = moving ? await seat(commands, cmd.tableId, cmd.orderId, cmd.context) : null;
  let updated;
  try {
    updated = await commands.handle(order, orderStream(cmd.orderId), {
      type: 'updateOrder', userId: cmd.userId, tableId: cmd.tableId, waiter, status: status as OrderStatus, at: cmd.at, ifMatch: cmd.ifMatch, authority: cmd.authority, ...(cmd.guests === undefined ? {} : { guests: cmd.guests }),
    }, cmd.context);
  } catch (error) {
    if (moving) await unseat(commands, cmd.tableId, cmd.orderId, cmd.context);
    throw error;
  }
  const released = await releaseAfter(commands, cmd.orderId, before.tableId, updated.state, cmd.context);
  return { position: later(seated, updated.position, released) };
}
