import { type ReplayedEvent, isOneOf } from '@comanda/event-store';
import { type Approval, type DishStockEvent, type MenuEvent, type OrderEvent, type SessionEvent, type SettingsEvent, type ShiftEvent, type StaffEvent, type TicketEvent, type TimeClockEvent, hoursLabel, lineTotal, offsetMs, showCents } from '@comanda/domain';
import type { LocalClock } from '../clock.js';
import { type ReportDefinition, type Row, compareText, eventTime, inRange, money, streamId } from '../report.js';
import { isComp } from './discounts.js';

/**
 * The audit trail: every exception that moves money or changes who may, with who did it, who approved
 * it, why, the amount and when — price overrides, voids, comps, discounts (given and taken off),
 * refunds, bills cancelled, service charges taken off bills, orders handed to another waiter, tables moved, orders deleted, shifts
 * opened and closed, staff created, renamed, given a new PIN or role, removed, a device's session ended by a manager,
 * dishes sold out ("86"), counted or put back on sale, archived or restored, price levels (happy hour) set or removed, shifts on the time clock corrected, the restaurant's settings changed. A projection of the
 * events that carry those facts (deciders put the approval into the event itself: staff/approval.ts);
 * who did it is the event's own `by`, else the request's user in its metadata.
 */
export const AUDIT_KINDS = [
  'price_override', 'void', 'comp', 'discount', 'discount_removed', 'refund', 'bill_cancelled', 'service_charge_removed', 'order_transfer', 'table_move',
  'order_deleted', 'shift_opened', 'shift_closed', 'staff_change', 'dish_stock', 'session_revoked',
  'time_corrected', 'settings_changed', 'price_level', 'dish_archived',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

interface Entry {
  at: number; kind: AuditKind; by: string | null; approvedBy: string | null; reason: string | null;
  /** Cents the exception moved (null: none, as for a table move). */
  amount: number | null; before: number | null; after: number | null;
  orderId: string | null; ticketId: string | null; detail: string;
}
interface AuditState { clock: LocalClock; entries: Entry[]; names: Map<string, string>; dishes: Map<string, string>; levels: Map<string, string> }

const userOf = (event: ReplayedEvent): string | null => (typeof event.metadata.userId === 'string' ? event.metadata.userId : null);
const approvalOf = (a: Approval | undefined, event: ReplayedEvent) =>
  ({ by: a?.by ?? userOf(event), approvedBy: a?.approvedBy ?? null, reason: a?.reason ?? null });

function push(s: AuditState, event: ReplayedEvent, at: number | undefined, e: Omit<Entry, 'at' | 'orderId' | 'ticketId' | 'before' | 'after'> & Partial<Entry>) {
  const stream = event.stream;
  s.entries.push({
    at: eventTime(event, at), before: null, after: null,
    orderId: stream.startsWith('order-') ? streamId(stream) : null, ticketId: stream.startsWith('ticket-') ? streamId(stream) : null, ...e,
  });
}

function applyOrder(s: AuditState, event: ReplayedEvent, e: OrderEvent) {
  switch (e.type) {
    case 'OrderPlaced':
    case 'OrderDetailsChanged':
      if (e.data.transfer) {
        const t = e.data.transfer;
        push(s, event, e.type === 'OrderPlaced' ? e.data.placedAt : undefined, { kind: 'order_transfer', ...approvalOf(t, event), amount: null, detail: `${s.names.get(t.fromUserId ?? '') ?? t.fromUserId ?? '?'} → ${e.data.waiter}` });
      }
      return;
    case 'DishesAdded':
      for (const l of e.data.lines) {
        if (!l.override) continue;
        const quantity = l.quantity ?? 1;
        push(s, event, undefined, { kind: 'price_override', ...approvalOf(l.override, event), amount: (l.override.fromCents - l.priceCents) * quantity, before: l.override.fromCents, after: l.priceCents, detail: `line ${l.lineId} × ${quantity}` });
      }
      return;
    case 'OrderLineUpdated':
      if (e.data.override) push(s, event, undefined, { kind: 'price_override', ...approvalOf(e.data.override, event), amount: e.data.override.fromCents - e.data.priceCents, before: e.data.override.fromCents, after: e.data.priceCents, detail: `line ${e.data.lineId} repriced` });
      return;
    case 'OrderLineRemoved':
      if (e.data.void) push(s, event, undefined, { kind: 'void', ...approvalOf(e.data.void, event), amount: e.data.void.amountCents, detail: `line ${e.data.lineId}` });
      // A line moved to another check (issue 59): money moved between checks, with who approved it when it needed a manager.
      if (e.data.move) push(s, event, undefined, { kind: 'table_move', ...approvalOf(e.data.move.approval, event), amount: lineTotal(e.data.move.line), detail: `line ${e.data.lineId} → order ${e.data.move.toOrderId}` });
      return;
    case 'OrderLinesCleared':
      if (e.data.void) push(s, event, undefined, { kind: 'void', ...approvalOf(e.data.void, event), amount: e.data.void.amountCents, detail: `every line (${e.data.lineIds.length})` });
      return;
    case 'DiscountGiven': {
      const d = e.data;
      push(s, event, d.at, {
        kind: isComp(d) ? 'comp' : 'discount', by: d.by ?? userOf(event), approvedBy: d.approvedBy ?? null, reason: d.reason, amount: d.amountCents,
        detail: `${d.kind === 'percent' ? `${d.value / 100} %` : money(d.value).toFixed(2)} of ${d.lineId ? `line ${d.lineId}` : 'the order'} (${d.discountId})`,
      });
      return;
    }
    case 'DiscountRemoved':
      push(s, event, undefined, { kind: 'discount_removed', by: userOf(event), approvedBy: null, reason: null, amount: null, detail: e.data.discountId });
      return;
    case 'OrderMovedToTable':
      push(s, event, undefined, { kind: 'table_move', by: userOf(event), approvedBy: null, reason: null, amount: null, detail: `${e.data.from ?? 'take-away'} → ${e.data.to ?? 'take-away'}` });
      return;
    case 'OrderDeleted':
      push(s, event, undefined, { kind: 'order_deleted', by: userOf(event), approvedBy: null, reason: null, amount: null, detail: '' });
      return;
    default:
  }
}

/** A setting as the API names it, in its unit: 12.5 for a 1250 bp service charge. */
const settingShown = (name: string, v: unknown): string => (name === 'serviceChargeRateBp' ? `${Number(v) / 100}` : JSON.stringify(v));
const settingName = (name: string): string => (name === 'serviceChargeRateBp' ? 'service_charge_percent' : name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

function applyOther(s: AuditState, event: ReplayedEvent, e: TicketEvent | ShiftEvent | StaffEvent | SessionEvent | TimeClockEvent | SettingsEvent) {
  switch (e.type) {
    case 'SettingsChanged': {
      // A manager's change of the restaurant's rules (issue 60): each setting from what it was to what it is.
      const d = e.data;
      const detail = Object.entries(d.changes).map(([k, v]) => `${settingName(k)} ${settingShown(k, d.before[k as keyof typeof d.before])} → ${settingShown(k, v)}`).join('; ');
      push(s, event, undefined, { kind: 'settings_changed', by: d.by ?? userOf(event), approvedBy: d.by ?? userOf(event), reason: d.reason ?? null, amount: null, detail });
      return;
    }
    case 'TimeCorrected': {
      // A manager's correction of someone's hours (issue 60): the manager decides it on their own authority.
      const d = e.data;
      const hhmm = (ms: number) => new Date(ms + offsetMs(ms, s.clock.timeZone)).toISOString().slice(11, 16);
      push(s, event, d.at, { kind: 'time_corrected', by: d.by, approvedBy: d.by, reason: d.reason, amount: null, detail: `${s.names.get(d.userId) ?? d.userId}: ${s.clock.day(d.clockedInAt)} ${hhmm(d.clockedInAt)}–${hhmm(d.clockedOutAt)}, ${d.breakMinutes} min break` });
      return;
    }
    case 'SessionRevoked': {
      // Only a manager's revoke is an exception; a logout or a reused refresh token is no one's decision.
      if (e.data.reason !== 'revoked') return;
      const d = e.data;
      push(s, event, d.at, { kind: 'session_revoked', by: d.by, approvedBy: d.by, reason: d.why, amount: null, detail: `${s.names.get(d.userId) ?? d.userId} signed out${d.device ? ` of ${d.device}` : ''}` });
      return;
    }
    case 'PaymentRefunded': {
      const r = e.data;
      // A manager's own refund approves itself; a waiter's carries the manager who approved it (issue 60).
      push(s, event, r.at, { kind: 'refund', by: r.by ?? userOf(event), approvedBy: r.approvedBy ?? r.by ?? userOf(event), reason: r.reason, amount: r.amountCents, detail: `${r.method}, payment ${r.paymentId}` });
      return;
    }
    case 'TicketLineVoided':
      push(s, event, e.data.at, { kind: 'void', by: e.data.by ?? userOf(event), approvedBy: e.data.by ?? userOf(event), reason: e.data.reason, amount: e.data.amountCents, detail: `billed line ${e.data.lineId}` });
      return;
    case 'ServiceChargeRemoved':
      push(s, event, e.data.at, { kind: 'service_charge_removed', by: e.data.by ?? userOf(event), approvedBy: e.data.by ?? userOf(event), reason: e.data.reason, amount: e.data.amountCents, detail: `charge ${money(e.data.chargeCents).toFixed(2)}` });
      return;
    case 'TicketCancelled':
      // Reopened (issue 59): cancelled with its refunds, approved by a manager.
      push(s, event, e.data.at, { kind: 'bill_cancelled', by: e.data.by ?? userOf(event), approvedBy: e.data.reopened?.approvedBy ?? e.data.by ?? userOf(event), reason: e.data.reason, amount: null, detail: e.data.reopened ? 'reopened' : '' });
      return;
    case 'ShiftOpened':
      push(s, event, e.data.openedAt, { kind: 'shift_opened', by: e.data.openedBy ?? userOf(event), approvedBy: null, reason: null, amount: e.data.cashFloatCents, detail: `shift ${e.data.number}, cash float` });
      return;
    case 'ShiftClosed':
      push(s, event, e.data.closedAt, { kind: 'shift_closed', by: e.data.closedBy ?? userOf(event), approvedBy: null, reason: null, amount: e.data.countedCashCents, detail: 'counted cash' });
      return;
    case 'UserCreated':
      s.names.set(e.data.userId, e.data.name);
      push(s, event, e.data.createdAt, { kind: 'staff_change', by: userOf(event), approvedBy: null, reason: null, amount: null, detail: `${e.data.name} created as ${e.data.role}` });
      return;
    case 'UserRenamed':
      push(s, event, undefined, { kind: 'staff_change', by: userOf(event), approvedBy: null, reason: null, amount: null, detail: `${s.names.get(e.data.userId) ?? e.data.userId} renamed ${e.data.name}` });
      s.names.set(e.data.userId, e.data.name);
      return;
    case 'UserPinChanged':
    case 'UserRoleChanged':
    case 'UserDeleted': {
      const who = s.names.get(e.data.userId) ?? e.data.userId;
      const what = e.type === 'UserPinChanged' ? 'given a new PIN' : e.type === 'UserDeleted' ? 'removed' : `made ${e.data.role}`;
      push(s, event, undefined, { kind: 'staff_change', by: userOf(event), approvedBy: null, reason: null, amount: null, detail: `${who} ${what}` });
      return;
    }
    default:
  }
}

/** A dish's sold-out setting or its archiving (issue 60): who did it; the dish named as the menu last named it. */
function applyDish(s: AuditState, event: ReplayedEvent, e: DishStockEvent | MenuEvent) {
  if (e.type === 'DishAdded' || e.type === 'DishUpdated') {
    s.dishes.set(e.data.dishId, e.data.name);
    return;
  }
  if (e.type === 'PriceLevelSet' || e.type === 'PriceLevelRemoved') {
    // A level's prices are price changes: each set names its hours and every price it gives.
    const { priceLevelId, by } = e.data;
    const name = e.type === 'PriceLevelSet' ? e.data.name : (s.levels.get(priceLevelId) ?? priceLevelId);
    const detail = e.type === 'PriceLevelSet'
      ? `${name} (${hoursLabel(e.data.windows)}): ${e.data.prices.map((p) => `${s.dishes.get(p.dishId) ?? p.dishId} ${showCents(p.priceCents)}`).join(', ') || 'no prices'}`
      : `${name} removed`;
    if (e.type === 'PriceLevelSet') s.levels.set(priceLevelId, e.data.name);
    push(s, event, undefined, { kind: 'price_level', by: by ?? userOf(event), approvedBy: null, reason: null, amount: null, detail });
    return;
  }
  if (e.type === 'DishArchived' || e.type === 'DishRestored') {
    // A manager's own menu decision (issue 60): archiving needs no one else's approval; the events carry no reason.
    const by = e.data.by ?? userOf(event);
    push(s, event, e.data.at, { kind: 'dish_archived', by, approvedBy: by, reason: null, amount: null, detail: `${s.dishes.get(e.data.dishId) ?? e.data.dishId} ${e.type === 'DishArchived' ? 'archived' : 'restored'}` });
    return;
  }
  if (e.type !== 'DishSoldOut' && e.type !== 'DishCounted' && e.type !== 'DishBackOnSale') return;
  const what = e.type === 'DishSoldOut' ? 'sold out' : e.type === 'DishCounted' ? `${e.data.remaining} left` : 'back on sale';
  push(s, event, undefined, { kind: 'dish_stock', by: e.data.by ?? userOf(event), approvedBy: null, reason: null, amount: null, detail: `${s.dishes.get(e.data.dishId) ?? e.data.dishId} ${what}` });
}

const DISH_TYPES = ['DishAdded', 'DishUpdated', 'DishSoldOut', 'DishCounted', 'DishBackOnSale', 'PriceLevelSet', 'PriceLevelRemoved', 'DishArchived', 'DishRestored'] as const;
const ORDER_TYPES = ['OrderPlaced', 'OrderDetailsChanged', 'DishesAdded', 'OrderLineUpdated', 'OrderLineRemoved', 'OrderLinesCleared', 'DiscountGiven', 'DiscountRemoved', 'OrderMovedToTable', 'OrderDeleted'] as const;
const OTHER_TYPES = ['PaymentRefunded', 'TicketLineVoided', 'TicketCancelled', 'ServiceChargeRemoved', 'ShiftOpened', 'ShiftClosed', 'UserCreated', 'UserRenamed', 'UserPinChanged', 'UserRoleChanged', 'UserDeleted', 'SessionRevoked', 'TimeCorrected', 'SettingsChanged'] as const;

export const auditReport: ReportDefinition<AuditState> = {
  name: 'audit',
  // 6: dishes archived or restored; 7: price levels.
  version: 7,
  title: 'Audit trail',
  handles: [...ORDER_TYPES, ...OTHER_TYPES, ...DISH_TYPES],
  init: (clock) => ({ clock, entries: [], names: new Map(), dishes: new Map(), levels: new Map() }),
  apply(s, event) {
    if (isOneOf<OrderEvent>(event, ORDER_TYPES)) applyOrder(s, event, event);
    else if (isOneOf<TicketEvent | ShiftEvent | StaffEvent | SessionEvent | TimeClockEvent | SettingsEvent>(event, OTHER_TYPES)) applyOther(s, event, event);
    else if (isOneOf<DishStockEvent | MenuEvent>(event, DISH_TYPES)) applyDish(s, event, event);
  },
  query(s, range) {
    const name = (id: string | null) => (id === null ? null : (s.names.get(id) ?? null));
    const entries: Row[] = s.entries
      .map((e) => ({ e, day: s.clock.day(e.at) }))
      .filter(({ day }) => inRange(day, range))
      // Stable: entries of the same millisecond stay in log order.
      .sort((a, b) => a.e.at - b.e.at)
      .map(({ e, day }) => ({
        at: new Date(e.at).toISOString(), day, kind: e.kind, staff_id: e.by, staff: name(e.by), approved_by_id: e.approvedBy, approved_by: name(e.approvedBy),
        reason: e.reason, amount: e.amount === null ? null : money(e.amount), before: e.before === null ? null : money(e.before), after: e.after === null ? null : money(e.after),
        order_id: e.orderId, ticket_id: e.ticketId, detail: e.detail,
      }));
    const byKind = new Map<string, { count: number; cents: number }>();
    for (const e of entries) {
      const k = byKind.get(String(e.kind)) ?? { count: 0, cents: 0 };
      k.count++;
      k.cents += typeof e.amount === 'number' ? Math.round(e.amount * 100) : 0;
      byKind.set(String(e.kind), k);
    }
    return { entries, by_kind: [...byKind].sort(([a], [b]) => compareText(a, b)).map(([kind, k]) => ({ kind, count: k.count, amount: money(k.cents) })) };
  },
  charts: [{ section: 'by_kind', kind: 'bar', label: 'kind', values: ['count'], title: 'Exceptions by kind' }],
};
