import type { ReplayedEvent } from '@comanda/event-store';
import type { BillLedger, OrderEvent, TicketEvent } from '@comanda/domain';
import { followBill, refundValue, voidRefundValue, voidValue } from '../bill-ledgers.js';
import { isVoidRefund } from './sales.js';
import type { LocalClock } from '../clock.js';
import { isComp } from './discounts.js';
import { ORDER_BOOK_EVENTS, type OrderBook } from '../order-book.js';
import { type ReportDefinition, type Row, bucket, compareText, daysIn, eventTime, inRange, money, streamId } from '../report.js';

type Kind = 'order_cancelled' | 'order_deleted' | 'ticket_cancelled' | 'void' | 'refund';
const KINDS: readonly Kind[] = ['order_cancelled', 'order_deleted', 'ticket_cancelled', 'void', 'refund'];
interface Tally { count: number; cents: number }
interface CancellationsState {
  clock: LocalClock;
  book: OrderBook;
  ticketTotals: Map<string, number>;
  /** The bills not cancelled: what a void's line was worth, what of a refund gave back the bill's money. */
  bills: Map<string, BillLedger>;
  /** day → `${kind}\n${reason}` → tally. */
  days: Map<string, Map<string, Tally>>;
  /** Discounts and comps given, by id, until taken off: what a removal takes back. */
  given: Map<string, { day: string; kind: 'discount' | 'comp'; reason: string; waiter: string; cents: number }>;
}

/** Orders cancelled or deleted carry no reason in the log; they are listed under this one. */
const NO_REASON = '(no reason recorded)';

/**
 * What did not become a sale, with its reason: orders cancelled (their value when cancelled) and
 * pending orders deleted, bills cancelled, lines voided and payments refunded. Voids and refunds are
 * counted once each, on the basis of the sales they reduce (the sales report's): a void at its line's
 * value (on a paid bill, what the bill's money lost with it, `voidValue`), a refund at the bill's
 * part of it, without its tax when prices exclude tax; a void's own refund (reason "void: …") is the
 * void's money, added to it, not listed again; and the discounts and comps still on their orders, by
 * reason and by the order's waiter, on the day they were given.
 */
export const cancellationsReport: ReportDefinition<CancellationsState> = {
  name: 'cancellations',
  // 3: an order's total counts its lines' quantities, modifiers and discounts; discounts and comps by reason and by waiter.
  // 4: a void's refund counted once (as the void); voids and refunds on the basis of menu prices.
  // 5: a void after a refund on a paid bill takes what the bill's money lost (the sales report's rule).
  version: 5,
  title: 'Cancellations, voids and refunds',
  handles: [...ORDER_BOOK_EVENTS, 'OrderStatusChanged', 'TicketIssued', 'PaymentTaken', 'TicketPaid', 'TicketCancelled', 'TicketLineVoided', 'PaymentRefunded', 'ServiceChargeRemoved'],
  init: (clock, parts) => ({ clock, book: parts.orderBook(), ticketTotals: new Map(), bills: new Map(), days: new Map(), given: new Map() }),
  apply(s, event: ReplayedEvent) {
    const tally = (at: number, kind: Kind, reason: string, cents: number, count = 1) => {
      const t = bucket(bucket(s.days, s.clock.day(at), () => new Map<string, Tally>()), `${kind}\n${reason}`, () => ({ count: 0, cents: 0 }));
      t.count += count;
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
        followBill(s.bills, event);
        return;
      }
      case 'PaymentTaken':
      case 'TicketPaid':
        followBill(s.bills, event);
        return;
      case 'ServiceChargeRemoved': {
        // A bill cancelled later asked that much less.
        const { data } = event as Extract<TicketEvent, { type: 'ServiceChargeRemoved' }>;
        const id = streamId(event.stream);
        const total = s.ticketTotals.get(id);
        if (total !== undefined) s.ticketTotals.set(id, total - data.amountCents);
        followBill(s.bills, event);
        return;
      }
      case 'TicketCancelled': {
        const { data } = event as Extract<TicketEvent, { type: 'TicketCancelled' }>;
        const id = streamId(event.stream);
        tally(eventTime(event, data.at), 'ticket_cancelled', data.reason || NO_REASON, s.ticketTotals.get(id) ?? 0);
        s.ticketTotals.delete(id);
        followBill(s.bills, event);
        return;
      }
      case 'TicketLineVoided': {
        const { data } = event as Extract<TicketEvent, { type: 'TicketLineVoided' }>;
        tally(eventTime(event, data.at), 'void', data.reason, voidValue(followBill(s.bills, event), data.lineId, data.amountCents));
        return;
      }
      case 'PaymentRefunded': {
        const { data } = event as Extract<TicketEvent, { type: 'PaymentRefunded' }>;
        const change = followBill(s.bills, event);
        // A void's own refund is the rest of the void's money: added to it, not counted again.
        if (isVoidRefund(data.reason)) tally(eventTime(event, data.at), 'void', data.reason.slice('void: '.length), voidRefundValue(change), 0);
        else tally(eventTime(event, data.at), 'refund', data.reason, refundValue(change, data.paymentId, data.amountCents));
        return;
      }
      case 'DiscountGiven': {
        const { data } = event as Extract<OrderEvent, { type: 'DiscountGiven' }>;
        const waiter = s.book.apply(event)?.waiter ?? '';
        const kind = isComp(data) ? 'comp' : 'discount';
        s.given.set(data.discountId, { day: s.clock.day(eventTime(event, data.at)), kind, reason: data.reason, waiter, cents: data.amountCents });
        return;
      }
      case 'DiscountRemoved': {
        const { data } = event as Extract<OrderEvent, { type: 'DiscountRemoved' }>;
        s.book.apply(event);
        s.given.delete(data.discountId);
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
    const discounts = new Map<string, Tally>();
    const byWaiter = new Map<string, Tally & { comps: number }>();
    for (const g of s.given.values()) {
      if (!inRange(g.day, range)) continue;
      const r = bucket(discounts, `${g.kind}\n${g.reason}`, () => ({ count: 0, cents: 0 }));
      r.count++;
      r.cents += g.cents;
      const w = bucket(byWaiter, g.waiter, () => ({ count: 0, cents: 0, comps: 0 }));
      w.count++;
      w.cents += g.cents;
      if (g.kind === 'comp') w.comps++;
    }
    return {
      by_reason: byReason, by_day: byDay,
      discounts_by_reason: [...discounts].map(([key, t]) => ({ kind: key.slice(0, key.indexOf('\n')), reason: key.slice(key.indexOf('\n') + 1), count: t.count, amount: money(t.cents) }))
        .sort((a, b) => compareText(a.kind, b.kind) || b.count - a.count || compareText(a.reason, b.reason)),
      discounts_by_waiter: [...byWaiter].sort(([a], [b]) => compareText(a, b)).map(([waiter, t]) => ({ waiter, count: t.count, comps: t.comps, amount: money(t.cents) })),
    };
  },
  charts: [{ section: 'by_day', kind: 'bar', label: 'day', values: ['order_cancelled', 'ticket_cancelled', 'void', 'refund'], title: 'Cancellations, voids and refunds by day' }],
};
