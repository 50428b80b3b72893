import { BASE_CURRENCY, ORDER_STATUSES, dayRange, fromCents, isCalendarDate, isOrderStatus, validationFailed } from '@comanda/domain';
import { ORDERS, type OrderView } from '@comanda/read-models';
import type { Filter } from '@comanda/read-store';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Headers, type PageQuery, Pagination, commonErrors, withHeaders } from '../../http/schemas.js';
import { findPage } from '../../http/pages.js';
import { OrderSchema, orderResponse } from './views.js';
import { unchanged } from '../../plugins/revalidation.js';
import { KeptAnswers, listAnswer, sendListAnswer } from '../../http/kept-answers.js';

/** The states of an order still on the floor. */
export const OPEN_STATUSES = ['pending', 'preparing', 'ready'] as const satisfies ReadonlyArray<(typeof ORDER_STATUSES)[number]>;

const listed = { 200: withHeaders(Type.Array(OrderSchema, { description: 'newest first; empty when none match' }), Headers.totalCount), ...commonErrors };
const Day = Type.String({ description: 'YYYY-MM-DD, a day in the restaurant time zone (COMANDA_TIMEZONE)' });

function calendarDate(value: string, field: string) {
  if (!isCalendarDate(value)) throw validationFailed([{ field, message: 'must be a date YYYY-MM-DD' }]);
  return value;
}

/** Order filters and the sales of a day, all read from the orders projection. */
export default async function orderQueryRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const orders = app.deps.readStore.collection<OrderView>(ORDERS);
  const tz = app.deps.config.timezone;
  const ordersTag = app.collectionsTag([ORDERS]);
  const lists = new KeptAnswers();
  // Each query's own checks come first (a bad date is a 400 whatever tag the client holds); then its
  // revalidation; then the answer kept for its tag, or read (http/kept-answers.ts).
  const list = async (request: FastifyRequest, reply: FastifyReply, tag: string, filter: Filter, query: PageQuery) => {
    if (unchanged(request, reply, tag)) return reply;
    return sendListAnswer(reply, await lists.answer(request.url, tag, async () => {
      const { items, total } = await findPage(reply, orders, filter, { sort: { placed_at: -1 } }, query);
      return listAnswer(reply, items.map(orderResponse), total, 'an empty array');
    }));
  };
  const find = async (request: FastifyRequest, reply: FastifyReply, filter: Filter, query: PageQuery) => list(request, reply, await ordersTag(), filter, query);

  app.get('/orders/user/:userId', {
    config: { permission: 'orders:read' },
    schema: { tags: ['orders'], summary: "A user's orders", params: Type.Object({ userId: Type.String({ format: 'uuid' }) }), querystring: Pagination, response: listed },
  }, async (request, reply) => find(request, reply, { user_id: request.params.userId }, request.query));

  app.get('/orders/table/:tableId', {
    config: { permission: 'orders:read' },
    schema: { tags: ['orders'], summary: "A table's orders", params: Type.Object({ tableId: Type.String({ format: 'uuid' }) }), querystring: Pagination, response: listed },
  }, async (request, reply) => find(request, reply, { table_id: request.params.tableId }, request.query));

  app.get('/orders/status/:status', {
    config: { permission: 'orders:read' },
    schema: { tags: ['orders'], summary: 'Orders in one state', description: `status: ${ORDER_STATUSES.join(', ')}; anything else is 400`, params: Type.Object({ status: Type.Enum([...ORDER_STATUSES]) }), querystring: Pagination, response: listed },
  }, async (request, reply) => {
    const { status } = request.params;
    if (!isOrderStatus(status)) throw validationFailed([{ field: 'status', message: `must be one of ${ORDER_STATUSES.join(', ')}` }]);
    // The floor's tablets poll the open states: tagged by the orders in this state alone.
    return list(request, reply, await app.matchingTag(ORDERS, { status }), { status }, request.query);
  });

  // The floor's one poll (issue 58): every open order at once, instead of one list per open state.
  // With 40 tablets an open state's list changes every second or two, so three lists every 2 s were
  // most of the floor's full answers (12 % answered 304 at a waiter's pace, docs/benchmarks.md).
  const OPEN = { status: { $in: [...OPEN_STATUSES] } };
  app.get('/orders/open', {
    config: { permission: 'orders:read' },
    schema: { tags: ['orders'], summary: `Open orders (${OPEN_STATUSES.join(', ')}), newest first`, description: 'What the floor shows: tagged by these orders alone (how many, and the revision of the one changed last), for If-None-Match', querystring: Pagination, response: listed },
  }, async (request, reply) => {
    return list(request, reply, await app.matchingTag(ORDERS, OPEN), OPEN, request.query);
  });

  app.get('/orders/date-range', {
    config: { permission: 'orders:read' },
    schema: {
      tags: ['orders'],
      summary: 'Orders created between two days, both inclusive',
      querystring: Type.Intersect([Type.Object({ start_date: Day, end_date: Day }), Pagination]),
      response: listed,
    },
  }, async (request, reply) => {
    const q = request.query;
    const start = calendarDate(q.start_date, 'start_date');
    const end = calendarDate(q.end_date, 'end_date');
    if (start > end) throw validationFailed([{ field: 'start_date', message: 'must not be after end_date' }]);
    return find(request, reply, { placed_at: { $gte: dayRange(start, tz).start, $lt: dayRange(end, tz).end } }, q);
  });

  app.get('/orders/total-sales/:date', {
    config: { permission: 'sales:read' },
    schema: {
      tags: ['orders'],
      summary: 'Sales of a day: the totals of the orders completed that day',
      params: Type.Object({ date: Day }),
      response: { 200: Type.Object({ date: Type.String(), total_sales: Type.Number(), orders: Type.Integer(), currency_id: Type.String() }), ...commonErrors },
    },
  }, async (request, reply) => {
    const date = calendarDate(request.params.date, 'date');
    const { start, end } = dayRange(date, tz);
    if (unchanged(request, reply, await ordersTag())) return reply;
    const completed = await orders.find({ status: 'completed', completed_at: { $gte: start, $lt: end } });
    const cents = completed.reduce((sum, o) => sum + o.total_cents, 0);
    return reply.send({ date, total_sales: fromCents(cents), orders: completed.length, currency_id: BASE_CURRENCY.id });
  });
}
