import { type ReplayedEvent, isOneOf } from '@comanda/event-store';
import type { Discount, OrderEvent, StaffEvent } from '@comanda/domain';
import type { LocalClock } from '../clock.js';
import { type ReportDefinition, type Row, bucket, compareText, eventTime, inRange, money } from '../report.js';

/** A comp is a 100 % line discount (packages/domain/src/order/discounts.ts): the log has no other mark. */
export const isComp = (d: Pick<Discount, 'lineId' | 'kind' | 'value'>): boolean => d.lineId !== null && d.kind === 'percent' && d.value === 10_000;

type Kind = 'discount' | 'comp';
interface Given { at: number; day: string; kind: Kind; reason: string; by: string; approvedBy: string | null; cents: number }
interface Tally { discounts: number; discountCents: number; comps: number; compCents: number }
interface DiscountsState {
  clock: LocalClock;
  /** Discounts and comps given, by id, until taken off: a removal takes the whole of it back. */
  given: Map<string, Given>;
  /** user id → the name on the roster (or, for logs from before, the waiter's name its orders carry). */
  names: Map<string, string>;
}

/** A discount written without a giver (none in the event nor its metadata) is listed under this one. */
const UNKNOWN_GIVER = '';

const newTally = (): Tally => ({ discounts: 0, discountCents: 0, comps: 0, compCents: 0 });
const count = (t: Tally, g: Given) => {
  if (g.kind === 'comp') { t.comps++; t.compCents += g.cents; } else { t.discounts++; t.discountCents += g.cents; }
};

/**
 * Discounts and comps still on their orders, on the day they were given: by reason, by who gave
 * them (the event's `by`, else its metadata's user: a manager's comp on a waiter's order is the
 * manager's) and by day. A discount taken off counts nothing; an order cancelled keeps its discounts
 * here, as the cancellations report keeps the order.
 */
const DISCOUNT_EVENTS = ['OrderPlaced', 'OrderDetailsChanged', 'DiscountGiven', 'DiscountRemoved', 'UserCreated', 'UserRenamed'] as const;

export const discountsReport: ReportDefinition<DiscountsState> = {
  name: 'discounts',
  version: 2,
  title: 'Discounts and comps',
  handles: DISCOUNT_EVENTS,
  init: (clock) => ({ clock, given: new Map(), names: new Map() }),
  apply(s, event: ReplayedEvent) {
    if (!isOneOf<OrderEvent | StaffEvent>(event, DISCOUNT_EVENTS)) return;
    const e = event;
    switch (e.type) {
      case 'UserCreated':
      case 'UserRenamed':
        s.names.set(e.data.userId, e.data.name);
        return;
      case 'OrderPlaced':
      case 'OrderDetailsChanged':
        s.names.set(e.data.userId, e.data.waiter);
        return;
      case 'DiscountGiven': {
        const d = e.data;
        const metadataUser = typeof event.metadata.userId === 'string' ? event.metadata.userId : UNKNOWN_GIVER;
        const at = eventTime(event, d.at);
        s.given.set(d.discountId, { at, day: s.clock.day(at), kind: isComp(d) ? 'comp' : 'discount', reason: d.reason, by: d.by ?? metadataUser, approvedBy: d.approvedBy ?? null, cents: d.amountCents });
        return;
      }
      case 'DiscountRemoved':
        s.given.delete(e.data.discountId);
        return;
      default:
    }
  },
  query(s, range) {
    const reasons = new Map<string, { kind: Kind; reason: string; count: number; cents: number }>();
    const givers = new Map<string, Tally>();
    const days = new Map<string, Tally>();
    for (const g of s.given.values()) {
      if (!inRange(g.day, range)) continue;
      const r = bucket(reasons, `${g.kind}\n${g.reason}`, () => ({ kind: g.kind, reason: g.reason, count: 0, cents: 0 }));
      r.count++;
      r.cents += g.cents;
      count(bucket(givers, g.by, newTally), g);
      count(bucket(days, g.day, newTally), g);
    }
    const columns = (t: Tally): Row => ({
      discounts: t.discounts, discounts_amount: money(t.discountCents), comps: t.comps, comps_amount: money(t.compCents),
      count: t.discounts + t.comps, amount: money(t.discountCents + t.compCents),
    });
    return {
      by_reason: [...reasons.values()].sort((a, b) => compareText(a.kind, b.kind) || b.count - a.count || compareText(a.reason, b.reason))
        .map((r) => ({ kind: r.kind, reason: r.reason, count: r.count, amount: money(r.cents) })),
      by_giver: [...givers].sort(([a], [b]) => compareText(a, b))
        .map(([by, t]) => ({ user_id: by || null, name: s.names.get(by) ?? null, ...columns(t) })),
      by_day: [...days].sort(([a], [b]) => compareText(a, b)).map(([day, t]) => ({ day, ...columns(t) })),
      // Each one with who gave it and the manager who approved it (null: within the waiter's limit).
      given: [...s.given.values()].filter((g) => inRange(g.day, range)).sort((a, b) => a.at - b.at) // stable: log order within a millisecond
        .map((g) => ({ day: g.day, kind: g.kind, reason: g.reason, user_id: g.by || null, name: s.names.get(g.by) ?? null, approved_by_id: g.approvedBy, approved_by: g.approvedBy === null ? null : (s.names.get(g.approvedBy) ?? null), amount: money(g.cents) })),
    };
  },
  charts: [{ section: 'by_day', kind: 'bar', label: 'day', values: ['discounts_amount', 'comps_amount'], title: 'Discounts and comps by day' }],
};
