import { notFound } from '@comanda/domain';
import { bumpTicket, fireOrder, markLineDone, recallTicket, startTicket } from '@comanda/kitchen';
import { KITCHEN_TICKETS, type KitchenTicketView } from '@comanda/read-models';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { IdParams, commonErrors } from '../http/schemas.js';
import { IdempotencyHeaders } from '../http/resources.js';
import { newResourceId, writeContext } from '../http/write-context.js';
import { KitchenTicketSchema, ticketResponse } from '../kitchen/views.js';

const tags = ['kitchen'];
const errors = { ...commonErrors, 409: Type.Ref('Message', { description: 'The line was cancelled by the waiter; or the Idempotency-Key was used for another request' }) };
const LineParams = Type.Object({ id: Type.String({ format: 'uuid' }), lineId: Type.String({ format: 'uuid', description: 'the order-dish line id' }) });
const FireBody = Type.Union([
  Type.Object({ line_ids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 200, uniqueItems: true })) }),
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
export default async function kitchenRoutes(app: FastifyInstance) {
  const tickets = app.deps.readStore.collection<KitchenTicketView>(KITCHEN_TICKETS);
  const { commands } = app.deps;
  const kitchen = app.authorize('kitchen:act');

  app.post('/orders/:id/fire', {
    onRequest: app.authorize('orders:write'),
    schema: {
      tags, summary: "Send an order's lines to the kitchen",
      description: 'Body optional: `{line_ids}` fires those lines; without it every line not yet fired. One kitchen ticket per station (the dish\'s station, else its category\'s, else the default station). A line already fired is left out, so tapping twice (or two waiters at once) sends each line once; nothing left to fire answers 200 with no tickets. 409 when no kitchen station exists or the order is no longer pending or preparing.',
      headers: IdempotencyHeaders, params: IdParams, body: FireBody, response: { 200: Fired, ...errors },
    },
  }, async (request) => {
    const { id } = request.params as { id: string };
    const body = request.body as { line_ids?: string[] } | null | undefined;
    const fired = await fireOrder(commands, { orderId: id, lineIds: body?.line_ids, firingId: newResourceId(request, 'firing'), at: app.now() }, writeContext(request));
    await app.readYourWrite(fired.position);
    return {
      message: fired.tickets.length ? 'Dishes sent to the kitchen' : 'Nothing left to send to the kitchen',
      tickets: fired.tickets.map((t) => ({ id: t.id, station_id: t.stationId, line_ids: t.lineIds })),
    };
  });

  app.get('/kitchen/tickets', {
    onRequest: kitchen,
    schema: {
      tags, summary: 'Kitchen tickets of a station',
      description: 'open (default): not bumped, oldest first. done: bumped, most recently bumped first (for recall), at most `limit`.',
      querystring: Type.Object({
        station_id: Type.Optional(Type.String({ format: 'uuid' })),
        status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('done')], { default: 'open' })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
      }),
      response: { 200: Type.Array(KitchenTicketSchema), ...commonErrors },
    },
  }, async (request) => {
    const q = request.query as { station_id?: string; status?: 'open' | 'done'; limit?: number };
    const status = q.status ?? 'open';
    const filter = { status, ...(q.station_id ? { station_id: q.station_id } : {}) };
    const list = status === 'open'
      ? await tickets.find(filter, { sort: { fired_at: 1 } })
      : await tickets.find(filter, { sort: { bumped_at: -1 }, limit: q.limit ?? 50 });
    return list.map(ticketResponse);
  });

  const tap = (path: string, summary: string, description: string, act: (request: FastifyRequest) => Promise<{ position: bigint | null }>, params = IdParams) => {
    app.post(path, {
      onRequest: kitchen,
      schema: { tags, summary, description, headers: IdempotencyHeaders, params, response: { 200: KitchenTicketSchema, ...errors } },
    }, async (request) => {
      const result = await act(request);
      await app.readYourWrite(result.position);
      const ticket = await tickets.get((request.params as { id: string }).id);
      if (!ticket) throw notFound();
      return ticketResponse(ticket);
    });
  };
  const ticketId = (request: FastifyRequest) => (request.params as { id: string }).id;
  tap('/kitchen/tickets/:id/start', 'Start cooking a ticket', 'Its lines go in progress; the order becomes preparing. Starting again (or after the bump) changes nothing.',
    (r) => startTicket(commands, ticketId(r), app.now(), writeContext(r)));
  tap('/kitchen/tickets/:id/lines/:lineId/done', 'Mark one line done', 'Starts the ticket if needed. Again: no change. A line the waiter cancelled answers 409.',
    (r) => markLineDone(commands, ticketId(r), (r.params as { lineId: string }).lineId, app.now(), writeContext(r)), LineParams);
  tap('/kitchen/tickets/:id/bump', 'Bump a ticket', 'Every line not cancelled is done and the ticket leaves the open list. Bumping again changes nothing.',
    (r) => bumpTicket(commands, ticketId(r), app.now(), writeContext(r)));
  tap('/kitchen/tickets/:id/recall', 'Recall a bumped ticket', 'Back to the open list (its lines keep their status). Recalling an open ticket changes nothing.',
    (r) => recallTicket(commands, ticketId(r), app.now(), writeContext(r)));
}
