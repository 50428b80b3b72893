import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { mergeOrders, moveLines } from '@comanda/workflows';
import { ApprovedWriteHeaders, authorityOf } from '../../auth/approvals.js';
import { IdParams, commonErrors } from '../../http/schemas.js';
import { writeContext } from '../../http/write-context.js';

const errors = { ...commonErrors, 409: Type.Ref('Message', { description: 'A line on a live bill, a line with its own discount, or an order that is not open' }) };
const approval = "Lines the kitchen already has, or lines going to another waiter's order, move money between checks: a manager's call (their own session, or a waiter's request with a manager's approval and a reason in the X-Approval-* headers; 403 `Needs a manager's approval: …` otherwise), recorded with who, who approved and why. A fired line stays on its kitchen ticket: the kitchen keeps cooking it. Lines on a live bill do not move (409: cancel the bill first).";
const Moved = Type.Object({ message: Type.String(), moved: Type.Array(Type.String(), { description: 'the line ids now on the other order' }) });

/** Lines moved between orders (another table's, or another check at the same table), and two checks merged. */
export default async function moveRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { commands } = app.deps;

  app.post('/orders/:id/dishes/move', {
    config: { permission: 'orders:write' },
    schema: {
      tags: ['order dishes'], summary: 'Move some lines to another open order', headers: ApprovedWriteHeaders, params: IdParams,
      description: `The lines keep their ids, prices, options and seats. ${approval} Honours Idempotency-Key.`,
      body: Type.Object({
        line_ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 200, uniqueItems: true }),
        to_order_id: Type.String({ format: 'uuid', description: 'the open order the lines join (the other table\'s)' }),
      }, { additionalProperties: false }),
      response: { 200: Moved, ...errors },
    },
  }, async (request) => {
    const authority = await authorityOf(app, request);
    const { moved, position } = await moveLines(commands, {
      fromOrderId: request.params.id, toOrderId: request.body.to_order_id, lineIds: request.body.line_ids, authority, at: app.now(), context: writeContext(request),
    });
    await app.readYourWrite(position);
    return { message: 'Lines moved', moved };
  });

  app.post('/orders/:id/merge', {
    config: { permission: 'orders:write' },
    schema: {
      tags: ['orders'], summary: "Merge this order's check into another open order's; this order is cancelled and its table freed", headers: ApprovedWriteHeaders, params: IdParams,
      description: `Every line moves (as POST /orders/{id}/dishes/move). An order with a live bill is refused (409: cancel its bills first), as is one with a discount on the whole order. ${approval} Honours Idempotency-Key.`,
      body: Type.Object({ into_order_id: Type.String({ format: 'uuid', description: 'the open order that takes the lines' }) }, { additionalProperties: false }),
      response: { 200: Moved, ...errors },
    },
  }, async (request) => {
    const authority = await authorityOf(app, request);
    const { moved, position } = await mergeOrders(commands, {
      fromOrderId: request.params.id, toOrderId: request.body.into_order_id, authority, at: app.now(), context: writeContext(request),
    });
    await app.readYourWrite(position);
    return { message: 'Checks merged', moved };
  });
}
