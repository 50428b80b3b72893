import { guestRequest, guestRequestStream, notFound } from '@comanda/domain';
import { DISHES, type DishView, GUEST_REQUESTS, type GuestRequestView, TABLES, type TableView } from '@comanda/read-models';
import { acceptGuestRequest } from '@comanda/workflows';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { authorityOf } from '../../auth/approvals.js';
import { IdParams, commonErrors } from '../../http/schemas.js';
import { writeContext } from '../../http/write-context.js';
import { unchanged } from '../../plugins/revalidation.js';
import { tableToken } from './guest-token.js';

const iso = (ms: number) => new Date(ms).toISOString();
const OpenRequest = Type.Object({
  id: Type.String(), table_id: Type.String(), table: Type.String({ description: "the table's name" }), at: Type.String({ format: 'date-time' }),
  lines: Type.Array(Type.Object({ dish_id: Type.String(), name: Type.String(), quantity: Type.Integer(), notes: Type.String() })),
});
const errors = { ...commonErrors, 409: Type.Ref('Message', { description: 'Already answered otherwise, a dish no longer served (sold out, outside its hours), or the table taken by another order' }) };
const tags = ['guest'];

/** The staff's side of ordering from the table (issue 63): the table's QR link, the requests waiting, and the waiter's answer. */
export default async function guestRequestRoutes(fastify: FastifyInstance, options: { key: string }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { readStore, commands, config } = app.deps;
  const requests = readStore.collection<GuestRequestView>(GUEST_REQUESTS);

  app.get('/tables/:id/guest-link', {
    config: { permission: 'floor:read' },
    schema: {
      tags, summary: "The table's QR link: its menu, and dishes asked for from it", params: IdParams,
      description: 'The same table always has the same link (derived, never stored); it opens /t/{token}: the menu served now and a way to ask the table\'s waiter for dishes.',
      response: { 200: Type.Object({ token: Type.String(), path: Type.String({ description: '/t/{token}: the table\'s page' }) }), ...commonErrors },
    },
  }, async (request) => {
    if (!(await readStore.collection<TableView>(TABLES).get(request.params.id))) throw notFound();
    const token = tableToken(options.key, request.params.id);
    return { token, path: `/t/${token}` };
  });

  app.get('/guest-requests', {
    config: { permission: 'orders:read' },
    schema: { tags, summary: 'Dishes guests asked for from their tables, waiting for a waiter, oldest first', response: { 200: Type.Array(OpenRequest), ...commonErrors } },
  }, async (request, reply) => {
    // The floor polls it every few seconds: the tag moves only when a request joins, leaves or changes (a table or dish renamed shows at the next).
    if (unchanged(request, reply, await app.matchingTag(GUEST_REQUESTS, { status: 'open' }))) return reply;
    const open = await requests.find({ status: 'open' }, { sort: { at: 1 } });
    const [tables, dishes] = await Promise.all([
      readStore.collection<TableView>(TABLES).find({ _id: { $in: [...new Set(open.map((r) => r.table_id))] } }),
      readStore.collection<DishView>(DISHES).find({ _id: { $in: [...new Set(open.flatMap((r) => r.lines.map((l) => l.dish_id)))] } }),
    ]);
    const tableName = new Map(tables.map((t) => [t.id, t.name]));
    const dishName = new Map(dishes.map((d) => [d.id, d.name]));
    return open.map((r) => ({ id: r.id, table_id: r.table_id, table: tableName.get(r.table_id) ?? '', at: iso(r.at), lines: r.lines.map((l) => ({ ...l, name: dishName.get(l.dish_id) ?? 'Dish' })) }));
  });

  app.post('/guest-requests/:id/accept', {
    config: { permission: 'orders:write' },
    schema: {
      tags, summary: "Accept a guest's request: its dishes go on the table's order (or a new one), unfired", params: IdParams,
      description: 'The lines are the accepting waiter\'s, at the menu\'s prices; the waiter fires them. Accepting again answers the same order.',
      response: { 200: Type.Object({ order_id: Type.String(), message: Type.Literal('Request accepted') }), ...errors },
    },
  }, async (request) => {
    const result = await acceptGuestRequest(commands, {
      requestId: request.params.id, authority: await authorityOf(app, request), at: app.now(), timezone: config.timezone, context: writeContext(request),
    });
    await app.readYourWrite(result.position);
    return { order_id: result.orderId, message: 'Request accepted' as const };
  });

  app.post('/guest-requests/:id/decline', {
    config: { permission: 'orders:write' },
    schema: {
      tags, summary: "Decline a guest's request, saying why (the guest's phone shows it)", params: IdParams,
      body: Type.Object({ reason: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
      response: { 200: Type.Object({ id: Type.String(), message: Type.Literal('Request declined') }), ...errors },
    },
  }, async (request) => {
    const result = await commands.handle(guestRequest, guestRequestStream(request.params.id), {
      type: 'declineRequest', by: request.staff!.id, reason: request.body.reason.trim(), at: app.now(),
    }, writeContext(request));
    await app.readYourWrite(result.position);
    return { id: request.params.id, message: 'Request declined' as const };
  });
}
