import { TILL_METHODS, fromCents, notFound } from '@comanda/domain';
import { TICKETS, type TicketView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Amount, IdParams, commonErrors } from '../../http/schemas.js';
import { newResourceId, writeContext } from '../../http/write-context.js';
import { refundPayment, takePayment, voidTicketLine } from '@comanda/workflows';
import { ApprovedWriteHeaders, authorityOf } from '../../auth/approvals.js';
import { Strict, centsOf, jsonNumbers } from './money-input.js';
import { billDeps } from '../../http/settings.js';
import { PaymentSchema, TicketSchema, paymentResponse, ticketResponse } from './views.js';

const errors = {
  ...commonErrors,
  409: Type.Ref('Message', { description: 'Paid or cancelled ticket, an amount over the due (card), `No open shift` (cash), a refund over the payment, or a reused Idempotency-Key' }),
};

const PaymentBody = Strict({
  method: Type.Union(TILL_METHODS.map((m) => Type.Literal(m))),
  amount: Amount('toward the bill, two decimals at most; cash over the due becomes change'),
  tip: Type.Optional(Amount('on top of the amount')),
  tendered: Type.Optional(Amount('cash only: what the guest handed over (change = tendered - amount - tip)')),
}, { examples: [{ method: 'cash', amount: 55.5, tendered: 100 }, { method: 'credit_card', amount: 55.5, tip: 8.25 }] });

/** Payments and refunds on a ticket: its own stream decides each, so none is taken twice. */
export default async function ticketPaymentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tickets = app.deps.readStore.collection<TicketView>(TICKETS);

  const current = async (id: string) => {
    const t = await tickets.get(id);
    if (!t) throw notFound();
    return t;
  };

  app.post('/tickets/:id/payments', {
    config: { permission: 'bills:write', readsBack: true },
    preValidation: jsonNumbers('amount', 'tip', 'tendered'),
    schema: {
      tags: ['tickets'], summary: 'Take a payment (cash, credit_card, debit_card)',
      description: 'The ticket becomes 2 (paid) when the amounts reach its subtotal. A card never pays more than is due (409); cash over the due is change. Cash needs an open shift (409 `No open shift`); card payments with no shift open go into the next Z report. With an Idempotency-Key a retried payment is taken once; two cashiers paying at once: one payment, the other 409.',
      params: IdParams, body: PaymentBody,
      response: { 201: Type.Object({ message: Type.Literal('Payment taken'), payment: PaymentSchema, change: Type.Number(), ticket: TicketSchema }), ...errors },
    },
  }, async (request, reply) => {
    const { method, amount, tip, tendered } = request.body;
    const [amountCents, tipCents, tenderedCents] = centsOf([['amount', amount, 1], ['tip', tip, 0], ['tendered', tendered, 1]]);
    const paymentId = newResourceId(request, 'payment');
    const taken = await takePayment(await billDeps(app), request.params.id, {
      paymentId, method, amountCents: amountCents!, tipCents: tipCents!, ...(tendered === undefined ? {} : { tenderedCents: tenderedCents! }),
    }, writeContext(request));
    await app.readBack(taken.position, `/tickets/${request.params.id}`);
    const t = await current(request.params.id);
    const payment = t.payments.find((p) => p.id === taken.payment?.paymentId);
    if (!payment) throw notFound();
    const change = payment.details.method === 'cash' ? payment.details.changeCents : 0;
    return reply.code(201).header('location', `/tickets/${t.id}`).send({ message: 'Payment taken' as const, payment: paymentResponse(payment), change: fromCents(change), ticket: ticketResponse(t) });
  });

  app.post('/tickets/:id/voids', {
    config: { permission: 'bills:refund', readsBack: true },
    schema: {
      tags: ['tickets'], summary: 'Void a line of a ticket, with a reason',
      description: 'The line leaves the subtotal. What was already paid beyond the new subtotal is refunded from `payment_id` in the same append (a void of a paid line is a refund plus a line cancellation). Lines shared by an even split and the last line of a ticket cannot be voided (409).',
      params: IdParams,
      body: Strict({ line_id: Type.String({ format: 'uuid' }), reason: Type.String({ minLength: 1, maxLength: 500 }), payment_id: Type.Optional(Type.String({ format: 'uuid' })) }),
      response: { 201: Type.Object({ message: Type.Literal('Line voided'), ticket: TicketSchema }), ...errors },
    },
  }, async (request, reply) => {
    const { line_id: lineId, reason, payment_id: paymentId } = request.body;
    const r = await voidTicketLine(await billDeps(app), request.params.id, { lineId, reason, refundId: newResourceId(request, 'refund'), ...(paymentId ? { paymentId } : {}) }, writeContext(request));
    await app.readBack(r.position, `/tickets/${request.params.id}`);
    return reply.code(201).send({ message: 'Line voided' as const, ticket: ticketResponse(await current(request.params.id)) });
  });

  app.post('/tickets/:id/refunds', {
    // A waiter may ask; the ticket's decider refuses them without a manager's approval (403).
    config: { permission: 'bills:write', readsBack: true },
    preValidation: jsonNumbers('amount'),
    schema: {
      tags: ['tickets'], summary: 'Refund (part of) a payment, with a reason',
      description: "Never more than is left of that payment (409). A cash refund needs an open shift. The ticket stays paid; the refund is an event with who, who approved and why. A manager's call: their own session, or a waiter's request with a manager's approval in the X-Approval-* headers (403 `Needs a manager's approval: refunding a payment` otherwise).",
      headers: ApprovedWriteHeaders, params: IdParams,
      body: Strict({ payment_id: Type.String({ format: 'uuid' }), amount: Amount(), reason: Type.String({ minLength: 1, maxLength: 500 }) }),
      response: { 201: Type.Object({ message: Type.Literal('Refund recorded'), id: Type.String(), ticket: TicketSchema }), ...errors },
    },
  }, async (request, reply) => {
    const [amountCents] = centsOf([['amount', request.body.amount, 1]]);
    const refundId = newResourceId(request, 'refund');
    const authority = await authorityOf(app, request, request.body.reason);
    const r = await refundPayment(await billDeps(app), request.params.id, { refundId, paymentId: request.body.payment_id, amountCents: amountCents!, reason: request.body.reason }, writeContext(request), authority);
    await app.readBack(r.position, `/tickets/${request.params.id}`);
    const t = await current(request.params.id);
    const id = r.state.refunds.find((x) => x.refundId === refundId)?.refundId ?? r.state.refunds.at(-1)!.refundId;
    return reply.code(201).send({ message: 'Refund recorded' as const, id, ticket: ticketResponse(t) });
  });
}
