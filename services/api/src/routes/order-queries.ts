import { BASE_CURRENCY, ORDER_STATUSES, dayRange, fromCents, isCalendarDate, isOrderStatus, validationFailed } from '@comanda/domain';
import { ORDERS, type OrderView } from '@comanda/read-models';
import type { Filter } from '@comanda/read-store';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { Pagination, commonErrors, page } from '../http/schemas.js';
import { OrderSchema, orderResponse } from '../orders/views.js';

const list = { 200: Type.Array(OrderSchema, { description: 'newest first; empty when none match' }), ...commonErrors };
const Day = Type.String({ description: 'YYYY-MM-DD, a day in the restaurant time zone (COMANDA_TIMEZONE)' });

function calendarDate(value: string, field: string) {
  if (!isCalendarDate(value)) throw validationFailed([{ field, message: 'must be a date YYYY-MM-DD' }]);
  return value;
}

/** Order filters and the sales of a day, all read from the orders projection. */
export default async function orderQueryRoutes(app: FastifyInstance) {
  const orders = app.deps.readStore.collection<OrderView>(ORDERS);
  const tz = app.deps.config.timezone;
  const read = app.authorize('orders:read');
  const find = async (filter: Filter, query: object) => (await orders.find(filter, { sort: { placed_at: -1 }, ...page(query) })).map(orderResponse);

  app.get('/orders/user/:userId', {
    onRequest: read,
    schema: { tags: ['orders'], summary: "A user's orders", params: Type.Object({ userId: Type.String({ format: 'uuid' }) }), querystring: Pagination, response: list },
  }, async (request) => find({ user_id: (request.params as { userId: string }).userId }, request.query as object));

  app.get('/orders/table/:tableId', {
    onRequest: read,
    schema: { tags: ['orders'], summary: "A table's orders", params: Type.Object({ tableId: Type.String({ format: 'uuid' }) }), querystring: Pagination, response: list },
  }, async (request) => find({ table_id: (request.params as { tableId: string }).tableId }, request.query as object));

  app.get('/orders/status/:status', {
    onRequest: read,
    schema: { tags: ['orders'], summary: 'Orders in one state', description: `status: ${ORDER_STATUSES.join(', ')}; anything else is 400`, params: Type.Object({ status: Type.String() }), querystring: Pagination, response: list },
  }, async (request) => {
    const { status } = request.params as { status: string };
    if (!isOrderStatus(status)) throw validationFailed([{ field: 'status', message: `must be one of ${ORDER_STATUSES.join(', ')}` }]);
    return find({ status }, request.query as object);
  });

  app.get('/orders/date-range', {
    onRequest: read,
    schema: {
      tags: ['orders'],
      summary: 'Orders created between two days, both inclusive',
      querystring: Type.Intersect([Type.Object({ start_date: Day, end_date: Day }), Pagination]),
      response: list,
    },
  }, async (request) => {
    const q = request.query as { start_date: string; end_date: string };
    const start = calendarDate(q.start_date, 'start_date');
    const end = calendarDate(q.end_date, 'end_date');
    if (start > end) throw validationFailed([{ field: 'start_date', message: 'must not be after end_date' }]);
    return find({ placed_at: { $gte: dayRange(start, tz).start, $lt: dayRange(end, tz).end } }, q);
  });

  app.get('/orders/total-sales/:date', {
    onRequest: app.authorize('sales:read'),
    schema: {
      tags: ['orders'],
      summary: 'Sales of a day: the totals of the orders completed that day',
      params: Type.Object({ date: Day }),
      response: { 200: Type.Object({ date: Type.String(), total_sales: Type.Number(), orders: Type.Integer(), currency_id: Type.String() }), ...commonErrors },
    },
  }, async (request, reply: FastifyReply) => {
    const date = calendarDate((request.params as { date: string }).date, 'date');
    const { start, end } = dayRange(date, tz);
    const completed = await orders.find({ status: 'completed', completed_at: { $gte: start, $lt: end } });
    const cents = completed.reduce((sum, o) => sum + o.total_cents, 0);
    return reply.send({ date, total_sales: fromCents(cents), orders: completed.length, currency_id: BASE_CURRENCY.id });
  });
}
