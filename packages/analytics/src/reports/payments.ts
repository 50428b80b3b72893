import type { ReplayedEvent } from '@comanda/event-store';
import { PAYMENT_METHODS, type OrderEvent, type TicketEvent } from '@comanda/domain';
import type { LocalClock } from '../clock.js';
import { type ReportDefinition, type Row, bucket, compareText, daysIn, eventTime, money } from '../report.js';

interface MethodDay { payments: number; amount: number; tips: number; refunds: number; sats: number }
interface PaymentsState { clock: LocalClock; days: Map<string, Map<string, MethodDay>> }

const newDay = (): MethodDay => ({ payments: 0, amount: 0, tips: 0, refunds: 0, sats: 0 });

/** Payments received on an order's own invoice (the wallet's, not a bill's): sats only, no fiat recorded. */
const ORDER_INVOICE = 'lightning_invoice';

const methodName = (method: string): string =>
  method === ORDER_INVOICE ? 'Lightning (order invoice)' : ((PAYMENT_METHODS as Record<string, { name: string }>)[method]?.name ?? method);

/**
 * Payment-method mix: every payment on a bill, by its method whatever it is (cash, cards, Lightning,
 * and any method added later), its amount (what went to the bill plus any overpayment kept), tips,
 * refunds, and for Lightning the sats received.
 */
export const paymentsReport: ReportDefinition<PaymentsState> = {
  name: 'payments',
  version: 1,
  title: 'Payment methods',
  handles: ['PaymentTaken', 'PaymentRefunded', 'OrderPaymentReceived'],
  init: (clock) => ({ clock, days: new Map() }),
  apply(s, event: ReplayedEvent) {
    switch (event.type) {
      case 'PaymentTaken': {
        const { data } = event as Extract<TicketEvent, { type: 'PaymentTaken' }>;
        const m = bucket(bucket(s.days, s.clock.day(eventTime(event, data.takenAt)), () => new Map<string, MethodDay>()), data.method, newDay);
        m.payments++;
        m.amount += data.amountCents + (data.overpaidCents ?? 0);
        m.tips += data.tipCents;
        const sats = (data.details as { sats?: unknown } | undefined)?.sats;
        if (typeof sats === 'number') m.sats += sats;
        return;
      }
      case 'PaymentRefunded': {
        const { data } = event as Extract<TicketEvent, { type: 'PaymentRefunded' }>;
        bucket(bucket(s.days, s.clock.day(eventTime(event, data.at)), () => new Map<string, MethodDay>()), data.method, newDay).refunds += data.amountCents;
        return;
      }
      case 'OrderPaymentReceived': {
        const { data } = event as Extract<OrderEvent, { type: 'OrderPaymentReceived' }>;
        const m = bucket(bucket(s.days, s.clock.day(eventTime(event, data.receivedAt)), () => new Map<string, MethodDay>()), ORDER_INVOICE, newDay);
        m.payments++;
        m.sats += data.amountSat;
        return;
      }
    }
  },
  query(s, range) {
    const methods = new Map<string, MethodDay>();
    const byDay: Row[] = [];
    for (const [day, dayMethods] of daysIn(s.days, range)) {
      for (const [method, d] of [...dayMethods].sort(([a], [b]) => compareText(a, b))) {
        byDay.push({ day, method, payments: d.payments, amount: money(d.amount), tips: money(d.tips), refunds: money(d.refunds), sats: d.sats });
        const m = bucket(methods, method, newDay);
        m.payments += d.payments;
        m.amount += d.amount;
        m.tips += d.tips;
        m.refunds += d.refunds;
        m.sats += d.sats;
      }
    }
    let total = 0;
    for (const m of methods.values()) total += m.amount;
    const rows: Row[] = [...methods]
      .sort(([a, x], [b, y]) => y.amount - x.amount || compareText(a, b))
      .map(([method, m]) => ({
        method, name: methodName(method), payments: m.payments, amount: money(m.amount), share: total === 0 ? 0 : Math.round((m.amount / total) * 10000) / 100,
        tips: money(m.tips), refunds: money(m.refunds), net: money(m.amount + m.tips - m.refunds), sats: m.sats,
      }));
    return { by_method: rows, by_day: byDay };
  },
  charts: [{ section: 'by_method', kind: 'pie', label: 'name', values: ['amount'], title: 'Payments by method' }],
};
