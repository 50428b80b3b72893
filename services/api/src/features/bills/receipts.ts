import { negotiate } from '@fastify/accept-negotiator';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { IdParams, commonErrors } from '../../http/schemas.js';
import { receiptData, receiptHtml, receiptText } from './receipt.js';
import { settingsNow } from '../../http/settings.js';
import { guestLinkKey, withGuestLink } from '../guest/guest-url.js';

/** A ticket's receipt: 42-column text for an 80 mm printer, or HTML when the client asks for it. */
export default async function receiptRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { readStore, config } = app.deps;
  const guestKey = guestLinkKey(app.deps.masterKey);

  app.get('/tickets/:id/receipt', {
    config: { permission: 'bills:read' },
    schema: {
      tags: ['tickets'], summary: 'The receipt: text/plain (42 columns) or text/html (Accept: text/html)',
      description: 'With the restaurant name and footer in force (GET /settings), the lines, tip, payments and change; a bill still to pay ends with its guest link (COMANDA_GUEST_URL, else the address asked at).',
      params: IdParams,
      response: { 200: Type.String({ description: 'text/plain or text/html' }), ...commonErrors },
    },
  }, async (request, reply) => {
    // A bill still to pay ends with its guest link, as on paper (issue 63).
    const data = withGuestLink(request, config.guestUrl, guestKey, await receiptData(readStore, { timezone: config.timezone, ...(await settingsNow(app)) }, request.params.id));
    const html = negotiate(request.headers.accept ?? '', ['text/plain', 'text/html']) === 'text/html';
    return reply.type(html ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8').send(html ? receiptHtml(data) : receiptText(data));
  });
}
