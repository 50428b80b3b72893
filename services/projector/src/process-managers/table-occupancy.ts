import { type FloorEvent, type OrderEvent, isActive, order, orderStream } from '@comanda/domain';
import { releaseTableUnlessSeated } from '@comanda/workflows';
import { type CommandHandler, type RecordedEvent, isOneOf } from '@comanda/event-store';
import type { Reaction } from '../reactor.js';

/**
 * Keeps the tables true to the orders (each table's seating in its own stream, `table-<id>`). The API
 * seats an order before writing it and frees the table after the order finishes; if the process dies
 * between the two appends, this completes the work:
 * a table held by an order that was never written, has finished, was deleted or moved elsewhere is
 * released. The order's own stream is the truth; releasing is a no-op unless that order holds the table.
 */
export function tableOccupancy(commands: CommandHandler, now: () => number = Date.now, graceMs = 10_000): Reaction {
  /** Releases `tableId` unless the order still sits there, open (the same workflow the API uses). */
  async function settle(tableId: string | null, orderId: string, event: RecordedEvent): Promise<void> {
    await releaseTableUnlessSeated(commands, tableId, orderId, { causationId: event.id, userId: null });
  }

  return {
    name: 'table-occupancy',
    handles: ['TableOccupied', 'OrderStatusChanged', 'OrderDeleted', 'OrderMovedToTable'],
    // A seat taken a moment ago may belong to an order still being written by the API: judged once
    // the grace period after the seat has passed (scheduled by the Reactor, which goes on meanwhile).
    delayMs(event) {
      if (event.type !== 'TableOccupied') return 0;
      return Number(event.metadata.occurredAt ?? event.recordedAt) + graceMs - now();
    },
    async react(event) {
      if (isOneOf<Extract<FloorEvent, { type: 'TableOccupied' }>>(event, ['TableOccupied'])) {
        const { tableId, orderId } = event.data;
        if (!orderId) return;
        return settle(tableId, orderId, event);
      }
      if (!isOneOf<OrderEvent>(event, ['OrderStatusChanged', 'OrderDeleted', 'OrderMovedToTable'])) return;
      const orderId = event.stream.slice('order-'.length);
      const e = event;
      if (e.type === 'OrderStatusChanged' && isActive(e.data.to)) return;
      if (e.type === 'OrderDeleted') return settle(e.data.tableId, orderId, event);
      if (e.type === 'OrderMovedToTable') return settle(e.data.from, orderId, event);
      const { state } = await commands.state(order, orderStream(orderId));
      return settle(state.tableId, orderId, event);
    },
  };
}
