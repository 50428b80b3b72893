import type { ReplayedEvent } from '@comanda/event-store';
import { type BillLedger, type BillTax, currencyById, keptTaxes, percentOf, taxesMoved, type BaseCurrencyEvent, type OrderEvent, type TicketEvent } from '@comanda/domain';
import { followBill, refundValue, voidRefundValue, voidValue } from '../bill-ledgers.js';
import { type LocalClock, WEEKDAYS } from '../clock.js';
import { isComp } from './discounts.js';
import { ORDER_BOOK_EVENTS, type OrderBook } from '../order-book.js';
import { type ReportDefinition, type Row, averageMoney, bucket, compareText, daysIn, eventTime, money, ratio, streamId } from '../report.js';
import { type ServiceChargeLedger, chargeMoved, chargePaid, newServiceChargeLedger, serviceCharges } from './service-charges.js';

interface SalesDay {
  weekday: number;
  orders: number;
  /** Guests of the sales' orders (covers), where the waiter said how many sat down. */
  covers: number;
  lines: number;
  /** What the lines came to before discounts; the discounts and comps on them, counted apart. */
  gross: number;
  discounts: number;
  comps: number;
  voids: number;
  refunds: number;
  /** Per local hour: orders completed, and net cents. */
  hourOrders: number[];
  hourNet: number[];
}

interface SalesState {
  clock: LocalClock; book: OrderBook; days: Map<string, SalesDay>; currency: string;
  /** Every bill not cancelled, as its money stands (`BillLedger`): a void or refund after payment takes off what it declared. */
  bills: Map<string, BillLedger>;
  /** The comps on open orders, by discount id: the book knows a discount's amount, not whether it was a comp. */
  comps: Map<string, true>;
  /** day → rate id → the tax the bills declared that day: paid bills, less voids and refunds after. */
  taxes: Map<string, Map<string, { name: string; ratePpm: number; baseCents: number; amountCents: number }>>;
  /** Service charges of paid bills, as their money kept them (service-charges.ts). */
  charges: ServiceChargeLedger;
}

const newDay = (weekday: number): SalesDay => ({ weekday, orders: 0, covers: 0, lines: 0, gross: 0, discounts: 0, comps: 0, voids: 0, refunds: 0, hourOrders: new Array(24).fill(0), hourNet: new Array(24).fill(0) });

/** What the sales' orders owed: the average ticket is of what guests were asked to pay. */
const owed = (x: { gross: number; discounts: number; comps: number }): number => x.gross - x.discounts - x.comps;

/** A refund written by a void repeats the void's money: counted once, as the void. */
export const isVoidRefund = (reason: string): boolean => reason.startsWith('void: ');

/**
 * Sales by day, hour and weekday, with covers (the guests the waiters counted at seating). A sale is a completed order (its lines at completion, dated when
 * it completed); voided lines and refunds are taken off on the day they happen, on the basis of menu
 * prices, as gross is (a void: its line's value, or on a paid bill what the bill's money lost with it
 * and its own refund, `voidValue`; a refund: the bill's part of it, without its tax when prices
 * exclude tax; a void's own refund is the void, counted once). Gross is before discounts; the
 * discounts and comps on a sale count with it (on the day it completed). Net = gross − discounts −
 * comps − voids − refunds, in the base currency's cents. Works from order events alone; bills only
 * subtract, and say the tax by rate: a bill's taxes as its money kept them (`keptTaxes`) count on the
 * day it is paid, and what a later void or refund takes back on that day. A bill's service charge is
 * no sale (it is on a bill, not an order): a void or refund is counted without the charge it took back, and the
 * charges have their own sections by the same rule as the taxes (service-charges.ts).
 */
/** Adds taxes to a day's declaration. */
function declare(s: SalesState, day: string, taxes: readonly BillTax[]): void {
  const rates = bucket(s.taxes, day, () => new Map());
  for (const x of taxes) {
    const row = bucket(rates, x.taxRateId, () => ({ name: x.name, ratePpm: x.ratePpm, baseCents: 0, amountCents: 0 }));
    row.baseCents += x.baseCents;
    row.amountCents += x.amountCents;
  }
}

/** What a void or refund changed in a paid bill's taxes, on its own day (a bill not yet paid declares it when paid). */
function declareMoved(s: SalesState, day: string, before: BillLedger | undefined, after: BillLedger | undefined): void {
  if (before?.paid && after) declare(s, day, taxesMoved(keptTaxes(before), keptTaxes(after)));
}

export const salesReport: ReportDefinition<SalesState> = {
  name: 'sales',
  // 2: an order's total counts its lines' quantities and modifiers. 3: gross before discounts; discounts and comps apart.
  // 4: tax as the bills stand (voids and refunds after payment), voids and refunds on the basis of menu prices.
  // 5: a void after a refund on a paid bill takes what the bill's money lost, not its line's whole value.
  // 6: service charges (issue 57), by day paid and by the staff member credited; voids and refunds without them.
  // 7: covers (the guests of the day's sales) and the average per cover (issue 59).
  version: 7,
  title: 'Sales',
  handles: [...ORDER_BOOK_EVENTS, 'OrderStatusChanged', 'TicketLineVoided', 'PaymentRefunded', 'BaseCurrencyChanged', 'TicketIssued', 'PaymentTaken', 'TicketPaid', 'TicketCancelled', 'ServiceChargeRemoved'],
  init: (clock, parts) => ({ clock, book: parts.orderBook(), days: new Map(), currency: 'MXN', bills: new Map(), comps: new Map(), taxes: new Map(), charges: newServiceChargeLedger() }),
  apply(s, event: ReplayedEvent) {
    switch (event.type) {
      case 'OrderStatusChanged': {
        const closed = s.book.close(event);
        if (!closed) return;
        const { order: o, at } = closed;
        // Forgotten whether the order completed or was cancelled: a closed order takes no more discounts.
        const given = [...(o.discounts ?? [])].map(([id, cents]) => ({ comp: s.comps.delete(id), cents }));
        if (closed.to !== 'completed') return;
        const p = s.clock.place(at);
        const d = bucket(s.days, p.day, () => newDay(p.weekday));
        d.orders++;
        d.covers += o.guests ?? 0;
        d.lines += o.lines.size;
        d.gross += o.totalCents;
        for (const g of given) {
          d.gross += g.cents;
          if (g.comp) d.comps += g.cents;
          else d.discounts += g.cents;
        }
        d.hourOrders[p.hour]++;
        d.hourNet[p.hour] += o.totalCents;
        return;
      }
      case 'TicketLineVoided': {
        const { data } = event as Extract<TicketEvent, { type: 'TicketLineVoided' }>;
        const change = followBill(s.bills, event);
        const p = s.clock.place(eventTime(event, data.at));
        const d = bucket(s.days, p.day, () => newDay(p.weekday));
        const value = voidValue(change, data.lineId, data.amountCents);
        d.voids += value;
        d.hourNet[p.hour] -= value;
        declareMoved(s, p.day, change.before, change.after);
        chargeMoved(s.charges, s.clock, eventTime(event, data.at), change);
        return;
      }
      case 'PaymentRefunded': {
        const { data } = event as Extract<TicketEvent, { type: 'PaymentRefunded' }>;
        const change = followBill(s.bills, event);
        const p = s.clock.place(eventTime(event, data.at));
        declareMoved(s, p.day, change.before, change.after);
        chargeMoved(s.charges, s.clock, eventTime(event, data.at), change);
        const d = bucket(s.days, p.day, () => newDay(p.weekday));
        // A void's own refund is the rest of the void (a paid bill's sales it took), not a refund.
        const value = isVoidRefund(data.reason) ? voidRefundValue(change) : refundValue(change, data.paymentId, data.amountCents);
        if (isVoidRefund(data.reason)) d.voids += value;
        else d.refunds += value;
        d.hourNet[p.hour] -= value;
        return;
      }
      case 'TicketPaid': {
        const { data } = event as Extract<TicketEvent, { type: 'TicketPaid' }>;
        const change = followBill(s.bills, event);
        const at = eventTime(event, data.at);
        if (change.after) declare(s, s.clock.day(at), keptTaxes(change.after));
        chargePaid(s.charges, s.clock, at, change);
        return;
      }
      case 'TicketIssued':
      case 'PaymentTaken':
      case 'TicketCancelled':
      case 'ServiceChargeRemoved':
        followBill(s.bills, event);
        return;
      case 'BaseCurrencyChanged': {
        const { data } = event as BaseCurrencyEvent;
        s.currency = currencyById(data.to)?.acronym ?? s.currency;
        return;
      }
      case 'DiscountGiven': {
        const { data } = event as Extract<OrderEvent, { type: 'DiscountGiven' }>;
        s.book.apply(event);
        if (isComp(data)) s.comps.set(data.discountId, true);
        return;
      }
      case 'DiscountRemoved': {
        const { data } = event as Extract<OrderEvent, { type: 'DiscountRemoved' }>;
        s.book.apply(event);
        s.comps.delete(data.discountId);
        return;
      }
      case 'OrderDeleted':
        for (const id of s.book.apply(event)?.discounts?.keys() ?? []) s.comps.delete(id);
        return;
      default:
        s.book.apply(event);
    }
  },
  query(s, range) {
    const byDay: Row[] = [];
    const hours = Array.from({ length: 24 }, () => ({ orders: 0, net: 0 }));
    const weekdays = Array.from({ length: 7 }, () => ({ days: 0, orders: 0, gross: 0, net: 0 }));
    const t = { orders: 0, covers: 0, lines: 0, gross: 0, discounts: 0, comps: 0, voids: 0, refunds: 0 };
    const charges = serviceCharges(s.charges, range);
    for (const [day, d] of daysIn(s.days, range)) {
      const net = owed(d) - d.voids - d.refunds;
      byDay.push({
        day, weekday: WEEKDAYS[d.weekday]!, orders: d.orders, covers: d.covers, gross: money(d.gross), discounts: money(d.discounts), comps: money(d.comps), voids: money(d.voids), refunds: money(d.refunds), net: money(net),
        average_ticket: averageMoney(owed(d), d.orders), average_per_cover: averageMoney(owed(d), d.covers), lines_per_order: ratio(d.lines, d.orders),
      });
      for (let h = 0; h < 24; h++) {
        hours[h]!.orders += d.hourOrders[h]!;
        hours[h]!.net += d.hourNet[h]!;
      }
      const w = weekdays[d.weekday]!;
      w.days++;
      w.orders += d.orders;
      w.gross += d.gross;
      w.net += net;
      t.orders += d.orders;
      t.covers += d.covers;
      t.lines += d.lines;
      t.gross += d.gross;
      t.discounts += d.discounts;
      t.comps += d.comps;
      t.voids += d.voids;
      t.refunds += d.refunds;
    }
    const rates = new Map<string, { name: string; ratePpm: number; baseCents: number; amountCents: number }>();
    for (const [, day] of daysIn(s.taxes, range)) {
      for (const [id, x] of day) {
        const row = bucket(rates, id, () => ({ name: x.name, ratePpm: x.ratePpm, baseCents: 0, amountCents: 0 }));
        row.baseCents += x.baseCents;
        row.amountCents += x.amountCents;
      }
    }
    return {
      totals: [{
        currency: s.currency, days: byDay.length, orders: t.orders, covers: t.covers, lines: t.lines, gross: money(t.gross), discounts: money(t.discounts), comps: money(t.comps),
        voids: money(t.voids), refunds: money(t.refunds), net: money(owed(t) - t.voids - t.refunds), average_ticket: averageMoney(owed(t), t.orders), average_per_cover: averageMoney(owed(t), t.covers), lines_per_order: ratio(t.lines, t.orders),
      }],
      by_day: byDay,
      by_hour: hours.map((h, hour) => ({ hour, orders: h.orders, net: money(h.net) })),
      by_weekday: weekdays.map((w, i) => ({ weekday: WEEKDAYS[i]!, days: w.days, orders: w.orders, net: money(w.net), average_day: averageMoney(w.net, w.days) })),
      // Last: a restaurant without tax rates has none, and an empty section first would open the CSV with a bare header.
      // A rate whose every line was voided or refunded declares nothing: no row.
      tax_by_rate: [...rates].filter(([, x]) => x.baseCents !== 0 || x.amountCents !== 0).sort(([, a], [, b]) => a.ratePpm - b.ratePpm || compareText(a.name, b.name))
        .map(([id, x]) => ({ tax_rate_id: id, tax_rate: x.name, rate: percentOf(x.ratePpm), base: money(x.baseCents), tax: money(x.amountCents) })),
      // Their own lines, apart from the orders' figures (a charge is on a bill, not an order): by day paid, and
      // credited by user id (the order's), never a name. Empty without service charges, so last as well.
      service_charge: charges.byDay,
      service_charge_by_staff: charges.byStaff,
    };
  },
  charts: [
    { section: 'by_day', kind: 'bar', label: 'day', values: ['net'], title: 'Net sales by day' },
    { section: 'by_hour', kind: 'bar', label: 'hour', values: ['net'], title: 'Net sales by hour of day' },
    { section: 'by_weekday', kind: 'bar', label: 'weekday', values: ['net'], title: 'Net sales by weekday' },
  ],
};
