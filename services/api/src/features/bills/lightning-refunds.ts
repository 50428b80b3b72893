import { fromCents } from '@comanda/domain';
import { TICKETS, type TicketView } from '@comanda/read-models';
import type { ExchangeRates } from '@comanda/rates';
import { refundLightningPayment } from '@comanda/workflows';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Amount, IdParams, commonErrors } from '../../http/schemas.js';
import { newResourceId, writeContext } from '../../http/write-context.js';
import { Strict, centsOf, jsonNumbers } from './money-input.js';
import { TicketSchema, ticketResponse } from './views.js';
import { checkoutFailure, noNode } from './checkout-failures.js';

const RefundSchema = Type.Object({
  id: Type.String(), payment_id: Type.String(), amount: Type.Number(), sats: Type.Integer(), rate: Type.Number(),
  valuation: Type.Union([Type.Literal('then'), Type.Literal('now')]), fees_sat: Type.Integer(), payment_hash: Type.String(),
  status: Type.Literal('sent'),
});

/** Refunds of Lightning payments, sent back over Lightning (issue 13). */
export default async function lightningRefundRoutes(fastify: FastifyInstance, options: { rates: ExchangeRates }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tickets = app.deps.readStore.collection<TicketView>(TICKETS);

  app.post('/tickets/:id/lightning-refunds', {
    config: { permission: 'bills:refund', readsBack: true },
    preValidation: jsonNumbers('amount'),
    schema: {
      tags: ['tickets'], summary: 'Refund a Lightning payment over Lightning, to an invoice or a Lightning address',
      description: 'Managers and admins. `amount` (default: all that is left of the payment) is valued at the payment\'s locked rate (`then`) or a fresh one (`now`) and sent as sats, rounded down. Idempotent by refund id (`refund_id`, else from Idempotency-Key): the refund is recorded before the node is asked, so a retry answers the same refund, or asks the node what became of it, and never pays twice.',
      params: IdParams,
      body: Strict({
        payment_id: Type.String({ format: 'uuid' }),
        amount: Type.Optional(Amount('fiat, two decimals at most')),
        valuation: Type.Union([Type.Literal('then'), Type.Literal('now')], { description: 'the rate of the payment, or the current rate' }),
        destination: Type.String({ minLength: 1, maxLength: 2000, description: 'a BOLT11 invoice (for exactly the refund, or amountless) or a Lightning address user@domain' }),
        reason: Type.String({ minLength: 1, maxLength: 500 }),
        refund_id: Type.Optional(Type.String({ format: 'uuid', description: 'the same id on a retry; default from Idempotency-Key, else new' })),
      }),
      response: {
        201: Type.Object({ message: Type.Literal('Refund sent'), refund: RefundSchema, ticket: TicketSchema }),
        ...commonErrors,
        402: Type.Ref('Message', { description: 'Insufficient funds in the wallet' }),
        409: Type.Ref('Message', { description: 'More than is left of the payment, an invoice for another amount or expired, a refund id reused, failed or still in progress' }),
        410: Type.Ref('Message', { description: 'The invoice expired' }),
        502: Type.Ref('Message', { description: 'The Lightning node refused the credentials or failed' }),
        503: Type.Ref('Message', { description: "{message:'Lightning node unavailable'}, or no fresh rate for `now`" }),
      },
    },
  }, async (request, reply) => {
    const body = request.body;
    const [amountCents] = centsOf([['amount', body.amount, 1]]);
    if (!app.deps.node) throw noNode();
    const deps = { commands: app.deps.commands, now: () => app.now(), rates: options.rates, node: app.deps.node };
    const refundId = body.refund_id ?? newResourceId(request, 'lightning-refund');
    let outcome;
    try {
      outcome = await refundLightningPayment(deps, request.params.id, {
        refundId, paymentId: body.payment_id, valuation: body.valuation, destination: body.destination, reason: body.reason,
        ...(body.amount === undefined ? {} : { amountCents: amountCents! }),
      }, writeContext(request));
    } catch (error) {
      throw checkoutFailure(error, request.log);
    }
    await app.readBack(outcome.position, `/tickets/${request.params.id}`);
    const t = await tickets.get(request.params.id);
    const r = outcome.refund;
    return reply.code(201).send({
      message: 'Refund sent' as const,
      refund: { id: r.refundId, payment_id: r.paymentId, amount: fromCents(r.amountCents), sats: r.sats, rate: Number(r.rate), valuation: r.valuation, fees_sat: r.feesSat, payment_hash: r.paymentHash, status: 'sent' as const },
      ticket: ticketResponse(t!),
    });
  });
}
