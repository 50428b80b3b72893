import { UNMATCHED_PAYMENTS, type UnmatchedPaymentView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Headers, Pagination, commonErrors, withHeaders } from '../../http/schemas.js';
import { findPage } from '../../http/pages.js';

const UnmatchedPayment = Type.Object({
  paymentHash: Type.String(),
  amountSat: Type.Integer(),
  externalId: Type.Union([Type.String(), Type.Null()]),
  orderId: Type.Union([Type.String(), Type.Null()], { description: 'the order the payment was recorded on, when it reached one' }),
  ticketId: Type.Union([Type.String(), Type.Null()], { description: 'the ticket a Lightning checkout payment was recorded on' }),
  reason: Type.Union([
    'no_reference', 'unknown_reference', 'order_completed', 'order_cancelled', 'order_deleted', 'order_already_paid',
    'unknown_invoice', 'paid_after_expiry', 'ticket_already_paid', 'ticket_cancelled', 'overpaid',
  ].map((r) => Type.Literal(r)), {
    description: 'no_reference: the invoice named no order; unknown_reference: it named no order that exists; order_*: the order had ended, was deleted or was already paid when the money arrived; for a ticket (Lightning checkout): unknown_invoice (not an invoice checkout made: recorded in sats only), paid_after_expiry (applied at the expired invoice rate), ticket_already_paid / ticket_cancelled (held for a refund), overpaid (the excess held for a refund)',
  }),
  receivedAt: Type.Integer({ description: 'ms since epoch' }),
  payerNote: Type.Union([Type.String(), Type.Null()]),
});

const view = (p: UnmatchedPaymentView) => ({
  paymentHash: p.payment_hash, amountSat: p.amount_sat, externalId: p.external_id, orderId: p.order_id, ticketId: p.ticket_id ?? null,
  reason: p.reason, receivedAt: p.received_at, payerNote: p.payer_note,
});

/**
 * GET /wallet/unmatched: money the restaurant received that did not settle an open order as expected,
 * for a manager to sort out (refund, move to another order). Every such payment is recorded, never
 * dropped; this list is how somebody sees it.
 */
export default async function walletUnmatchedRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const unmatched = app.deps.readStore.collection<UnmatchedPaymentView>(UNMATCHED_PAYMENTS);
  app.get('/wallet/unmatched', {
    config: { permission: 'wallet:review' },
    schema: {
      tags: ['wallet'],
      summary: 'Payments received that need a manager: unmatched, late or for a deleted order',
      description: 'Newest first. Managers and admins; the wallet need not be unlocked (it moves no money).',
      querystring: Pagination,
      response: { 200: withHeaders(Type.Array(UnmatchedPayment), Headers.totalCount), ...commonErrors },
    },
  }, async (request, reply) => (await findPage(reply, unmatched, {}, { sort: { received_at: -1 } }, request.query)).items.map(view));
}
