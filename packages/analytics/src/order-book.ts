import { type ReplayedEvent, isOneOf } from '@comanda/event-store';
import { type OrderEvent, lineTotal } from '@comanda/domain';
import { streamId } from './report.js';

/** `amountCents`: what the line comes to ((price + modifiers) × quantity); `optionIds`: its modifier options. */
export interface BookLine { dishId: string; priceCents: number; quantity: number; amountCents: number; optionIds: string[] }
export interface BookOrder {
  userId: string;
  waiter: string;
  tableId: string | null;
  lines: Map<string, BookLine>;
  /** Discounts given, by id (absent on books saved before discounts): the total is net of them. */
  discounts?: Map<string, number>;
  totalCents: number;
  /** How many guests sat down (covers); absent when not said. */
  guests?: number;
}

/** The order events that change what an order holds (OrderDeleted takes it out of the book). */
export const ORDER_BOOK_EVENTS = [
  'OrderPlaced', 'DishesAdded', 'OrderLineUpdated', 'OrderLineRemoved', 'OrderLinesCleared', 'OrderDetailsChanged', 'OrderMovedToTable', 'OrderDeleted', 'DiscountGiven', 'DiscountRemoved', 'OrderGuestsChanged',
] as const;

/**
 * The open orders, as compact as reports need them: lines (dish, price), waiter, table. A report
 * that owns one forgets an order once it has taken what it needs (completed, cancelled, deleted).
 *
 * Reports folded together share one book (`FoldParts`): each applies the same event to it, and
 * every call after the first answers what the first did, so an order event costs one update however
 * many reports read it (four of the eight do; they were a fifth of a replay's fold).
 */
export class OrderBook {
  readonly orders = new Map<string, BookOrder>();
  // Private fields: never part of a saved state (state-codec writes enumerable fields only).
  #applied: ReplayedEvent | undefined;
  #appliedGave: BookOrder | undefined;
  #closed: ReplayedEvent | undefined;
  #closedGave: Closed | undefined;

  /** Applies an order event; returns the order it concerns (a deleted one as it was; undefined for an unknown order). */
  apply(event: ReplayedEvent): BookOrder | undefined {
    if (event !== this.#applied) {
      this.#applied = event;
      this.#appliedGave = this.update(event);
    }
    return this.#appliedGave;
  }

  /**
   * The order an `OrderStatusChanged` closes (to completed or cancelled), forgotten from the book
   * since a closed order changes no report any more; undefined for any other change or an unknown order.
   */
  close(event: ReplayedEvent): Closed | undefined {
    if (event !== this.#closed) {
      this.#closed = event;
      this.#closedGave = this.forget(event);
    }
    return this.#closedGave;
  }

  get(orderId: string): BookOrder | undefined {
    return this.orders.get(orderId);
  }

  private update(event: ReplayedEvent): BookOrder | undefined {
    const id = streamId(event.stream);
    // Any other event changes nothing the book holds: the order as it is.
    if (!isOneOf<OrderEvent>(event, ORDER_BOOK_EVENTS)) return this.orders.get(id);
    const e = event;
    if (e.type === 'OrderPlaced') {
      const o: BookOrder = { userId: e.data.userId, waiter: e.data.waiter, tableId: e.data.tableId, lines: new Map(), totalCents: 0, ...(e.data.guests ? { guests: e.data.guests } : {}) };
      this.orders.set(id, o);
      return o;
    }
    const o = this.orders.get(id);
    if (!o) return undefined;
    switch (e.type) {
      case 'DishesAdded':
        for (const l of e.data.lines) {
          const before = o.lines.get(l.lineId);
          if (before) o.totalCents -= before.amountCents;
          const line = { dishId: l.dishId, priceCents: l.priceCents, quantity: l.quantity ?? 1, amountCents: lineTotal(l), optionIds: (l.modifiers ?? []).map((m) => m.optionId) };
          o.lines.set(l.lineId, line);
          o.totalCents += line.amountCents;
        }
        break;
      case 'OrderLineUpdated': {
        const l = o.lines.get(e.data.lineId);
        if (l) {
          // Modifiers never change after the line is added: the portion's price moves by the dish's.
          const portion = l.amountCents / l.quantity - l.priceCents + e.data.priceCents;
          l.priceCents = e.data.priceCents;
          l.quantity = e.data.quantity ?? l.quantity;
          o.totalCents += portion * l.quantity - l.amountCents;
          l.amountCents = portion * l.quantity;
        }
        break;
      }
      case 'OrderLineRemoved': {
        const l = o.lines.get(e.data.lineId);
        if (l) {
          o.totalCents -= l.amountCents;
          o.lines.delete(e.data.lineId);
        }
        break;
      }
      case 'OrderLinesCleared':
        o.lines.clear();
        o.totalCents = 0;
        break;
      case 'DiscountGiven':
        (o.discounts ??= new Map()).set(e.data.discountId, e.data.amountCents);
        o.totalCents -= e.data.amountCents;
        break;
      case 'DiscountRemoved':
        o.totalCents += o.discounts?.get(e.data.discountId) ?? 0;
        o.discounts?.delete(e.data.discountId);
        break;
      case 'OrderDetailsChanged':
        o.userId = e.data.userId;
        o.waiter = e.data.waiter;
        break;
      case 'OrderMovedToTable':
        o.tableId = e.data.to;
        break;
      case 'OrderGuestsChanged':
        o.guests = e.data.guests;
        break;
      case 'OrderDeleted':
        this.orders.delete(id);
        break;
      default:
        break;
    }
    return o;
  }

  private forget(event: ReplayedEvent): Closed | undefined {
    if (!isOneOf<Extract<OrderEvent, { type: 'OrderStatusChanged' }>>(event, ['OrderStatusChanged'])) return undefined;
    const { data } = event;
    if (data.to !== 'completed' && data.to !== 'cancelled') return undefined;
    const id = streamId(event.stream);
    const order = this.orders.get(id);
    if (!order) return undefined;
    this.orders.delete(id);
    return { order, to: data.to, at: data.at };
  }
}

/** An order closed by an `OrderStatusChanged`. */
export interface Closed { order: BookOrder; to: 'completed' | 'cancelled'; at: number }

/** What the reports of one fold share: `orderBook()` gives each the same book. */
export interface FoldParts {
  orderBook(): OrderBook;
}

/** Parts for reports folded together, in lock step (a replay, a thread of one). */
export function sharedParts(): FoldParts {
  let book: OrderBook | undefined;
  return { orderBook: () => (book ??= new OrderBook()) };
}

/** Parts of a report folded on its own (a report rebuilt beside the others, or restored apart from them). */
export const ownParts: FoldParts = { orderBook: () => new OrderBook() };
