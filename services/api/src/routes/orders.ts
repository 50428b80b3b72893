import {
  STAFF_STREAM, type FieldError, type OrderStatus, isOrderStatus, may, newId, notFound, forbidden, order, orderStream, roster, validationFailed, fromCents, orderTotal,
} from '@comanda/domain';
import { ORDERS, type OrderView } from '@comanda/read-models';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Headers, IdParams, Pagination, commonErrors, page, withHeaders } from '../http/schemas.js';
import { sendNoContent } from '../http/replies.js';
import { idFromKey } from '@comanda/domain';
import { ifMatch, newResourceId, setEtag, writeContext } from '../http/write-context.js';
import { NewOrderDish, type NewOrderDishBody, linesFrom } from '../orders/lines.js';
import { later, orderState, releaseAfter, seat, unseat } from '../orders/seating.js';
import { requirePaid } from '../bills/due.js';
import { OrderDishSchema, OrderPaymentSchema, OrderSchema, lineResponse, orderResponse } from '../orders/views.js';

const OrderBody = Type.Object({
  user_id: Type.String({ format: 'uuid' }),
  table_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'null for a take-away order' }),
  waiter: Type.String({ minLength: 1, maxLength: 100 }),
  status: Type.Optional(Type.String({ description: 'pending (or absent) on create; see the lifecycle on update' })),
  total: Type.Optional(Type.Number({ description: 'ignored: the total is always computed from the order dishes' })),
});
type OrderBodyT = { user_id: string; table_id: string | null; waiter: string; status?: string; total?: number };

const errors = {
  ...commonErrors,
  409: Type.Ref('Message', { description: 'Table taken by another active order, forbidden status change, or a completed order' }),
  412: Type.Ref('Message', { description: 'Stale If-Match' }),
};
const Added = Type.Object({ message: Type.Literal('Order added successfully'), id: Type.String() });

const lifecycle = 'Lifecycle: pending → preparing → ready → completed; pending, preparing or ready → cancelled. Nothing leaves completed or cancelled (409 naming both states). Placing an order on a table occupies it (409 when another active order holds it); completing, cancelling or deleting it frees the table.';

/** The order itself: create, read, update, delete; its lines live in order-dishes.ts. */
export default async function orderRoutes(app: FastifyInstance) {
  const orders = app.deps.readStore.collection<OrderView>(ORDERS);
  const { commands } = app.deps;

  async function checkUser(userId: string, errs: FieldError[]) {
    const { state } = await commands.state(roster, STAFF_STREAM);
    if (!state.members[userId]) errs.push({ field: 'user_id', message: 'must reference an existing user' });
  }

  async function place(request: FastifyRequest, body: OrderBodyT, dishes: NewOrderDishBody[]) {
    const errs: FieldError[] = [];
    if (body.status !== undefined && body.status !== 'pending') errs.push({ field: 'status', message: 'a new order is pending' });
    await checkUser(body.user_id, errs);
    if (errs.length) throw validationFailed(errs);
    const orderId = newResourceId(request, 'order');
    const context = writeContext(request);
    const lines = await linesFrom(commands, dishes, (i) => (context.idempotency ? idFromKey('line', context.idempotency.key, String(i)) : newId()));
    const seated = await seat(commands, body.table_id, orderId, context);
    let placed;
    try {
      placed = await commands.handle(order, orderStream(orderId), {
        type: 'placeOrder', orderId, userId: body.user_id, tableId: body.table_id, waiter: body.waiter.trim(), at: app.now(), lines,
      }, context);
    } catch (error) {
      await unseat(commands, body.table_id, orderId, writeContext(request));
      throw error;
    }
    await app.readYourWrite(later(seated, placed.position));
    return orderId;
  }

  app.get('/orders', {
    onRequest: app.authorize('orders:read'),
    schema: { tags: ['orders'], summary: 'Orders, newest first', querystring: Pagination, response: { 200: Type.Array(OrderSchema), 204: Type.Null({ description: 'no orders' }), ...errors } },
  }, async (request, reply) => {
    const list = await orders.find({}, { sort: { placed_at: -1 }, ...page(request.query as object) });
    if (list.length === 0 && (await orders.count()) === 0) return sendNoContent(reply);
    return list.map(orderResponse);
  });

  app.get('/orders/:id', {
    onRequest: app.authorize('orders:read'),
    schema: { tags: ['orders'], summary: 'One order, with its version as ETag', params: IdParams, response: { 200: withHeaders(OrderSchema, Headers.etag), ...errors } },
  }, async (request, reply) => {
    const o = await orders.get((request.params as { id: string }).id);
    if (!o) throw notFound();
    setEtag(reply, o.version);
    return orderResponse(o);
  });

  app.get('/orders/:id/complete', {
    onRequest: app.authorize('orders:read'),
    schema: { tags: ['orders'], summary: 'The order with its dishes', params: IdParams, response: { 200: withHeaders(Type.Object({ order: OrderSchema, dishes: Type.Array(OrderDishSchema), payments: Type.Array(OrderPaymentSchema) }), Headers.etag), ...errors } },
  }, async (request, reply) => {
    const o = await orders.get((request.params as { id: string }).id);
    if (!o) throw notFound();
    setEtag(reply, o.version);
    return { order: orderResponse(o), dishes: o.lines.map((l) => lineResponse(o.id, l, o.kitchen_status)), payments: o.payments };
  });

  app.post('/orders', {
    onRequest: app.authorize('orders:write'),
    schema: { tags: ['orders'], summary: 'Place an order', description: lifecycle, body: OrderBody, response: { 201: withHeaders(Added, Headers.location), ...errors } },
  }, async (request, reply) => {
    const id = await place(request, request.body as OrderBodyT, []);
    return reply.code(201).header('location', `/orders/${id}`).send({ message: 'Order added successfully', id });
  });

  app.post('/orders/with-dishes', {
    onRequest: app.authorize('orders:write'),
    schema: {
      tags: ['orders'],
      summary: 'Place an order with its dishes in one append',
      description: 'Any invalid dish rejects the whole request (400, one error per field).',
      body: Type.Object({ order: OrderBody, dishes: Type.Array(NewOrderDish, { maxItems: 200 }) }),
      response: { 201: withHeaders(Added, Headers.location), ...errors },
    },
  }, async (request, reply) => {
    const body = request.body as { order: OrderBodyT; dishes: NewOrderDishBody[] };
    const id = await place(request, body.order, body.dishes);
    return reply.code(201).header('location', `/orders/${id}`).send({ message: 'Order added successfully', id });
  });

  app.put('/orders/:id', {
    onRequest: app.authorize('orders:status'),
    schema: {
      tags: ['orders'],
      summary: 'Update an order (waiter, user, table, status)',
      description: `${lifecycle} Kitchen staff may change only the status. Moving to another table moves the occupancy. Honours If-Match.`,
      params: IdParams,
      body: OrderBody,
      response: { 200: Type.Object({ message: Type.Literal('Order updated successfully') }), ...errors },
    },
  }, async (request) => {
    const { id } = request.params as { id: string };
    const body = request.body as OrderBodyT;
    const before = await orderState(commands, id);
    if (!before.orderId || before.deleted) throw notFound();
    const status = body.status ?? before.status!;
    const errs: FieldError[] = [];
    if (!isOrderStatus(status)) errs.push({ field: 'status', message: 'must be pending, preparing, ready, completed or cancelled' });
    if (body.user_id !== before.userId) await checkUser(body.user_id, errs);
    if (errs.length) throw validationFailed(errs);
    if (app.deps.config.completeRequiresPayment && status === 'completed' && before.status !== 'completed') await requirePaid(commands, before);
    const detailsChange = body.user_id !== before.userId || body.waiter.trim() !== before.waiter || body.table_id !== before.tableId;
    if (detailsChange && !may(request.staff!.role, 'orders:write')) throw forbidden();
    const context = writeContext(request);
    const moving = body.table_id !== before.tableId;
    const seated = moving ? await seat(commands, body.table_id, id, context) : null;
    let updated;
    try {
      updated = await commands.handle(order, orderStream(id), {
        type: 'updateOrder', userId: body.user_id, tableId: body.table_id, waiter: body.waiter.trim(), status: status as OrderStatus, at: app.now(), ifMatch: ifMatch(request),
      }, context);
    } catch (error) {
      if (moving) await unseat(commands, body.table_id, id, writeContext(request));
      throw error;
    }
    const released = await releaseAfter(commands, id, before.tableId, { ...updated.state }, context);
    await app.readYourWrite(later(seated, updated.position, released));
    return { message: 'Order updated successfully' };
  });

  app.delete('/orders/:id', {
    onRequest: app.authorize('orders:delete'),
    schema: { tags: ['orders'], summary: 'Delete a pending or cancelled order', description: 'A completed order is a sales record: 409.', params: IdParams, response: { 200: Type.Object({ message: Type.Literal('Order deleted successfully') }), ...errors } },
  }, async (request) => {
    const { id } = request.params as { id: string };
    const before = await orderState(commands, id);
    const context = writeContext(request);
    const deleted = await commands.handle(order, orderStream(id), { type: 'deleteOrder' }, context);
    const released = await releaseAfter(commands, id, before.tableId, deleted.state, context);
    await app.readYourWrite(later(deleted.position, released));
    return { message: 'Order deleted successfully' };
  });

  app.put('/orders/:id/calculate-total', {
    onRequest: app.authorize('orders:write'),
    schema: {
      tags: ['orders'],
      summary: 'Recompute the total from the order dishes',
      description: 'The total is always derived from the dishes in integer cents, so the stored value never drifts; this answers the recomputed total and stores nothing unless it differed.',
      params: IdParams,
      response: { 200: Type.Object({ message: Type.Literal('Total calculated successfully'), total: Type.Number() }), ...errors },
    },
  }, async (request) => {
    const { id } = request.params as { id: string };
    const state = await orderState(commands, id);
    if (!state.orderId || state.deleted) throw notFound();
    return { message: 'Total calculated successfully', total: fromCents(orderTotal(state)) };
  });
}
