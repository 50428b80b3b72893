import type { ReplayedEvent } from '@comanda/event-store';
import type { OrderEvent, TicketEvent } from '@comanda/domain';
import type { LocalClock } from '../clock.js';
import { ORDER_BOOK_EVENTS, type OrderBook } from '../order-book.js';
import { type ReportDefinition, type Row, averageMoney, bucket, compareText, daysIn, eventTime, money, streamId } from '../report.js';

interface WaiterDay { orders: number; sales: number; tips: number }
interface WaitersState {
  clock: LocalClock;
  book: OrderBook;
  /** The waiter (user id) of each order, kept after it closes: its bills may be issued later. */
  orderWaiter: Map<string, string>;
  /** Orders closed (completed, cancelled, deleted), oldest first, and when. */
  closedAt: Map<string, number>;
  /** The waiter of each bill (ticket) until it is paid or cancelled: its tips arrive with its payments. */
  ticketWaiter: Map<string, string>;
  names: Map<string, string>;
  days: Map<string, Map<string, WaiterDay>>;
}

const newDay = (): WaiterDay => ({ orders: 0, sales: 0, tips: 0 });

/**
 * An order's waiter is forgotten this long after the order closed: bills are issued the same night,
 * and remembering every order ever was most of this report's memory (docs/benchmarks.md). A bill issued later is credited to the name on the bill.
 */
export const WAITER_KEPT_DAYS = 7;

function closeOrder(s: WaitersState, orderId: string, at: number): void {
  s.closedAt.delete(orderId);
  s.closedAt.set(orderId, at);
  const before = at - WAITER_KEPT_DAYS * 86_400_000;
  for (const [id, closed] of s.closedAt) {
    if (closed >= before) break;
    s.closedAt.delete(id);
    s.orderWaiter.delete(id);
  }
}

/**
 * By waiter (the order's user; the name printed is the last one the orders gave): orders completed,
 * their sales (lines at completion), the average ticket, and the tips taken on their orders' bills.
 */
export const waitersReport: ReportDefinition<WaitersState> = {
  name: 'waiters',
  // 3: an order's total counts its lines' quantities and modifiers.
  version: 3,
  title: 'Waiters',
  handles: [...ORDER_BOOK_EVENTS, 'OrderStatusChanged', 'TicketIssued', 'PaymentTaken', 'TicketPaid', 'TicketCancelled'],
  init: (clock, parts) => ({ clock, book: parts.orderBook(), orderWaiter: new Map(), closedAt: new Map(), ticketWaiter: new Map(), names: new Map(), days: new Map() }),
  apply(s, event: ReplayedEvent) {
    switch (event.type) {
      case 'OrderStatusChanged': {
        const closed = s.book.close(event);
        if (closed) closeOrder(s, streamId(event.stream), closed.at);
        if (closed?.to !== 'completed') return;
        const { order: o, at } = closed;
        const w = bucket(bucket(s.days, s.clock.day(at), () => new Map<string, WaiterDay>()), o.userId, newDay);
        w.orders++;
        w.sales += o.totalCents;
        return;
      }
      case 'TicketIssued': {
        const { data } = event as Extract<TicketEvent, { type: 'TicketIssued' }>;
        s.ticketWaiter.set(streamId(event.stream), s.orderWaiter.get(data.orderId) ?? data.waiter);
        return;
      }
      case 'PaymentTaken': {
        const { data } = event as Extract<TicketEvent, { type: 'PaymentTaken' }>;
        if (data.tipCents === 0) return;
        const waiter = s.ticketWaiter.get(streamId(event.stream));
        if (waiter === undefined) return;
        bucket(bucket(s.days, s.clock.day(eventTime(event, data.takenAt)), () => new Map<string, WaiterDay>()), waiter, newDay).tips += data.tipCents;
        return;
      }
      case 'TicketPaid':
      case 'TicketCancelled':
        // The ticket takes no more payments (the decider refuses them), so no more tips.
        s.ticketWaiter.delete(streamId(event.stream));
        return;
      default: {
        const o = s.book.apply(event);
        if (!o) return;
        const orderId = streamId(event.stream);
        s.orderWaiter.set(orderId, o.userId);
        s.names.set(o.userId, o.waiter);
        if (event.type === 'OrderDeleted') closeOrder(s, orderId, eventTime(event));
      }
    }
  },
  query(s, range) {
    const waiters = new Map<string, WaiterDay>();
    for (const [, day] of daysIn(s.days, range)) {
      for (const [id, d] of day) {
        const w = bucket(waiters, id, newDay);
        w.orders += d.orders;
        w.sales += d.sales;
        w.tips += d.tips;
      }
    }
    const rows: Row[] = [...waiters]
      .map(([id, w]) => ({ id, w, name: s.names.get(id) ?? id }))
      .sort((a, b) => b.w.sales - a.w.sales || compareText(a.name, b.name) || compareText(a.id, b.id))
      .map(({ id, w, name }) => ({ waiter_id: id, waiter: name, orders: w.orders, sales: money(w.sales), average_ticket: averageMoney(w.sales, w.orders), tips: money(w.tips) }));
    return { by_waiter: rows };
  },
  charts: [{ section: 'by_waiter', kind: 'bar', label: 'waiter', values: ['sales', 'tips'], title: 'Sales and tips by waiter' }],
};
