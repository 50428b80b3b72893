import { isOpen, validationFailed } from '@comanda/domain';
import type { CommandHandler } from '@comanda/event-store';
import { orderState } from '../orders/seating.js';

/** Whether an order is open right now, from its own stream (never a read model that may lag a seat). */
export const orderIsOpen = async (commands: CommandHandler, orderId: string): Promise<boolean> => isOpen(await orderState(commands, orderId));

/** The order a client names must be open right now; a table's seating stream itself only checks seat conflicts. */
export async function requireOpenOrder(commands: CommandHandler, orderId: string | null): Promise<void> {
  if (orderId === null) return;
  if (!(await orderIsOpen(commands, orderId))) {
    throw validationFailed([{ field: 'order_id', message: 'must reference an existing order that is not completed or cancelled' }]);
  }
}
