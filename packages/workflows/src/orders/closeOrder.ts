import { DomainError, type Order, TICKET_STATUS, isOpen, notFound, order, orderStream, ticket, ticketStream } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { later, orderState, releaseAfter } from './seating.js';

export interface CloseOrder { orderId: string; at: number; context: CommandContext }

/** The order's bills whose every live ticket is paid, read from the tickets' own streams. */
async function paidBills(commands: CommandHandler, o: Order): Promise<string[]> {
  const paid: string[] = [];
  for (const [billId, bill] of Object.entries(o.billing.bills)) {
    const statuses = await Promise.all(bill.live.map(async (id) => (await commands.state(ticket, ticketStream(id))).state.status));
    if (statuses.every((s) => s === TICKET_STATUS.paid)) paid.push(billId);
  }
  return paid;
}

/**
 * Closes a table: an order paid in full (every line on a paid bill) is completed whatever the
 * kitchen's state, and its table is freed; its kitchen tickets close with it (the kitchen-tickets
 * reaction, as for any completed order). The order is written first and the table released after, as
 * every end of an order does, so a crash between leaves a release the table-occupancy reaction completes.
 */
export async function closeOrder(commands: CommandHandler, cmd: CloseOrder): Promise<{ position: Position | null }> {
  const before = await orderState(commands, cmd.orderId);
  if (!before.orderId || before.deleted) throw notFound();
  const closed = await commands.handle(order, orderStream(cmd.orderId), { type: 'closeOrder', at: cmd.at, paidBills: await paidBills(commands, before) }, cmd.context);
  const released = await releaseAfter(commands, cmd.orderId, closed.state.tableId, closed.state, cmd.context);
  return { position: later(closed.position, released) };
}

/**
 * COMANDA_CLOSE_PAID_ORDERS: after a bill is paid, the order closes by itself once it is paid in full.
 * An order still owing, or already ended, is left as it is (null): the next payment asks again.
 */
export async function closeIfPaid(commands: CommandHandler, cmd: CloseOrder): Promise<{ position: Position | null } | null> {
  const now = await orderState(commands, cmd.orderId);
  if (!isOpen(now)) return null;
  try {
    return await closeOrder(commands, cmd);
  } catch (error) {
    // Not yet paid in full (another bill still open, a line on no bill): a fact, not a failure.
    if (error instanceof DomainError && error.kind === 'conflict') return null;
    throw error;
  }
}
