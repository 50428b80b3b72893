import { MAX_PORTIONS } from '@comanda/domain';
import { setDishStock } from '@comanda/workflows';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { IdempotencyHeaders } from '../../http/resources.js';
import { IdParams, commonErrors } from '../../http/schemas.js';
import { writeContext } from '../../http/write-context.js';

const Stock = Type.Object({
  sold_out: Type.Optional(Type.Boolean({ description: 'true: sold out now ("86"); false: back on sale' })),
  remaining: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PORTIONS, description: 'portions left today: each one ordered takes one, and the dish is sold out at 0' })),
}, { minProperties: 1, examples: [{ sold_out: true }, { remaining: 3 }, { sold_out: false }] });

const Answer = Type.Object({
  message: Type.Literal('Dish stock updated'),
  id: Type.String({ format: 'uuid' }),
  sold_out: Type.Boolean(),
  remaining: Type.Union([Type.Integer(), Type.Null()], { description: 'portions left today; null: no count' }),
});

/**
 * A dish sold out ("86") or counted (issue 60), by a manager. Orders hold their portions in the dish's
 * own stream (workflows' dish-portions.ts); this route only sets what they are held against.
 */
export default async function dishStockRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.put('/dishes/:id/stock', {
    config: { permission: 'menu:write' },
    schema: {
      tags: ['dishes'], summary: 'Sell out a dish ("86"), count its portions, or put it back on sale',
      description: 'A setting holds until it is changed or the next business day starts (COMANDA_TIMEZONE). While a dish is sold out, placing an order with it, adding it or raising its quantity is 409 naming it. Recorded in the audit trail (kind `dish_stock`).',
      headers: IdempotencyHeaders, params: IdParams, body: Stock,
      response: { 200: Answer, ...commonErrors },
    },
  }, async (request) => {
    const { id } = request.params;
    const result = await setDishStock(app.deps.commands, {
      dishId: id, soldOut: request.body.sold_out, remaining: request.body.remaining, by: request.staff?.id ?? null, at: app.now(), timezone: app.deps.config.timezone, context: writeContext(request),
    });
    await app.readYourWrite(result.position);
    return { message: 'Dish stock updated' as const, id, sold_out: result.soldOut, remaining: result.remaining };
  });
}
