import { notFound } from '@comanda/domain';
import { bumpTicket, fireOrder, markLineDone, recallTicket, startTicket } from '@comanda/kitchen';
import { KITCHEN_TICKETS, type KitchenTicketView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Headers, IdParams, commonErrors, pageFields, withHeaders } from '../../http/schemas.js';
import { findPage } from '../../http/pages.js';
import { IdempotencyHeaders } from '../../http/resources.js';
import { newResourceId, writeContext } from '../../http/write-context.js';
import { KitchenTicketSchema, ticketResponse } from './views.js';
import { Course } from '../order-lines/lines.js';
import { unchanged } from '../../plugins/revalidation.js';

const tags = ['kitchen'];
const errors = { ...commonErrors, 409: Type.Ref('Message', { description: 'The line was cancelled by the waiter; or the Idempotency-Key was used for another request' }) };
const LineParams = Type.Object({ id: Type.String({ format: 'uuid' }), lineId: Type.String({ format: 'uuid', description: 'the order-dish line id' }) });
const FireBody = Type.Union([
  Type.Object({
    line_ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 200, uniqueItems: true })),
    course: Type.Optional(Course()),
  }, { examples: [{ course: 1 }, {}] }),
  Type.Null(),
]);
const Fired = Type.Object({
  message: Type.String(),
  tickets: Type.Array(Type.Object({ id: Type.String(), station_id: Type.String(), line_ids: Type.Array(Type.String()) })),
});

/**
 * Firing an order's lines and the kitchen screens' taps. Every tap is one command on the ticket's own
 * stream, idempotent: a repeated tap or a second screen tapping the same ticket answers 200 with the
 * ticket as it now is, and changes it once.
 */
export default async function kitchenRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tickets = app.deps.readStore.collection<KitchenTicketView>(KITCHEN_TICKETS);
  const boardTag = app.collectionsTag([KITCHEN_TICKETS]);
  const { commands } = app.deps;

  app.post('/orders/:id/fire', {
    config: { permission: 'orders:write' },
    schema: {
      tags, summary: "Send an order's lines to the kitchen",
      description: 'Body optional: `{line_ids}` fires those lines; `{course: n}` fires that course\'s lines not yet fired; without either every line not yet fired (both at once: 400). One kitchen ticket per station (the dish\'s station, else its category\'s, else the default station). A line already fired is left out, so tapping twice (or two waiters at once) sends each line once; nothing left to fire answers 200 with no tickets. 409 when no kitchen station exists or the order is no longer open. Firing lines of a ready order (the next course) takes it back to preparing.',
      headers: IdempotencyHeaders, params: IdParams, body: FireBody, response: { 200: Fired, ...errors },
    },
  }, async (request) => {
    const { id } = request.params;
    const body = request.body;
    const fired = await fireOrder(commands, { orderId: id, lineIds: body?.line_ids, course: body?.course, firingId: newResourceId(request, 'firing'), at: app.now() }, writeContext(request));
    await app.readYourWrite(fired.position);
    return {
      message: fired.tickets.length ? 'Dishes sent to the kitchen' : 'Nothing left to send to the kitchen',
      tickets: fired.tickets.map((t) => ({ id: t.id, station_id: t.stationId, line_ids: t.lineIds })),
    };
  });

  app.get('/kitchen/tickets', {
    config: { permission: 'kitchen:act' },
    schema: {
      tags, summary: 'Kitchen tickets of a station',
      description: 'open (default): on the board, oldest first, every one unless `limit` or `offset` asks for a page. done: bumped, most recently bumped first (for recall), at most `limit` (default 50). closed: taken off the board because the order was completed, cancelled or deleted, most recently closed first, at most `limit` (default 50). X-Total-Count: how many match.',
      querystring: Type.Object({
        station_id: Type.Optional(Type.String({ format: 'uuid' })),
        status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('done'), Type.Literal('closed')], { default: 'open' })),
        ...pageFields(null, 500),
      }),
      response: { 200: withHeaders(Type.Array(KitchenTicketSchema), Headers.totalCount), ...commonErrors },
    },
  }, async (request, reply) => {
    const q = request.query;
    if (unchanged(request, reply, await boardTag())) return reply;
    const status = q.status ?? 'open';
    const filter = { status, ...(q.station_id ? { station_id: q.station_id } : {}) };
    const { items } = status === 'open'
      ? await findPage(reply, tickets, filter, { sort: { fired_at: 1 } }, q, null)
      : await findPage(reply, tickets, filter, { sort: status === 'done' ? { bumped_at: -1 } : { closed_at: -1 } }, q, 50);
    return items.map(ticketResponse);
  });

  /** After a tap: the ticket as it now is, once the read model has it. */
  async function ticketAfter(id: string, result: { position: bigint | null }) {
    await app.readBack(result.position, `/kitchen/tickets?status=open`);
    const ticket = await tickets.get(id);
    if (!ticket) throw notFound();
    return ticketResponse(ticket);
  }
  const schema = (summary: string, description: string) => ({ tags, summary, description, headers: IdempotencyHeaders, response: { 200: KitchenTicketSchema, ...errors } });
  const tap = (path: string, summary: string, description: string, act: (request: FastifyRequest, id: string) => Promise<{ position: bigint | null }>) => {
    app.post(path, { config: { permission: 'kitchen:act', readsBack: true }, schema: { ...schema(summary, description), params: IdParams } },
      async (request) => ticketAfter(request.params.id, await act(request, request.params.id)));
  };
  tap('/kitchen/tickets/:id/start', 'Start cooking a ticket', 'Its lines go in progress; the order becomes preparing. Starting again (or after the bump) changes nothing.',
    (r, id) => startTicket(commands, id, app.now(), writeContext(r)));
  app.post('/kitchen/tickets/:id/lines/:lineId/done', {
    config: { permission: 'kitchen:act', readsBack: true },
    schema: { ...schema('Mark one line done', 'Starts the ticket if needed. Again: no change. A line the waiter cancelled answers 409.'), params: LineParams },
  }, async (request) => {
    const { id, lineId } = request.params;
    return ticketAfter(id, await markLineDone(commands, id, lineId, app.now(), writeContext(request)));
  });
  tap('/kitchen/tickets/:id/bump', 'Bump a ticket', 'Every line not cancelled is done and the ticket leaves the open list. Bumping again changes nothing.',
    (r, id) => bumpTicket(commands, id, app.now(), writeContext(r)));
  tap('/kitchen/tickets/:id/recall', 'Recall a bumped ticket', 'Back to the open list (its lines keep their status). Recalling an open ticket changes nothing. 409 when its order is finished (completed, cancelled or deleted) or the ticket was closed.',
    (r, id) => recallTicket(commands, id, app.now(), writeContext(r)));
}
