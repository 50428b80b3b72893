import { notFound, order, orderStream, toCents, validationFailed } from '@comanda/domain';
import { ApprovedWriteHeaders, authorityOf } from '../../auth/approvals.js';
import { ORDERS, type OrderView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Headers, IdParams, OptionalPagination, Price, commonErrors, withHeaders } from '../../http/schemas.js';
import type { Representation } from '../../http/read-only-fields.js';
import { paramOf } from '../../http/representation.js';
import { arrayPage } from '../../http/pages.js';
import { writeContext } from '../../http/write-context.js';
import { addDishes, changeLine } from '@comanda/workflows';
import { Course, NewOrderDish, Quantity, Seat, dishRequests, lineIds } from './lines.js';
import { OrderDishSchema, lineResponse } from '../orders/views.js';
import { revisionTag, unchanged } from '../../plugins/revalidation.js';
import { readOnlyFields } from '../../http/read-only-fields.js';

const LineParams = Type.Object({ id: Type.String({ format: 'uuid' }), dishId: Type.String({ format: 'uuid', description: 'the order-dish line id' }) });
const VoidQuery = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 200, description: 'why a fired line is voided (or X-Approval-Reason)' })) });
const exceptions = "A price other than the menu's (`price_at_order`, or a new price on PUT) is a price override: managers and admins set one on their own session, a waiter only with a manager's approval and a reason in the request's X-Approval-* headers (403 `Needs a manager's approval: price override` otherwise). Each override is recorded with who, who approved, why, the menu's price and the new one (GET /audit).";
const errors = { ...commonErrors, 409: Type.Ref('Message', { description: 'Dishes change only while the order is open (pending, preparing or ready); a dish sold out ("86"), with fewer portions left than asked, or outside its hours ("<dish> is not served now (served Mon–Fri 07:00–11:30)") is refused naming it. In the hours of a price level (GET /price-levels) a line takes its price and says so (`price_level`); a `price_at_order` equal to the regular price of the dish is then the price of the level' }) };
const rule = 'Dishes may change only while the order is open: pending, preparing or ready (409 otherwise). The total is recomputed in integer cents on every change.';

const LineChange = Type.Object({
  price_at_order: Type.Optional(Price('The new price of the line', { positiveInSchema: false })), notes: Type.Optional(Type.String({ maxLength: 500 })),
  quantity: Type.Optional(Quantity()), course: Type.Optional(Course()), seat: Type.Optional(Seat()),
}, { minProperties: 1, examples: [{ notes: 'sin cebolla' }, { quantity: 3 }] });

/** The dishes of an order (its lines). Adding commutes: concurrent waiters never lose a line. */
export default async function orderDishRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const orders = app.deps.readStore.collection<OrderView>(ORDERS);
  const { commands } = app.deps;

  app.get('/orders/:id/dishes', {
    config: { permission: 'orders:read' },
    schema: {
      tags: ['order dishes'], summary: 'The dishes of an order, in the order they were added', params: IdParams, querystring: OptionalPagination,
      response: { 200: withHeaders(Type.Array(OrderDishSchema), Headers.totalCount), ...errors },
    },
  }, async (request, reply) => {
    const o = await orders.get(request.params.id);
    if (!o) throw notFound();
    if (unchanged(request, reply, revisionTag(o))) return reply;
    return arrayPage(reply, o.lines, request.query, null).map((l) => lineResponse(o.id, l, o.kitchen_status));
  });

  app.post('/orders/:id/dishes', {
    config: { permission: 'orders:write' },
    schema: {
      tags: ['order dishes'], summary: 'Add dishes to an order', description: `${rule} Any invalid dish rejects the whole request. ${exceptions}`,
      headers: ApprovedWriteHeaders, params: IdParams, body: Type.Array(NewOrderDish, { minItems: 1, maxItems: 200 }),
      response: { 201: Type.Object({ message: Type.Literal('Dishes added successfully'), ids: Type.Array(Type.String()) }), ...errors },
    },
  }, async (request, reply) => {
    const context = writeContext(request);
    const result = await addDishes(commands, {
      orderId: request.params.id, dishes: dishRequests(request.body), lineId: lineIds(context), at: app.now(), timezone: app.deps.config.timezone, authority: await authorityOf(app, request), context,
    });
    await app.readYourWrite(result.position);
    return reply.code(201).send({ message: 'Dishes added successfully', ids: result.lineIds });
  });

  /** A line as GET /orders/{id}/dishes answers it. */
  const storedLine: Representation = async (request) => {
    const o = await orders.get(paramOf(request, 'id'));
    const line = o?.lines.find((l) => l.lineId === paramOf(request, 'dishId'));
    return o && line ? { ...lineResponse(o.id, line, o.kitchen_status) } : null;
  };

  app.put('/orders/:id/dishes/:dishId', {
    config: { permission: 'orders:write' },
    preValidation: readOnlyFields(LineChange, storedLine),
    schema: {
      tags: ['order dishes'], summary: 'Change the price, notes, quantity, course or seat of one line',
      description: `${rule} A line already sent to the kitchen keeps its quantity, course and seat (409: remove it and add a new one). ${exceptions}`, headers: ApprovedWriteHeaders, params: LineParams,
      body: LineChange,
      response: { 200: Type.Object({ message: Type.Literal('Order dish updated successfully'), id: Type.String() }), ...errors },
    },
  }, async (request) => {
    const { id, dishId } = request.params;
    const body = request.body;
    let priceCents: number | undefined;
    if (body.price_at_order !== undefined) {
      const cents = toCents(body.price_at_order);
      if (cents === null || cents <= 0) throw validationFailed([{ field: 'price_at_order', message: 'must be a positive amount with at most two decimals' }]);
      priceCents = cents;
    }
    const result = await changeLine(commands, {
      orderId: id, lineId: dishId, priceCents, notes: body.notes?.trim(), quantity: body.quantity, course: body.course, seat: body.seat, at: app.now(), timezone: app.deps.config.timezone, authority: await authorityOf(app, request), context: writeContext(request),
    });
    await app.readYourWrite(result.position);
    return { message: 'Order dish updated successfully', id: dishId };
  });

  app.delete('/orders/:id/dishes/:dishId', {
    config: { permission: 'orders:write' },
    schema: {
      tags: ['order dishes'], summary: 'Remove one line', headers: ApprovedWriteHeaders, params: LineParams, querystring: VoidQuery,
      description: `${rule} A line the kitchen does not have yet is removed. A line it already has is voided: a manager's call (their own session, or a waiter's request with a manager's approval and a reason in the X-Approval-* headers or \`reason\`; 403 \`Needs a manager's approval: void of a line the kitchen has\` otherwise); its ticket shows it cancelled, and the void is recorded with who, who approved, why and what the line came to (GET /audit).`,
      response: { 200: Type.Object({ message: Type.Literal('Order dish deleted successfully'), id: Type.String() }), ...errors } },
  }, async (request) => {
    const { id, dishId } = request.params;
    const authority = await authorityOf(app, request, request.query.reason);
    const result = await commands.handle(order, orderStream(id), { type: 'removeLine', lineId: dishId, authority }, writeContext(request));
    await app.readYourWrite(result.position);
    return { message: 'Order dish deleted successfully', id: dishId };
  });

  app.delete('/orders/:id/dishes', {
    config: { permission: 'orders:write' },
    schema: { tags: ['order dishes'], summary: 'Remove every line', description: `${rule} Lines the kitchen already has are voided, as DELETE of one line says.`, headers: ApprovedWriteHeaders, params: IdParams, querystring: VoidQuery, response: { 200: Type.Object({ message: Type.Literal('Order dishes deleted successfully'), count: Type.Integer() }), ...errors } },
  }, async (request) => {
    const { id } = request.params;
    const authority = await authorityOf(app, request, request.query.reason);
    const result = await commands.handle(order, orderStream(id), { type: 'clearLines', authority }, writeContext(request));
    await app.readYourWrite(result.position);
    const count = result.events.reduce((n, e) => n + (e.type === 'OrderLinesCleared' ? e.data.lineIds.length : 0), 0);
    return { message: 'Order dishes deleted successfully', count };
  });
}
