import type { ReplayedEvent } from '@comanda/event-store';
import type { OrderEvent, TicketEvent } from '@comanda/domain';
import type { LocalClock } from '../clock.js';
import { ORDER_BOOK_EVENTS, type OrderBook } from '../order-book.js';
import { type ReportDefinition, type Row, bucket, compareText, daysIn, eventTime, money, streamId } from '../report.js';

type Kind = 'order_cancelled' | 'order_deleted' | 'ticket_cancelled' | 'void' | 'refund';
const KINDS: readonly Kind[] = ['order_cancelled', 'order_deleted', 'ticket_cancelled', 'void', 'refund'];
interface Tally { count: number; cents: number }
interface CancellationsState {
  clock: LocalClock;
  book: OrderBook;
  ticketTotals: Map<string, number>;
  /** day → `${kind}\n${reason}` → tally. */
  days: Map<string, Map<string, Tally>>;
}

/** Orders cancelled or deleted carry no reason in the log; they are listed under this one. */
const NO_REASON = '(no reason recorded)';

/**
 * What did not become a sale, with its reason: orders cancelled (their value when cancelled) and
 * pending orders deleted, bills cancelled, lines voided and payments refunded (a void's refund is
 * listed as a refund whose reason starts with "void:").
 */
export const cancellationsReport: ReportDefinition<CancellationsState> = {
  name: 'cancellations',
  // 2: an order's total counts its lines' quantities and modifiers.
  version: 2,
  title: 'Cancellations, voids and refunds',
  handles: [...ORDER_BOOK_EVENTS, 'OrderStatusChanged', 'TicketIssued', 'TicketCancelled', 'TicketLineVoided', 'PaymentRefunded'],
  init: (clock, parts) => ({ clock, book: parts.orderBook(), ticketTotals: new Map(), days: new Map() }),
  apply(s, event: ReplayedEvent) {
    const tally = (at: number, kind: Kind, reason: string, cents: number) => {
      const t = bucket(bucket(s.days, s.clock.day(at), () => new Map<string, Tally>()), `${kind}\n${reason}`, () => ({ count: 0, cents: 0 }));
      t.count++;
      t.cents += cents;
    };
    switch (event.type) {
      case 'OrderStatusChanged': {
        const closed = s.book.close(event);
        if (closed?.to === 'cancelled') tally(closed.at, 'order_cancelled', NO_REASON, closed.order.totalCents);
        return;
      }
      case 'OrderDeleted': {
        // A cancelled order deleted later was counted when it was cancelled (the book no longer holds it).
        const o = s.book.apply(event);
        if (o) tally(eventTime(event), 'order_deleted', NO_REASON, o.totalCents);
        return;
      }
      case 'TicketIssued': {
        const { data } = event as Extract<TicketEvent, { type: 'TicketIssued' }>;
        s.ticketTotals.set(streamId(event.stream), data.subtotalCents);
        return;
      }
      case 'TicketCancelled': {
        const { data } = event as Extract<TicketEvent, { type: 'TicketCancelled' }>;
        const id = streamId(event.stream);
        tally(eventTime(event, data.at), 'ticket_cancelled', data.reason || NO_REASON, s.ticketTotals.get(id) ?? 0);
        s.ticketTotals.delete(id);
        return;
      }
      case 'TicketLineVoided': {
        const { data } = event as Extract<TicketEvent, { type: 'TicketLineVoided' }>;
        tally(eventTime(event, data.at), 'void', data.reason, data.amountCents);
        return;
      }
      case 'PaymentRefunded': {
        const { data } = event as Extract<TicketEvent, { type: 'PaymentRefunded' }>;
        tally(eventTime(event, data.at), 'refund', data.reason, data.amountCents);
        return;
      }
      default: {
        s.book.apply(event);
      }
    }
  },
  query(s, range) {
    const reasons = new Map<string, Tally>();
    const byDay: Row[] = [];
    for (const [day, d] of daysIn(s.days, range)) {
      const kinds = new Map<Kind, Tally>();
      for (const [key, t] of d) {
        const r = bucket(reasons, key, () => ({ count: 0, cents: 0 }));
        r.count += t.count;
        r.cents += t.cents;
        const k = bucket(kinds, key.slice(0, key.indexOf('\n')) as Kind, () => ({ count: 0, cents: 0 }));
        k.count += t.count;
        k.cents += t.cents;
      }
      const row: Row = { day };
      for (const kind of KINDS) {
        row[kind] = kinds.get(kind)?.count ?? 0;
        row[`${kind}_amount`] = money(kinds.get(kind)?.cents ?? 0);
      }
      byDay.push(row);
    }
    const byReason: Row[] = [...reasons]
      .map(([key, t]) => ({ kind: key.slice(0, key.indexOf('\n')), reason: key.slice(key.indexOf('\n') + 1), t }))
      .sort((a, b) => KINDS.indexOf(a.kind as Kind) - KINDS.indexOf(b.kind as Kind) || b.t.count - a.t.count || compareText(a.reason, b.reason))
      .map(({ kind, reason, t }) => ({ kind, reason, count: t.count, amount: money(t.cents) }));
    return { by_reason: byReason, by_day: byDay };
  },
  charts: [{ section: 'by_day', kind: 'bar', label: 'day', values: ['order_cancelled', 'ticket_cancelled', 'void', 'refund'], title: 'Cancellations, voids and refunds by day' }],
};
