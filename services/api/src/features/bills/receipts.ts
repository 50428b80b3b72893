import { negotiate } from '@fastify/accept-negotiator';
import { notFound } from '@comanda/domain';
import { DISHES, TABLES, TICKETS, type DishView, type TableView, type TicketView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { IdParams, commonErrors } from '../../http/schemas.js';
import { receiptHtml, receiptText } from './receipt.js';

/** A ticket's receipt: 42-column text for an 80 mm printer, or HTML when the client asks for it. */
export default async function receiptRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { readStore, config } = app.deps;

  app.get('/tickets/:id/receipt', {
    config: { permission: 'bills:read' },
    schema: {
      tags: ['tickets'], summary: 'The receipt: text/plain (42 columns) or text/html (Accept: text/html)',
      description: 'With the restaurant name (COMANDA_RESTAURANT_NAME), the lines, tip, payments and change.',
      params: IdParams,
      response: { 200: Type.String({ description: 'text/plain or text/html' }), ...commonErrors },
    },
  }, async (request, reply) => {
    const ticket = await readStore.collection<TicketView>(TICKETS).get(request.params.id);
    if (!ticket) throw notFound();
    const dishes = await readStore.collection<DishView>(DISHES).find({ _id: { $in: ticket.lines.map((l) => l.dishId) } });
    const table = ticket.table_id ? await readStore.collection<TableView>(TABLES).get(ticket.table_id) : null;
    const data = {
      restaurant: config.restaurantName, ticket, tableName: table?.name ?? null, timezone: config.timezone,
      dishNames: Object.fromEntries(dishes.map((d) => [d.id, d.name])),
    };
    const html = negotiate(request.headers.accept ?? '', ['text/plain', 'text/html']) === 'text/html';
    return reply.type(html ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8').send(html ? receiptHtml(data) : receiptText(data));
  });
}
