import type { LightningFlag, OrderEvent, PaymentFlag, TicketEvent, UnmatchedPaymentEvent } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';

/**
 * Why a received payment is on the manager's list: it named no order (`no_reference`), named
 * something that is not an order (`unknown_reference`), or reached an order that had ended, was
 * deleted or was already paid (the order decider's flag). The money is recorded either way.
 */
export type UnmatchedReason = 'no_reference' | 'unknown_reference' | PaymentFlag | LightningFlag;

export type UnmatchedPaymentView = Tracked & {
  payment_hash: string;
  amount_sat: number;
  external_id: string | null;
  order_id: string | null;
  /** The ticket a Lightning checkout payment reached (flagged by the ticket decider). */
  ticket_id?: string | null;
  reason: UnmatchedReason;
  received_at: number;
  payer_note: string | null;
};

export const UNMATCHED_PAYMENTS = 'unmatched_payments';

export const unmatchedPaymentsProjection = projectionOf<OrderEvent | UnmatchedPaymentEvent | TicketEvent>({
  name: 'unmatchedPayments',
  handles: ['UnmatchedPaymentReceived', 'OrderPaymentReceived', 'LightningPaymentFlagged'],
  collections: { [UNMATCHED_PAYMENTS]: [{ received_at: -1 }] },
  async apply(e, store) {
    if (e.type === 'LightningPaymentFlagged') {
      const { paymentHash, amountSat, receivedAt, reason } = e.data;
      const ticketId = e.stream.slice('ticket-'.length);
      await updateDocument(store.collection<UnmatchedPaymentView>(UNMATCHED_PAYMENTS), paymentHash, e, () => ({
        _id: paymentHash, payment_hash: paymentHash, amount_sat: amountSat, external_id: ticketId, order_id: null, ticket_id: ticketId,
        reason, received_at: receivedAt, payer_note: null,
      }));
      return;
    }
    if (e.type === 'UnmatchedPaymentReceived') {
      const p = e.data;
      await updateDocument(store.collection<UnmatchedPaymentView>(UNMATCHED_PAYMENTS), p.paymentHash, e, () => ({
        _id: p.paymentHash, payment_hash: p.paymentHash, amount_sat: p.amountSat, external_id: p.externalId, order_id: null,
        reason: p.externalId === null ? 'no_reference' : 'unknown_reference', received_at: p.receivedAt, payer_note: p.payerNote,
      }));
    } else if (e.type === 'OrderPaymentReceived' && e.data.flag) {
      const { paymentHash, amountSat, receivedAt, flag } = e.data;
      const orderId = e.stream.slice('order-'.length);
      await updateDocument(store.collection<UnmatchedPaymentView>(UNMATCHED_PAYMENTS), paymentHash, e, () => ({
        _id: paymentHash, payment_hash: paymentHash, amount_sat: amountSat, external_id: orderId, order_id: orderId,
        reason: flag, received_at: receivedAt, payer_note: null,
      }));
    }
  },
});
