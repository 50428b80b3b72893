import type { KitchenTicketEvent, SettingsEvent } from '@comanda/domain';
import type { CommandHandler, RecordedEvent } from '@comanda/event-store';
import { autoBumpTicket, orderFollowsKitchen, reconcileKitchen } from '@comanda/kitchen';
import type { Reaction } from '../reactor.js';

const orderIdOf = (event: RecordedEvent): string =>
  event.stream.startsWith('order-') ? event.stream.slice('order-'.length) : (event.data as KitchenTicketEvent['data']).orderId;

/**
 * Keeps kitchen tickets true to their orders: after a firing (opening tickets a crash left unopened),
 * a line's notes changed or removed, the order moved; once the order is completed, cancelled or
 * deleted its tickets still on the board are closed. A recall is checked too: a ticket recalled while
 * its order finished is closed again. The order's stream is the truth and every command is idempotent,
 * so a redelivered event (a crash between the order's event and the close) changes nothing more.
 */
export function kitchenTickets(commands: CommandHandler, now: () => number = Date.now): Reaction {
  return {
    name: 'kitchen-tickets',
    handles: ['OrderLinesFired', 'OrderLineUpdated', 'OrderLineRemoved', 'OrderLinesCleared', 'OrderMovedToTable', 'OrderStatusChanged', 'OrderDeleted', 'KitchenTicketRecalled'],
    async react(event) {
      await reconcileKitchen(commands, orderIdOf(event), { causationId: event.id, userId: null }, now());
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
      await orderFollowsKitchen(commands, orderIdOf(event), now(), { causationId: event.id, userId: null });
    },
  };
}

/**
 * Auto-bump (the settings' `kitchenAutoBumpMinutes`; 0 = never): a ticket every line of which is done,
 * left so that long since it became ready (or was recalled), is bumped. The change that may make it
 * ready schedules the check in the reactor's due-time queue from the change's own time; a restart
 * schedules it again from the log. `minutes` is what is in force where the reactor starts; a
 * SettingsChanged it meets in the log changes it from there on (on whichever process leads), and each
 * check keeps the minutes it was scheduled with, so a change never strands a ticket already waiting.
 */
export function autoBump(commands: CommandHandler, minutes: number, now: () => number = Date.now): Reaction {
  let waitMs = minutes * 60_000;
  const scheduledWith = new Map<string, number>();
  return {
    name: 'kitchen-auto-bump',
    handles: ['KitchenLineDone', 'KitchenLineCancelled', 'KitchenTicketRecalled', 'SettingsChanged'],
    delayMs(event) {
      if (event.type === 'SettingsChanged') {
        const changed = (event.data as SettingsEvent['data']).changes.kitchenAutoBumpMinutes;
        if (changed !== undefined) waitMs = changed * 60_000;
        return 0;
      }
      scheduledWith.set(event.id, waitMs);
      return ((event.data as { at?: number }).at ?? Number(event.metadata.occurredAt ?? event.recordedAt)) + waitMs - now();
    },
    async react(event) {
      const wait = scheduledWith.get(event.id) ?? waitMs;
      scheduledWith.delete(event.id);
      if (event.type === 'SettingsChanged' || wait === 0) return;
      const { ticketId } = event.data as KitchenTicketEvent['data'];
      await autoBumpTicket(commands, ticketId, wait, now(), { causationId: event.id, userId: null });
    },
  };
}

/** Every process manager of the kitchen, in the order the Reactor runs them; auto-bump always, idle while its minutes are 0 (a manager may set them any time). */
export const kitchenReactions = (commands: CommandHandler, now?: () => number, autoBumpMinutes = 0): Reaction[] => [
  kitchenTickets(commands, now), orderStatusFromKitchen(commands, now), autoBump(commands, autoBumpMinutes, now),
];
