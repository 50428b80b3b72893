import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { IdParams, commonErrors } from '../../http/schemas.js';
import { guestBill } from './guest-bill.js';
import { guestToken } from './guest-token.js';

const GuestLink = Type.Object({ token: Type.String(), path: Type.String({ description: '/g/{token}: the guest page' }) });

/** The link a bill's QR carries, for the staff who print or show it. */
export default async function guestLinkRoutes(fastify: FastifyInstance, options: { key: string }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/tickets/:id/guest-link', {
    config: { permission: 'bills:read' },
    schema: {
      tags: ['tickets'], summary: "The bill's guest link: the token and the short path its QR carries",
      description: 'The same bill always has the same link (derived, never stored); it shows the bill while it is open and for 30 minutes after it is paid or cancelled.',
      params: IdParams, response: { 200: GuestLink, ...commonErrors },
    },
  }, async (request) => {
    await guestBill(app.deps.readStore, app.deps.config, request.params.id, app.now());
    const token = guestToken(options.key, request.params.id);
    return { token, path: `/g/${token}` };
  });
}
