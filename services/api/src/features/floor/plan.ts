import { moveTable, reshapeTable } from '@comanda/workflows';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Confirmation, Conflict, IdempotencyHeaders } from '../../http/resources.js';
import { IdParams, commonErrors } from '../../http/schemas.js';
import { writeContext } from '../../http/write-context.js';
import { Cell, Look } from './plan-schemas.js';

const errors = { ...commonErrors, 409: Conflict('Another table already stands on that cell (named by table_id)', { table_id: Type.String({ format: 'uuid' }) }) };

/** The floor plan of a table: its cell on its space's grid, its shape and seats (floor stream). */
export default async function planRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['tables'];

  app.put('/tables/:id/place', {
    config: { permission: 'floor:write' },
    schema: {
      tags, summary: 'Place a table on a cell of its space\'s grid',
      description: 'Every space has a grid of 12 columns by 8 rows. 409 when another table stands on the cell, even one placed there at the same moment.',
      headers: IdempotencyHeaders, params: IdParams, body: Type.Object(Cell.required), response: { 200: Confirmation, ...errors },
    },
  }, async (request) => {
    const { id } = request.params;
    const { position } = await moveTable(app.deps.commands, { tableId: id, ...request.body, context: writeContext(request) });
    await app.readYourWrite(position);
    return { id, message: 'Table placed successfully' };
  });

  app.put('/tables/:id/shape', {
    config: { permission: 'floor:write' },
    schema: {
      tags, summary: 'Give a table its shape and seats', headers: IdempotencyHeaders, params: IdParams, body: Type.Object(Look.required), response: { 200: Confirmation, ...commonErrors, 409: Conflict('The Idempotency-Key was used for another request') },
    },
  }, async (request) => {
    const { id } = request.params;
    const { position } = await reshapeTable(app.deps.commands, { tableId: id, ...request.body, context: writeContext(request) });
    await app.readYourWrite(position);
    return { id, message: 'Table reshaped successfully' };
  });
}
