import type { KitchenTicketEvent } from '@comanda/domain';
import type { CommandHandler } from '@comanda/event-store';
import { orderFollowsKitchen, reconcileKitchen } from '@comanda/kitchen';
import type { Reaction } from '../reactor.js';

/**
 * Keeps kitchen tickets true to their orders: after a firing (opening tickets a crash left unopened),
 * a line's notes changed or removed, the order moved, cancelled or deleted. The order's stream is the
 * truth and every command is idempotent, so a redelivered event changes nothing more.
 */
export function kitchenTickets(commands: CommandHandler): Reaction {
  return {
    name: 'kitchen-tickets',
    handles: ['OrderLinesFired', 'OrderLineUpdated', 'OrderLineRemoved', 'OrderLinesCleared', 'OrderMovedToTable', 'OrderStatusChanged', 'OrderDeleted'],
    async react(event) {
      await reconcileKitchen(commands, event.stream.slice('order-'.length), { causationId: event.id, userId: null });
    },
  };
}

/**
 * The order follows its kitchen: the first ticket started moves a pending order to preparing; every
 * fired line done or cancelled makes it ready. Decided from the streams each time, so it is safe to
 * run late, twice, or after a crash.
 */
export function orderStatusFromKitchen(commands: CommandHandler, now: () => number = Date.now): Reaction {
  return {
    name: 'order-status-from-kitchen',
    handles: ['KitchenTicketStarted', 'KitchenLineDone', 'KitchenTicketBumped', 'KitchenLineCancelled'],
    async react(event) {
      const { orderId } = (event as unknown as KitchenTicketEvent).data as { orderId: string };
      await orderFollowsKitchen(commands, orderId, now(), { causationId: event.id, userId: null });
    },
  };
}

/** Every process manager of the kitchen, in the order the Reactor runs them. */
export const kitchenReactions = (commands: CommandHandler, now?: () => number): Reaction[] => [kitchenTickets(commands), orderStatusFromKitchen(commands, now)];
