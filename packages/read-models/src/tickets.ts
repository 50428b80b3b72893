import { type IssuedRate, LIGHTNING_EVENTS, type PaymentDetails, type PaymentMethod, type ServiceCharge, type TaxedBill, type TicketEvent, type TicketLine, versionAfter } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';

export interface PaymentView {
  id: string; method: PaymentMethod; amount_cents: number; tip_cents: number; overpaid_cents: number; refunded_cents: number;
  details: PaymentDetails; shift_id: string | null; taken_by: string | null; taken_at: number;
}
export interface RefundView {
  id: string; payment_id: string; method: PaymentMethod; amount_cents: number; reason: string; shift_id: string | null; by: string | null; at: number;
  /** The manager who approved a waiter's refund; absent: `by` approved it (every refund before issue 60). */
  approved_by?: string;
}

/** A ticket with its payments and refunds embedded: one document per ticket, money in cents. */
export type TicketView = Tracked & {
  id: string; order_id: string; bill_id: string; table_id: string | null; waiter: string; currency_id: string;
  /** Absent on documents written before order numbers (the projection was not rebuilt for it): null. */
  order_number?: number | null;
  lines: TicketLine[]; share: { part: number; parts: number } | null;
  /** On a split by seats: the seat the bill is for, null for the table's shared lines; absent on any other bill. */
  for_seat?: number | null;
  /** As issued (absent on documents of tickets issued before taxes: nothing taxed). */
  tax_rates?: IssuedRate[]; prices_include_tax?: boolean;
  /** As issued (inside `subtotal_cents`); absent: none. */
  service_charge?: ServiceCharge | null;
  /** A manager took the charge off: what the subtotal went down by, the charge, who, why, when. */
  service_charge_removed?: { amount_cents: number; charge_cents: number; reason: string; by: string | null; at: number };
  subtotal_cents: number; applied_cents: number; tip_cents: number; received_cents: number; refunded_cents: number;
  status: 1 | 2 | 3; created_at: string; issued_at: number; paid_at: number | null; cancelled_at: number | null;
  payments: PaymentView[]; refunds: RefundView[];
  /** Lines taken off the bill (still listed in `lines`); `subtotal_cents` is net of them. */
  voided: Array<{ line_id: string; amount_cents: number; reason: string; by: string | null; at: number }>;
  version: number;
};

export const TICKETS = 'tickets';

/** The bill as its ticket was issued (`billTaxes`, a bill's ledger): its lines, rates and service charge. */
export const issuedBillOfTicket = (t: TicketView): TaxedBill => ({
  lines: t.lines, share: t.share, taxRates: t.tax_rates ?? [], pricesIncludeTax: t.prices_include_tax ?? true, serviceCharge: t.service_charge ?? null,
});

/** The bill a ticket's taxes and service charge are worked out from now: as issued, less a charge taken off. */
export const billOfTicket = (t: TicketView): TaxedBill => (t.service_charge_removed ? { ...issuedBillOfTicket(t), serviceCharge: null } : issuedBillOfTicket(t));
const PREFIX = 'ticket-';

export const ticketsProjection = projectionOf<TicketEvent>({
  name: 'tickets',
  // The Lightning events change no field shown here, but they move the ticket's version on, as in the decider.
  handles: ['TicketIssued', 'PaymentTaken', 'TicketPaid', 'PaymentRefunded', 'TicketCancelled', 'TicketLineVoided', 'ServiceChargeRemoved', ...LIGHTNING_EVENTS],
  version: 2,
  collections: {
    [TICKETS]: [{ issued_at: 1 }, { order_id: 1, issued_at: 1 }, { status: 1, issued_at: 1 }, { 'payments.shift_id': 1 }, { 'refunds.shift_id': 1 }],
  },
  async apply(e, store) {
    // Event names are shared with no other stream today; the prefix keeps it so if another aggregate reuses one.
    if (!e.stream.startsWith(PREFIX)) return;
    const id = e.stream.slice(PREFIX.length);
    await updateDocument(store.collection<TicketView>(TICKETS), id, e, (t) => {
      if (e.type === 'TicketIssued') {
        const d = e.data;
        return {
          _id: id, id, order_id: d.orderId, bill_id: d.billId, table_id: d.tableId, waiter: d.waiter, order_number: d.orderNumber ?? null, currency_id: d.currencyId,
          lines: d.lines, share: d.share, ...(d.forSeat === undefined ? {} : { for_seat: d.forSeat }), ...(d.serviceCharge ? { service_charge: d.serviceCharge } : {}), tax_rates: d.taxRates ?? [], prices_include_tax: d.pricesIncludeTax ?? true, subtotal_cents: d.subtotalCents, applied_cents: 0, tip_cents: 0, received_cents: 0, refunded_cents: 0,
          status: 1, created_at: new Date(d.issuedAt).toISOString(), issued_at: d.issuedAt, paid_at: null, cancelled_at: null,
          payments: [], refunds: [], voided: [], version: versionAfter(null),
        };
      }
      if (!t) return undefined;
      const version = versionAfter(t);
      switch (e.type) {
        case 'PaymentTaken': {
          const p = e.data;
          const payment: PaymentView = {
            id: p.paymentId, method: p.method, amount_cents: p.amountCents, tip_cents: p.tipCents, overpaid_cents: p.overpaidCents, refunded_cents: 0,
            details: p.details, shift_id: p.shiftId, taken_by: p.takenBy, taken_at: p.takenAt,
          };
          return {
            ...t, payments: [...t.payments, payment], applied_cents: t.applied_cents + p.amountCents, tip_cents: t.tip_cents + p.tipCents,
            received_cents: t.received_cents + p.amountCents + p.tipCents + p.overpaidCents, version,
          };
        }
        case 'TicketPaid':
          return { ...t, status: 2, paid_at: e.data.at, version };
        case 'PaymentRefunded': {
          const r = e.data;
          const refund: RefundView = { id: r.refundId, payment_id: r.paymentId, method: r.method, amount_cents: r.amountCents, reason: r.reason, shift_id: r.shiftId, by: r.by, at: r.at, ...(r.approvedBy ? { approved_by: r.approvedBy } : {}) };
          const payments = t.payments.map((p) => (p.id === r.paymentId ? { ...p, refunded_cents: p.refunded_cents + r.amountCents } : p));
          return { ...t, payments, refunds: [...t.refunds, refund], refunded_cents: t.refunded_cents + r.amountCents, version };
        }
        case 'TicketCancelled':
          return { ...t, status: 3, cancelled_at: e.data.at, version };
        case 'TicketLineVoided': {
          const v = e.data;
          const voided = [...(t.voided ?? []), { line_id: v.lineId, amount_cents: v.amountCents, reason: v.reason, by: v.by, at: v.at }];
          return { ...t, voided, subtotal_cents: t.subtotal_cents - v.amountCents, version };
        }
        case 'ServiceChargeRemoved': {
          const r = e.data;
          const removed = { amount_cents: r.amountCents, charge_cents: r.chargeCents, reason: r.reason, by: r.by, at: r.at };
          return { ...t, service_charge_removed: removed, subtotal_cents: t.subtotal_cents - r.amountCents, version };
        }
        default:
          return { ...t, version };
      }
    });
  },
});
