import type { ReplayedEvent } from '@comanda/event-store';
import { type BillLedger, type Role, type ShiftTimes, type StaffEvent, type TicketEvent, type TimeClockEvent, breakMs, workedMs } from '@comanda/domain';
import { billValue, followBill, refundValue, voidRefundValue, voidValue } from '../bill-ledgers.js';
import type { LocalClock } from '../clock.js';
import { isVoidRefund } from './sales.js';
import { ORDER_BOOK_EVENTS, type OrderBook } from '../order-book.js';
import { type ReportDefinition, type Row, averageMoney, bucket, compareText, daysIn, eventTime, inRange, money, streamId } from '../report.js';

/** `sales`: what their completed orders came to, less voids and refunds; `unpaid` is apart from it (in it until paid); `covers`: their completed orders' guests. */
interface WaiterDay { orders: number; sales: number; tips: number; covers: number }
/** A shift on the time clock, as the time shifts read model keeps it, and whose it is. */
type Shift = ShiftTimes & { userId: string };
/** A completed order not yet paid in full: what is still unpaid, by whom and on which day it completed. */
interface Unpaid { userId: string; day: string; cents: number }
interface WaitersState {
  clock: LocalClock;
  book: OrderBook;
  /** The waiter (user id) of each order, kept after it closes: its bills may be issued later. */
  orderWaiter: Map<string, string>;
  /** Orders closed (completed, cancelled, deleted), oldest first, and when. */
  closedAt: Map<string, number>;
  /** The waiter (user id) of each bill not cancelled: its tips, and any void or refund after payment, are theirs. */
  ticketWaiter: Map<string, string>;
  /** The order of each bill until it is paid or cancelled: paying it pays that much of the order. */
  ticketOrder: Map<string, string>;
  bills: Map<string, BillLedger>;
  /** What bills paid or voids settled of an order not yet completed, by order. */
  settled: Map<string, number>;
  /** Completed orders not paid in full (walk-outs, or bills still to be paid), by order. */
  unpaid: Map<string, Unpaid>;
  names: Map<string, string>;
  /** The staff as the roster says: a waiter on the clock is in the report with no orders yet. */
  staff: Map<string, { name: string; role: Role }>;
  /** Every shift on the time clock, by id (a manager may correct any of them later). */
  shifts: Map<string, Shift>;
  days: Map<string, Map<string, WaiterDay>>;
}

const newDay = (): WaiterDay => ({ orders: 0, sales: 0, tips: 0, covers: 0 });
const dayOf = (s: WaitersState, at: number, userId: string): WaiterDay => bucket(bucket(s.days, s.clock.day(at), () => new Map<string, WaiterDay>()), userId, newDay);

/** Part of an order settled (its bill paid, or a line voided before payment): off what it still owes. */
function settle(s: WaitersState, orderId: string, cents: number): void {
  const open = s.unpaid.get(orderId);
  if (!open) {
    s.settled.set(orderId, (s.settled.get(orderId) ?? 0) + cents);
    return;
  }
  open.cents -= cents;
  if (open.cents <= 0) s.unpaid.delete(orderId);
}

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
 * By waiter, keyed by user id (the name printed is the last one that user's orders gave; two waiters
 * of one name are two rows): orders completed; their sales, the lines at completion less voids and
 * refunds (on the sales report's basis, on their own days) and less what is still unpaid; the
 * unpaid orders (walk-outs, or bills not yet paid) and their amount, apart; the average ticket; and
 * the tips taken on their orders' bills; the covers (guests) of their completed orders; the hours
 * they worked and spent on breaks by the time clock (a shift counts on the day it began, once clocked out).
 */
const TIME_CLOCK_EVENTS = ['ClockedIn', 'BreakStarted', 'BreakEnded', 'ClockedOut', 'TimeCorrected'] as const;
/** Hours to the hundredth (7.5 for 7 h 30 min): a payroll figure, summed from the shifts' milliseconds. */
const hours = (ms: number): number => Math.round(ms / 36_000) / 100;

function followStaff(s: WaitersState, e: StaffEvent): void {
  const member = s.staff.get(e.data.userId);
  if (e.type === 'UserCreated') s.staff.set(e.data.userId, { name: e.data.name, role: e.data.role });
  else if (member && e.type === 'UserRenamed') member.name = e.data.name;
  else if (member && e.type === 'UserRoleChanged') member.role = e.data.role;
}

/** A shift as the time shifts read model follows it (packages/read-models time-shifts.ts): its times, its breaks, a manager's correction. */
function followShift(s: WaitersState, e: TimeClockEvent): void {
  const d = e.data;
  const shift = s.shifts.get(d.shiftId);
  switch (e.type) {
    case 'ClockedIn':
      s.shifts.set(d.shiftId, { userId: d.userId, clocked_in_at: e.data.at, clocked_out_at: null, break_since: null, break_ms: 0 });
      return;
    case 'BreakStarted':
      if (shift) shift.break_since = e.data.at;
      return;
    case 'BreakEnded':
      if (shift && shift.break_since !== null) shift.break_ms += e.data.at - shift.break_since;
      if (shift) shift.break_since = null;
      return;
    case 'ClockedOut':
      if (shift) shift.clocked_out_at = e.data.at;
      return;
    case 'TimeCorrected':
      s.shifts.set(d.shiftId, { userId: d.userId, clocked_in_at: e.data.clockedInAt, clocked_out_at: e.data.clockedOutAt, break_since: null, break_ms: e.data.breakMinutes * 60_000 });
  }
}

export const waitersReport: ReportDefinition<WaitersState> = {
  name: 'waiters',
  // 3: an order's total counts its lines' quantities and modifiers. 4: after voids and refunds; unpaid orders apart.
  // 5: a void after a refund on a paid bill takes what the bill's money lost (the sales report's rule).
  // 6: covers, hours worked and on break (issue 60).
  version: 6,
  title: 'Waiters',
  handles: [...ORDER_BOOK_EVENTS, 'OrderStatusChanged', 'TicketIssued', 'PaymentTaken', 'TicketPaid', 'TicketCancelled', 'TicketLineVoided', 'PaymentRefunded', 'ServiceChargeRemoved',
    'UserCreated', 'UserRenamed', 'UserRoleChanged', ...TIME_CLOCK_EVENTS],
  init: (clock, parts) => ({
    clock, book: parts.orderBook(), orderWaiter: new Map(), closedAt: new Map(), ticketWaiter: new Map(), ticketOrder: new Map(), bills: new Map(),
    settled: new Map(), unpaid: new Map(), names: new Map(), staff: new Map(), shifts: new Map(), days: new Map(),
  }),
  apply(s, event: ReplayedEvent) {
    switch (event.type) {
      case 'OrderStatusChanged': {
        const closed = s.book.close(event);
        const orderId = streamId(event.stream);
        if (closed) closeOrder(s, orderId, closed.at);
        if (closed?.to !== 'completed') {
          if (closed) s.settled.delete(orderId);
          return;
        }
        const { order: o, at } = closed;
        const w = dayOf(s, at, o.userId);
        w.orders++;
        w.sales += o.totalCents;
        w.covers += o.guests ?? 0;
        const owed = o.totalCents - (s.settled.get(orderId) ?? 0);
        s.settled.delete(orderId);
        if (owed > 0) s.unpaid.set(orderId, { userId: o.userId, day: s.clock.day(at), cents: owed });
        return;
      }
      case 'TicketIssued': {
        const { data } = event as Extract<TicketEvent, { type: 'TicketIssued' }>;
        const id = streamId(event.stream);
        followBill(s.bills, event);
        // The order's user; once the order is forgotten, the one its unpaid amount names; never the printed name.
        s.ticketWaiter.set(id, s.orderWaiter.get(data.orderId) ?? s.unpaid.get(data.orderId)?.userId ?? '');
        s.ticketOrder.set(id, data.orderId);
        return;
      }
      case 'PaymentTaken': {
        const { data } = event as Extract<TicketEvent, { type: 'PaymentTaken' }>;
        followBill(s.bills, event);
        const waiter = s.ticketWaiter.get(streamId(event.stream));
        if (data.tipCents === 0 || waiter === undefined) return;
        dayOf(s, eventTime(event, data.takenAt), waiter).tips += data.tipCents;
        return;
      }
      case 'TicketPaid': {
        const id = streamId(event.stream);
        const { after } = followBill(s.bills, event);
        const orderId = s.ticketOrder.get(id);
        s.ticketOrder.delete(id);
        if (after && orderId !== undefined) settle(s, orderId, billValue(after));
        return;
      }
      case 'ServiceChargeRemoved':
        followBill(s.bills, event);
        return;
      case 'TicketCancelled': {
        const id = streamId(event.stream);
        followBill(s.bills, event);
        s.ticketWaiter.delete(id);
        s.ticketOrder.delete(id);
        return;
      }
      case 'TicketLineVoided': {
        const { data } = event as Extract<TicketEvent, { type: 'TicketLineVoided' }>;
        const id = streamId(event.stream);
        const change = followBill(s.bills, event);
        const { before } = change;
        const value = voidValue(change, data.lineId, data.amountCents);
        const waiter = s.ticketWaiter.get(id);
        if (waiter !== undefined) dayOf(s, eventTime(event, data.at), waiter).sales -= value;
        // Voided before its bill was paid, the line is no longer owed; after, the payment settled it.
        const orderId = s.ticketOrder.get(id);
        if (orderId !== undefined && !before?.paid) settle(s, orderId, value);
        return;
      }
      case 'PaymentRefunded': {
        const { data } = event as Extract<TicketEvent, { type: 'PaymentRefunded' }>;
        const change = followBill(s.bills, event);
        const waiter = s.ticketWaiter.get(change.ticketId);
        if (waiter === undefined) return;
        dayOf(s, eventTime(event, data.at), waiter).sales -= isVoidRefund(data.reason) ? voidRefundValue(change) : refundValue(change, data.paymentId, data.amountCents);
        return;
      }
      case 'UserCreated':
      case 'UserRenamed':
      case 'UserRoleChanged':
        followStaff(s, event as StaffEvent);
        return;
      case 'ClockedIn':
      case 'BreakStarted':
      case 'BreakEnded':
      case 'ClockedOut':
      case 'TimeCorrected':
        followShift(s, event as TimeClockEvent);
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
    const waiters = new Map<string, WaiterDay & { unpaidOrders: number; unpaid: number; workedMs: number; breakMs: number }>();
    const row = (id: string) => bucket(waiters, id, () => ({ ...newDay(), unpaidOrders: 0, unpaid: 0, workedMs: 0, breakMs: 0 }));
    for (const [, day] of daysIn(s.days, range)) {
      for (const [id, d] of day) {
        const w = row(id);
        w.orders += d.orders;
        w.sales += d.sales;
        w.tips += d.tips;
        w.covers += d.covers;
      }
    }
    for (const shift of s.shifts.values()) {
      // Under way, a shift's hours are not known yet: the same log answers the same figures whenever it is read.
      if (shift.clocked_out_at === null || !inRange(s.clock.day(shift.clocked_in_at), range)) continue;
      if (!waiters.has(shift.userId) && s.staff.get(shift.userId)?.role !== 'waiter') continue;
      const w = row(shift.userId);
      w.workedMs += workedMs(shift, shift.clocked_out_at);
      w.breakMs += breakMs(shift, shift.clocked_out_at);
    }
    for (const u of s.unpaid.values()) {
      if (!inRange(u.day, range)) continue;
      const w = row(u.userId);
      w.unpaidOrders++;
      w.unpaid += u.cents;
      w.sales -= u.cents;
    }
    const rows: Row[] = [...waiters]
      .map(([id, w]) => ({ id, w, name: s.names.get(id) ?? s.staff.get(id)?.name ?? id }))
      .sort((a, b) => b.w.sales - a.w.sales || compareText(a.name, b.name) || compareText(a.id, b.id))
      .map(({ id, w, name }) => ({
        waiter_id: id, waiter: name, orders: w.orders, sales: money(w.sales), average_ticket: averageMoney(w.sales, w.orders - w.unpaidOrders), tips: money(w.tips),
        unpaid_orders: w.unpaidOrders, unpaid: money(w.unpaid), covers: w.covers, hours_worked: hours(w.workedMs), break_hours: hours(w.breakMs),
      }));
    return { by_waiter: rows };
  },
  charts: [{ section: 'by_waiter', kind: 'bar', label: 'waiter', values: ['sales', 'tips'], title: 'Sales and tips by waiter' }],
};
