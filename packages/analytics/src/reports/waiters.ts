import type { RecordedEvent } from '@comanda/event-store';
import type { OrderEvent, TicketEvent } from '@comanda/domain';
import type { LocalClock } from '../clock.js';
import { ORDER_BOOK_EVENTS, OrderBook } from '../order-book.js';
import { type ReportDefinition, type Row, averageMoney, bucket, compareText, daysIn, eventTime, money, streamId } from '../report.js';

interface WaiterDay { orders: number; sales: number; tips: number }
interface WaitersState {
  clock: LocalClock;
  book: OrderBook;
  /** The waiter (user id) of every order, kept after completion: its bills' tips arrive later. */
  orderWaiter: Map<string, string>;
  ticketWaiter: Map<string, string>;
  names: Map<string, string>;
  days: Map<string, Map<string, WaiterDay>>;
}

const newDay = (): WaiterDay => ({ orders: 0, sales: 0, tips: 0 });

/**
 * By waiter (the order's user; the name printed is the last one the orders gave): orders completed,
 * their sales (lines at completion), the average ticket, and the tips taken on their orders' bills.
 */
export const waitersReport: ReportDefinition<WaitersState> = {
  name: 'waiters',
  version: 1,
  title: 'Waiters',
  handles: [...ORDER_BOOK_EVENTS, 'OrderStatusChanged', 'TicketIssued', 'PaymentTaken'],
  init: (clock) => ({ clock, book: new OrderBook(), orderWaiter: new Map(), ticketWaiter: new Map(), names: new Map(), days: new Map() }),
  apply(s, event: RecordedEvent) {
    switch (event.type) {
      case 'OrderStatusChanged': {
        const closed = s.book.close(event);
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
      default: {
        const o = s.book.apply(event);
        if (!o) return;
        s.orderWaiter.set(streamId(event.stream), o.userId);
        s.names.set(o.userId, o.waiter);
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
