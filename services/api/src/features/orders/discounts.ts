import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { giveDiscount, removeDiscount } from '@comanda/workflows';
import { IdParams, commonErrors } from '../../http/schemas.js';
import { IdempotencyHeaders } from '../../http/resources.js';
import { ApprovedWriteHeaders, authorityOf } from '../../auth/approvals.js';
import { newResourceId, writeContext } from '../../http/write-context.js';
import { settingsNow } from '../../http/settings.js';

const tags = ['orders'];
const errors = {
  ...commonErrors,
  409: Type.Ref('Message', { description: 'The discount touches a line on a live ticket (cancel the ticket first), or the order is completed or cancelled' }),
};
const DiscountParams = Type.Object({ id: Type.String({ format: 'uuid' }), discountId: Type.String({ format: 'uuid', description: 'the discount id' }) });
const Body = Type.Object({
  line_id: Type.Optional(Type.String({ format: 'uuid', description: 'a line of this order; absent: the whole order, spread over its lines in proportion' })),
  kind: Type.Enum(['percent', 'amount'], { description: 'percent of what it applies to, or an amount' }),
  value: Type.Number({ exclusiveMinimum: 0, maximum: 9_999_999.99, description: 'percent: above 0, at most 100; amount: positive; at most two decimals' }),
  reason: Type.String({ minLength: 1, maxLength: 200, description: 'why (a comp: a 100 % line discount with its reason)' }),
}, { examples: [{ line_id: '3f2e1d0c-9b8a-4765-8432-10fedcba9876', kind: 'percent', value: 100, reason: 'comp: birthday dessert' }, { kind: 'percent', value: 10, reason: 'regular' }] });

/** Discounts and comps on an order. Waiters give up to the settings' limit (waiter_discount_max_percent); managers and admins any. */
export default async function orderDiscountRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { commands } = app.deps;

  app.post('/orders/:id/discounts', {
    config: { permission: 'orders:write' },
    schema: {
      tags, summary: 'Give a discount or a comp',
      description: "Without a manager, staff give at most the settings' waiter_discount_max_percent (GET /settings; default 10) percent of what one discount applies to (by percent or by amount), and all such discounts on one order together at most that percent of its lines. Past it: a manager's own session, or a manager's approval in the request's X-Approval-* headers (403 `Needs a manager's approval: discount over the waiter's limit of 10 %` otherwise); a manager's discount is recorded as approved by that manager. Never below zero (400); a line on an issued ticket, paid or not, 409. Answers its id.",
      headers: ApprovedWriteHeaders, params: IdParams, body: Body,
      response: { 201: Type.Object({ id: Type.String(), message: Type.Literal('Discount given') }), ...errors },
    },
  }, async (request, reply) => {
    const { line_id: lineId, kind, value, reason } = request.body;
    const { discountId, position } = await giveDiscount(commands, {
      orderId: request.params.id, discountId: newResourceId(request, 'discount'), lineId: lineId ?? null, kind, value, reason,
      authority: await authorityOf(app, request), waiterMaxPercent: (await settingsNow(app)).waiterDiscountMaxPercent, at: app.now(), context: writeContext(request),
    });
    await app.readYourWrite(position);
    return reply.code(201).send({ id: discountId, message: 'Discount given' as const });
  });

  app.delete('/orders/:id/discounts/:discountId', {
    config: { permission: 'orders:write' },
    schema: {
      tags, summary: 'Take a discount off', description: '409 while it touches a line on a live ticket; 400 for a discount this order does not have.',
      headers: IdempotencyHeaders, params: DiscountParams, response: { 200: Type.Object({ id: Type.String(), message: Type.Literal('Discount removed') }), ...errors },
    },
  }, async (request) => {
    const { id, discountId } = request.params;
    const { position } = await removeDiscount(commands, id, discountId, writeContext(request));
    await app.readYourWrite(position);
    return { id: discountId, message: 'Discount removed' as const };
  });
}
