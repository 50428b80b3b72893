import { dayRange, notFound, order, orderStream, toCents, validationFailed } from '@comanda/domain';
import { TICKETS, type TicketView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Headers, IdParams, OptionalPagination, Pagination, commonErrors, withHeaders } from '../../http/schemas.js';
import { findPage } from '../../http/pages.js';
import { sendNoContent } from '../../http/replies.js';
import { writeContext } from '../../http/write-context.js';
import { cancelTicket, issueTickets, reopenTicket, takeOffServiceCharge, type Split } from '@comanda/workflows';
import { ApprovedWriteHeaders, authorityOf } from '../../auth/approvals.js';
import { Strict, jsonNumbers } from './money-input.js';
import { TicketSchema, ticketResponse } from './views.js';
import { unchanged, versionTag } from '../../plugins/revalidation.js';
import { billDeps } from '../../http/settings.js';
import { Day, days } from '../reports/reports.js';

const errors = { ...commonErrors, 409: Type.Ref('Message', { description: 'Lines already on a ticket, nothing to bill, or a ticket that cannot be cancelled' }) };

const IssueBody = Strict({
  split: Type.Union([Type.Literal('none'), Type.Literal('even'), Type.Literal('lines'), Type.Literal('seats')], {
    description: 'none: one ticket; even: `parts` tickets; lines: one ticket per group; seats: one ticket per seat that has lines, and one more for the lines with no seat',
  }),
  parts: Type.Optional(Type.Integer({ minimum: 2, maximum: 50, description: 'even split: how many tickets' })),
  groups: Type.Optional(Type.Array(Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 200 }), { minItems: 1, maxItems: 50, description: 'lines split: line ids per ticket (by item or seat)' })),
  service_charge_percent: Type.Optional(Type.Number({
    minimum: 0, maximum: 100,
    description: 'a service charge set by hand on these bills, in percent of each bill after discounts (at most two decimals); 0 waives it. Absent: the automatic one (the settings\' service charge for parties of their minimum party size or more guests, counted as the distinct seats on the order). Lowering or waiving a party\'s automatic charge is for managers and admins (403)',
  })),
});

/** A percent with at most two decimals is its basis points in the cents' arithmetic: 12.5 → 1250. */
function serviceChargeBp(percent: number | undefined): number | null {
  if (percent === undefined) return null;
  const bp = toCents(percent);
  if (bp === null || bp < 0 || bp > 10_000) throw validationFailed([{ field: 'service_charge_percent', message: 'must be a percent from 0 to 100 with at most two decimals' }]);
  return bp;
}

function splitOf(body: { split: 'none' | 'even' | 'lines' | 'seats'; parts?: number; groups?: string[][] }): Split {
  if (body.split === 'even') {
    if (body.parts === undefined) throw validationFailed([{ field: 'parts', message: 'is required for an even split' }]);
    if (body.groups) throw validationFailed([{ field: 'groups', message: 'is only for a split by lines' }]);
    return { split: 'even', parts: body.parts };
  }
  if (body.parts !== undefined) throw validationFailed([{ field: 'parts', message: 'is only for an even split' }]);
  if (body.split === 'lines') {
    if (!body.groups) throw validationFailed([{ field: 'groups', message: 'is required for a split by lines' }]);
    return { split: 'lines', groups: body.groups };
  }
  if (body.groups) throw validationFailed([{ field: 'groups', message: 'is only for a split by lines' }]);
  return body.split === 'seats' ? { split: 'seats' } : { split: 'none' };
}

/** Tickets (bills): issued from an order's unbilled lines, read, listed, cancelled. Payments: ticket-payments.ts. */
export default async function ticketRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tickets = app.deps.readStore.collection<TicketView>(TICKETS);
  const ticketsTag = app.collectionsTag([TICKETS]);

  app.post('/orders/:id/tickets', {
    config: { permission: 'bills:write', readsBack: true },
    preValidation: jsonNumbers('parts', 'service_charge_percent'),
    schema: {
      tags: ['tickets'], summary: "Issue the bill for an order's unbilled lines",
      description: 'A line is on at most one live ticket: of two splits at once one wins, the other gets 409. An even split gives tickets whose totals differ by at most one cent and sum exactly. Each bill carries its service charge, worked out now in cents (round half up of the bill after discounts) and kept with it; an even split\'s parts share the whole\'s to the cent. Honours Idempotency-Key.',
      params: IdParams, body: IssueBody,
      response: { 201: Type.Object({ message: Type.Literal('Tickets issued'), ids: Type.Array(Type.String()), tickets: Type.Array(TicketSchema) }), ...errors },
    },
  }, async (request, reply) => {
    const split = splitOf(request.body);
    const rateBp = serviceChargeBp(request.body.service_charge_percent);
    const byHand = rateBp === null ? null : { rateBp, role: request.staff!.role };
    const { ticketIds, position } = await issueTickets(await billDeps(app), request.params.id, split, writeContext(request), byHand);
    await app.readBack(position, `/orders/${request.params.id}/tickets`);
    const issued = await Promise.all(ticketIds.map((id) => tickets.get(id)));
    return reply.code(201).send({ message: 'Tickets issued' as const, ids: ticketIds, tickets: issued.flatMap((t) => (t ? [ticketResponse(t)] : [])) });
  });

  app.get('/tickets/:id', {
    config: { permission: 'bills:read' },
    schema: { tags: ['tickets'], params: IdParams, response: { 200: TicketSchema, ...errors } },
  }, async (request, reply) => {
    const t = await tickets.get(request.params.id);
    if (!t) throw notFound();
    if (unchanged(request, reply, versionTag(t.version))) return reply;
    return ticketResponse(t);
  });

  app.get('/orders/:id/tickets', {
    config: { permission: 'bills:read' },
    schema: { tags: ['tickets'], summary: 'The tickets of an order, cancelled ones included, oldest first', params: IdParams, querystring: OptionalPagination, response: { 200: withHeaders(Type.Array(TicketSchema), Headers.totalCount), 204: Type.Null({ description: 'no tickets yet' }), ...errors } },
  }, async (request, reply) => {
    // Tagged by this order's bills alone: a tablet polls them every 2 s while bills elsewhere change.
    const tag = await app.matchingTag(TICKETS, { order_id: request.params.id });
    const { state } = await app.deps.commands.state(order, orderStream(request.params.id));
    if (!state.orderId || state.deleted) throw notFound();
    if (unchanged(request, reply, tag)) return reply;
    const { items } = await findPage(reply, tickets, { order_id: request.params.id }, { sort: { issued_at: 1, _id: 1 } }, request.query, null);
    if (items.length === 0) return sendNoContent(reply);
    return items.map(ticketResponse);
  });

  app.get('/tickets', {
    config: { permission: 'bills:read' },
    schema: {
      tags: ['tickets'], summary: 'Tickets, oldest first; `status` filters (1 pending, 2 paid, 3 cancelled), `from`/`to` the days they were issued on',
      querystring: Type.Intersect([Pagination, Type.Object({ status: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })), from: Type.Optional(Day), to: Type.Optional(Day) })]),
      response: { 200: withHeaders(Type.Array(TicketSchema), Headers.totalCount), 204: Type.Null({ description: 'no tickets' }), ...errors },
    },
  }, async (request, reply) => {
    const q = request.query;
    if (unchanged(request, reply, await ticketsTag())) return reply;
    // Days in the restaurant's time zone, as the reports and shifts count them (the back office's Bills screen).
    const { from, to } = days(q);
    const tz = app.deps.config.timezone;
    const issued = { ...(from ? { $gte: dayRange(from, tz).start } : {}), ...(to ? { $lt: dayRange(to, tz).end } : {}) };
    const filter = { ...(q.status ? { status: q.status } : {}), ...(from || to ? { issued_at: issued } : {}) };
    const { items } = await findPage(reply, tickets, filter, { sort: { issued_at: 1, _id: 1 } }, q);
    if (items.length === 0) return sendNoContent(reply);
    return items.map(ticketResponse);
  });

  app.post('/tickets/:id/service-charge/removal', {
    config: { permission: 'bills:service-charge', readsBack: true },
    schema: {
      tags: ['tickets'], summary: 'Take the service charge off a bill still to be paid (managers and admins), with a reason',
      description: 'The bill then asks its charge less (and the charge\'s tax when taxes are added to the bill); the ticket records who, why and when. 409 when the bill has no charge, is paid or cancelled (refund instead), or more was paid than it would then ask; paid once its payments cover what is left.',
      params: IdParams, body: Strict({ reason: Type.String({ minLength: 1, maxLength: 500 }) }),
      response: { 200: TicketSchema, ...errors },
    },
  }, async (request) => {
    const { position } = await takeOffServiceCharge(await billDeps(app), request.params.id, request.body.reason, writeContext(request));
    await app.readBack(position, `/tickets/${request.params.id}`);
    const t = await tickets.get(request.params.id);
    if (!t) throw notFound();
    return ticketResponse(t);
  });

  app.post('/tickets/:id/reopen', {
    config: { permission: 'bills:write', readsBack: true },
    schema: {
      tags: ['tickets'], summary: 'Reopen a paid ticket: every payment left refunded and the ticket cancelled in one step; its lines are billable again',
      description: "A manager's call: their own session, or a waiter's request with a manager's approval in the X-Approval-* headers (403 `Needs a manager's approval: reopening a paid bill` otherwise); recorded with who, who approved and why. Bills are never rewritten: the reopened one stays as printed, cancelled, its refunds beside it (a cash refund needs an open shift), and the lines go on a new bill. 409 for a ticket not paid, or with a Lightning payment not yet refunded through the wallet. Honours Idempotency-Key.",
      headers: ApprovedWriteHeaders, params: IdParams, body: Strict({ reason: Type.String({ minLength: 1, maxLength: 200 }) }),
      response: { 200: TicketSchema, ...errors },
    },
  }, async (request) => {
    const position = await reopenTicket(await billDeps(app), request.params.id, request.body.reason, await authorityOf(app, request, request.body.reason), writeContext(request));
    await app.readBack(position, `/tickets/${request.params.id}`);
    const t = await tickets.get(request.params.id);
    if (!t) throw notFound();
    return ticketResponse(t);
  });

  app.post('/tickets/:id/cancel', {
    config: { permission: 'bills:cancel', readsBack: true },
    schema: {
      tags: ['tickets'], summary: 'Cancel a ticket with no payments left (state 3); its lines are billable again',
      description: 'The lines of an even split are billable again once every part is cancelled.',
      params: IdParams, body: Strict({ reason: Type.String({ minLength: 1, maxLength: 500 }) }),
      response: { 200: TicketSchema, ...errors },
    },
  }, async (request) => {
    const position = await cancelTicket(await billDeps(app), request.params.id, request.body.reason.trim(), writeContext(request));
    await app.readBack(position, `/tickets/${request.params.id}`);
    const t = await tickets.get(request.params.id);
    if (!t) throw notFound();
    return ticketResponse(t);
  });
}
