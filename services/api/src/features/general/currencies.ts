import { CURRENCIES, CURRENCY_STREAM, baseCurrency } from '@comanda/domain';
import { TICKETS, type TicketView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Headers, OptionalPagination, commonErrors, withHeaders } from '../../http/schemas.js';
import { arrayPage } from '../../http/pages.js';
import { writeContext } from '../../http/write-context.js';
import { Strict } from '../bills/money-input.js';

const Currency = Type.Object({ id: Type.String(), acronym: Type.String(), name: Type.String(), decimals: Type.Integer(), base: Type.Boolean() });

/** The currencies (fixed ids) and the restaurant's base currency. */
export default async function currencyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { commands } = app.deps;

  app.get('/currencies', {
    config: { permission: 'currencies:read' },
    schema: {
      tags: ['currencies'], summary: 'MXN, USD and BTC with their fixed ids and decimals', querystring: OptionalPagination,
      response: { 200: withHeaders(Type.Array(Currency), Headers.totalCount), ...commonErrors },
    },
  }, async (request, reply) => {
    const { state } = await commands.state(baseCurrency, CURRENCY_STREAM);
    return arrayPage(reply, Object.values(CURRENCIES), request.query, null).map((c) => ({ ...c, base: c.id === state.currencyId }));
  });

  app.put('/base-currency', {
    config: { permission: 'currencies:write' },
    schema: {
      tags: ['currencies'], summary: 'Change the base currency', description: '409 while any ticket is unpaid. Tickets keep the currency they were issued in.',
      body: Strict({ currency_id: Type.String() }),
      response: { 200: Type.Object({ message: Type.Literal('Base currency changed'), currency_id: Type.String() }), ...commonErrors, 409: Type.Ref('Message') },
    },
  }, async (request) => {
    const unpaidTickets = await app.deps.readStore.collection<TicketView>(TICKETS).count({ status: 1 });
    const r = await commands.handle(baseCurrency, CURRENCY_STREAM, { type: 'setBaseCurrency', currencyId: request.body.currency_id, unpaidTickets }, writeContext(request));
    await app.readYourWrite(r.position);
    return { message: 'Base currency changed' as const, currency_id: r.state.currencyId };
  });
}
