import { ORDER_STATUSES, fromCents, notFound, orderTotal } from '@comanda/domain';
import { ORDERS, type OrderView } from '@comanda/read-models';
import { deleteOrder, orderState, placeOrder, updateOrder } from '@comanda/workflows';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { Headers, IdParams, MAX_EXACT_TOTAL, Pagination, commonErrors, withHeaders } from '../../http/schemas.js';
import { storedAs } from '../../http/representation.js';
import { findPage } from '../../http/pages.js';
import { sendNoContent } from '../../http/replies.js';
import { ifMatch, newResourceId, writeContext } from '../../http/write-context.js';
import { NewOrderDish, type NewOrderDishBody, dishRequests, lineIds } from '../order-lines/lines.js';
import { ApprovedWriteHeaders, authorityOf } from '../../auth/approvals.js';
import { OrderDishSchema, OrderPaymentSchema, OrderSchema, lineResponse, orderResponse } from './views.js';
import { revisionTag, unchanged, versionTag } from '../../plugins/revalidation.js';
import { readOnlyFields } from '../../http/read-only-fields.js';

const OrderBody = Type.Object({
  user_id: Type.String({ format: 'uuid', description: "the member of staff the order is for: who signed in, or another member (a transfer: a manager's call)" }),
  table_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], { description: 'null for a take-away order' }),
  waiter: Type.String({ minLength: 1, maxLength: 100, description: "not a name of its own: the order records the roster's name of its user_id" }),
  status: Type.Optional(Type.Enum([...ORDER_STATUSES], { description: 'pending (or absent) on create; see the lifecycle on update' })),
  guests: Type.Optional(Type.Integer({ minimum: 1, maximum: 99, description: 'how many guests sat down (covers, counted in the sales report); absent on create: not said; absent on update: kept' })),
  total: Type.Optional(Type.Number({ minimum: -MAX_EXACT_TOTAL, maximum: MAX_EXACT_TOTAL, description: 'ignored: the total is always computed from the order dishes' })),
}, { examples: [{ user_id: '0b6f1f0e-5a4d-4c3b-8a29-7e6d5c4b3a21', table_id: '5e4d3c2b-1a09-4f8e-9d7c-6b5a49382716', waiter: 'Marisol', status: 'pending' }] });
type OrderBodyT = Static<typeof OrderBody>;

const errors = {
  ...commonErrors,
  409: Type.Ref('Message', { description: 'Table taken by another active order, a dish sold out ("86"), with fewer portions left than asked or outside its hours (named: "<dish> is not served now (served Mon–Fri 07:00–11:30)"), forbidden status change, or a completed order' }),
  412: Type.Ref('Message', { description: 'Stale If-Match' }),
};
const placedBy = "An order's waiter is a member of staff: its user_id, whose roster name the order records (the body's `waiter` text is not recorded), so sales and tips are credited to a member of staff, never to a free-text name. A user_id other than the signed-in member's is a transfer: a manager's call (their own session, or a manager's approval and a reason in the X-Approval-* headers; 403 `Needs a manager's approval: order transfer to another waiter` otherwise), recorded with who and why (GET /audit).";
const Added = Type.Object({ message: Type.Literal('Order added successfully'), id: Type.String() });

const lifecycle = 'Lifecycle: pending → preparing → ready → completed; pending, preparing or ready → cancelled. Nothing leaves completed or cancelled (409 naming both states). Placing an order on a table occupies it (409 when another active order holds it); completing, cancelling or deleting it frees the table.';

/** The order itself: create, read, update, delete; its lines live in order-dishes.ts. */
export default async function orderRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const orders = app.deps.readStore.collection<OrderView>(ORDERS);
  const { commands } = app.deps;
  const ordersTag = app.collectionsTag([ORDERS]);

  async function place(request: FastifyRequest, body: OrderBodyT, dishes: NewOrderDishBody[]) {
    const context = writeContext(request);
    const { orderId, position } = await placeOrder(commands, {
      orderId: newResourceId(request, 'order'), userId: body.user_id, tableId: body.table_id, status: body.status, guests: body.guests,
      dishes: dishRequests(dishes), lineId: lineIds(context),
      at: app.now(), timezone: app.deps.config.timezone, authority: await authorityOf(app, request), context,
    });
    await app.readYourWrite(position, `/orders/${orderId}`);
    return orderId;
  }

  app.get('/orders', {
    config: { permission: 'orders:read' },
    schema: { tags: ['orders'], summary: 'Orders, newest first', querystring: Pagination, response: { 200: withHeaders(Type.Array(OrderSchema), Headers.totalCount), 204: Type.Null({ description: 'no orders' }), ...errors } },
  }, async (request, reply) => {
    if (unchanged(request, reply, await ordersTag())) return reply;
    const { items, total } = await findPage(reply, orders, {}, { sort: { placed_at: -1 } }, request.query);
    if (total === 0) return sendNoContent(reply);
    return items.map(orderResponse);
  });

  app.get('/orders/:id', {
    config: { permission: 'orders:read' },
    schema: { tags: ['orders'], summary: 'One order, with its version as ETag (for If-Match and If-None-Match)', params: IdParams, response: { 200: withHeaders(OrderSchema, Headers.etag), ...errors } },
  }, async (request, reply) => {
    const o = await orders.get(request.params.id);
    if (!o) throw notFound();
    if (unchanged(request, reply, versionTag(o.version))) return reply;
    return orderResponse(o);
  });

  app.get('/orders/:id/complete', {
    config: { permission: 'orders:read' },
    schema: { tags: ['orders'], summary: 'The order with its dishes', description: 'Its ETag is the revision of everything shown (the kitchen\'s progress on each dish included), for If-None-Match; it is not the order\'s version that If-Match takes (GET /orders/{id})', params: IdParams, response: { 200: withHeaders(Type.Object({ order: OrderSchema, dishes: Type.Array(OrderDishSchema), payments: Type.Array(OrderPaymentSchema) }), Headers.etag), ...errors } },
  }, async (request, reply) => {
    const o = await orders.get(request.params.id);
    if (!o) throw notFound();
    if (unchanged(request, reply, revisionTag(o))) return reply;
    return { order: orderResponse(o), dishes: o.lines.map((l) => lineResponse(o.id, l, o.kitchen_status)), payments: o.payments };
  });

  app.post('/orders', {
    config: { permission: 'orders:write' },
    schema: { tags: ['orders'], summary: 'Place an order', description: `${lifecycle} ${placedBy}`, headers: ApprovedWriteHeaders, body: OrderBody, response: { 201: withHeaders(Added, Headers.location), ...errors } },
  }, async (request, reply) => {
    const id = await place(request, request.body, []);
    return reply.code(201).header('location', `/orders/${id}`).send({ message: 'Order added successfully', id });
  });

  app.post('/orders/with-dishes', {
    config: { permission: 'orders:write' },
    schema: {
      tags: ['orders'],
      summary: 'Place an order with its dishes in one append',
      description: `Any invalid dish rejects the whole request (400, one error per field). ${placedBy} A dish priced otherwise than the menu is a price override (see POST /orders/{id}/dishes).`,
      headers: ApprovedWriteHeaders,
      body: Type.Object({ order: OrderBody, dishes: Type.Array(NewOrderDish, { maxItems: 200 }) }),
      response: { 201: withHeaders(Added, Headers.location), ...errors },
    },
  }, async (request, reply) => {
    const id = await place(request, request.body.order, request.body.dishes);
    return reply.code(201).header('location', `/orders/${id}`).send({ message: 'Order added successfully', id });
  });

  app.put('/orders/:id', {
    config: { permission: 'orders:status' },
    preValidation: readOnlyFields(OrderBody, storedAs(app, ORDERS, orderResponse)),
    schema: {
      tags: ['orders'],
      summary: 'Update an order (waiter, user, table, status)',
      description: `${lifecycle} Kitchen staff may change only the status. Moving to another table moves the occupancy. Honours If-Match. Another user_id hands the order to that member of staff: a transfer, a manager's call (their own session, or a manager's approval and a reason in the X-Approval-* headers; 403 otherwise), recorded with who, who approved and why (GET /audit); the order then carries the new waiter's roster name.`,
      headers: ApprovedWriteHeaders,
      params: IdParams,
      body: OrderBody,
      response: { 200: Type.Object({ message: Type.Literal('Order updated successfully') }), ...errors },
    },
  }, async (request) => {
    const { id } = request.params;
    const { body } = request;
    const { position } = await updateOrder(commands, { completeRequiresPayment: app.deps.config.completeRequiresPayment }, {
      orderId: id, userId: body.user_id, tableId: body.table_id, status: body.status, guests: body.guests,
      authority: await authorityOf(app, request), ifMatch: ifMatch(request), at: app.now(), context: writeContext(request),
    });
    await app.readYourWrite(position);
    return { message: 'Order updated successfully' };
  });

  app.delete('/orders/:id', {
    config: { permission: 'orders:delete' },
    schema: { tags: ['orders'], summary: 'Delete a pending or cancelled order', description: 'A completed order is a sales record: 409.', params: IdParams, response: { 200: Type.Object({ message: Type.Literal('Order deleted successfully') }), ...errors } },
  }, async (request) => {
    const { id } = request.params;
    const { position } = await deleteOrder(commands, { orderId: id, context: writeContext(request) });
    await app.readYourWrite(position);
    return { message: 'Order deleted successfully' };
  });

  app.put('/orders/:id/calculate-total', {
    config: { permission: 'orders:write', readsBack: false },
    schema: {
      tags: ['orders'],
      summary: 'Recompute the total from the order dishes',
      description: 'The total is always derived from the dishes in integer cents, so the stored value never drifts; this answers the recomputed total and stores nothing unless it differed.',
      params: IdParams,
      response: { 200: Type.Object({ message: Type.Literal('Total calculated successfully'), total: Type.Number() }), ...errors },
    },
  }, async (request) => {
    const { id } = request.params;
    const state = await orderState(commands, id);
    if (!state.orderId || state.deleted) throw notFound();
    return { message: 'Total calculated successfully', total: fromCents(orderTotal(state)) };
  });
}
