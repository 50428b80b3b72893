import { type FieldError, type OrderStatus, type Role, forbidden, isOrderStatus, may, notFound, order, orderStream, validationFailed } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { requirePaid } from './amount-due.js';
import { later, orderState, releaseAfter, seat, unseat } from './seating.js';
import { checkUserExists } from './staff-check.js';

export interface UpdateOrder {
  orderId: string;
  userId: string;
  tableId: string | null;
  waiter: string;
  /** Absent: the order keeps its status. */
  status?: string;
  /** The role of who asks: kitchen staff may change the status only. */
  role: Role;
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
  if (cmd.userId !== before.userId) await checkUserExists(commands, cmd.userId, errors);
  if (errors.length) throw validationFailed(errors);
  if (policy.completeRequiresPayment && status === 'completed' && before.status !== 'completed') await requirePaid(commands, before);
  const waiter = cmd.waiter.trim();
  const detailsChange = cmd.userId !== before.userId || waiter !== before.waiter || cmd.tableId !== before.tableId;
  if (detailsChange && !may(cmd.role, 'orders:write')) throw forbidden();
  const moving = cmd.tableId !== before.tableId;
  const seated = moving ? await seat(commands, cmd.tableId, cmd.orderId, cmd.context) : null;
  let updated;
  try {
    updated = await commands.handle(order, orderStream(cmd.orderId), {
      type: 'updateOrder', userId: cmd.userId, tableId: cmd.tableId, waiter, status: status as OrderStatus, at: cmd.at, ifMatch: cmd.ifMatch,
    }, cmd.context);
  } catch (error) {
    if (moving) await unseat(commands, cmd.tableId, cmd.orderId, cmd.context);
    throw error;
  }
  const released = await releaseAfter(commands, cmd.orderId, before.tableId, updated.state, cmd.context);
  return { position: later(seated, updated.position, released) };
}
