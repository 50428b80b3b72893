import { closeOrder } from '@comanda/workflows';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { IdParams, commonErrors } from '../../http/schemas.js';
import { writeContext } from '../../http/write-context.js';

/** Closing a table: an order paid in full ends, whatever the kitchen's state. */
export default async function orderCloseRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { commands } = app.deps;

  app.post('/orders/:id/close', {
    config: { permission: 'orders:write' },
    schema: {
      tags: ['orders'],
      summary: 'Close an order paid in full and free its table',
      description: "Every line on a bill whose tickets are all paid: the order is completed whatever the kitchen's state (nothing fired, or fired and never bumped) and its table freed; its kitchen tickets still on the board close with it, as for any completed order. Closing a completed order again changes nothing (200). 409 when a line is on no bill, a bill is not yet paid, the order has no dishes (cancel it instead) or is cancelled. With COMANDA_CLOSE_PAID_ORDERS=true an order closes by itself once its last bill is paid.",
      params: IdParams,
      response: { 200: Type.Object({ message: Type.Literal('Order closed') }), ...commonErrors, 409: Type.Ref('Message', { description: 'Not paid in full, no dishes, or cancelled' }) },
    },
  }, async (request) => {
    const { position } = await closeOrder(commands, { orderId: request.params.id, at: app.now(), context: writeContext(request) });
    await app.readYourWrite(position);
    return { message: 'Order closed' as const };
  });
}
