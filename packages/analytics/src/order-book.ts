import type { RecordedEvent } from '@comanda/event-store';
import type { OrderEvent } from '@comanda/domain';
import { streamId } from './report.js';

export interface BookLine { dishId: string; priceCents: number }
export interface BookOrder {
  userId: string;
  waiter: string;
  tableId: string | null;
  lines: Map<string, BookLine>;
  totalCents: number;
}

/** The order events that change what an order holds (OrderDeleted takes it out of the book). */
export const ORDER_BOOK_EVENTS = ['OrderPlaced', 'DishesAdded', 'OrderLineUpdated', 'OrderLineRemoved', 'OrderLinesCleared', 'OrderDetailsChanged', 'OrderMovedToTable', 'OrderDeleted'] as const;

/**
 * The open orders, as compact as reports need them: lines (dish, price), waiter, table. A report
 * that owns one forgets an order once it has taken what it needs (completed, cancelled, deleted).
 */
export class OrderBook {
  readonly orders = new Map<string, BookOrder>();

  /** Applies an order event; returns the order it concerns (a deleted one as it was; undefined for an unknown order). */
  apply(event: RecordedEvent): BookOrder | undefined {
    const id = streamId(event.stream);
    const e = event as unknown as OrderEvent;
    if (e.type === 'OrderPlaced') {
      const o: BookOrder = { userId: e.data.userId, waiter: e.data.waiter, tableId: e.data.tableId, lines: new Map(), totalCents: 0 };
      this.orders.set(id, o);
      return o;
    }
    const o = this.orders.get(id);
    if (!o) return undefined;
    switch (e.type) {
      case 'DishesAdded':
        for (const l of e.data.lines) {
          const before = o.lines.get(l.lineId);
          if (before) o.totalCents -= before.priceCents;
          o.lines.set(l.lineId, { dishId: l.dishId, priceCents: l.priceCents });
          o.totalCents += l.priceCents;
        }
        break;
      case 'OrderLineUpdated': {
        const l = o.lines.get(e.data.lineId);
        if (l) {
          o.totalCents += e.data.priceCents - l.priceCents;
          l.priceCents = e.data.priceCents;
        }
        break;
      }
      case 'OrderLineRemoved': {
        const l = o.lines.get(e.data.lineId);
        if (l) {
          o.totalCents -= l.priceCents;
          o.lines.delete(e.data.lineId);
        }
        break;
      }
      case 'OrderLinesCleared':
        o.lines.clear();
        o.totalCents = 0;
        break;
      case 'OrderDetailsChanged':
        o.userId = e.data.userId;
        o.waiter = e.data.waiter;
        break;
      case 'OrderMovedToTable':
        o.tableId = e.data.to;
        break;
      case 'OrderDeleted':
        this.orders.delete(id);
        break;
      default:
        break;
    }
    return o;
  }

  /**
   * The order an `OrderStatusChanged` closes (to completed or cancelled), forgotten from the book
   * since a closed order changes no report any more; undefined for any other change or an unknown order.
   */
  close(event: RecordedEvent): { order: BookOrder; to: 'completed' | 'cancelled'; at: number } | undefined {
    const { data } = event as unknown as Extract<OrderEvent, { type: 'OrderStatusChanged' }>;
    if (data.to !== 'completed' && data.to !== 'cancelled') return undefined;
    const id = streamId(event.stream);
    const order = this.orders.get(id);
    if (!order) return undefined;
    this.orders.delete(id);
    return { order, to: data.to, at: data.at };
  }

  get(orderId: string): BookOrder | undefined {
    return this.orders.get(orderId);
  }
}
