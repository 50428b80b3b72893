import { fromCents } from '@comanda/domain';
import { ORDERS, TICKETS, type OrderView, type TicketView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { commonErrors } from '../../http/schemas.js';
import { KeptAnswers, bytesTag, listAnswer, sendListAnswer } from '../../http/kept-answers.js';
import { unchanged } from '../../plugins/revalidation.js';
import { OPEN_STATUSES } from '../orders/queries.js';
import { ticketFiguresOf } from './views.js';

const OpenBill = Type.Object({
  order_id: Type.String(), table_id: Type.Union([Type.String(), Type.Null()]),
  bills: Type.Integer({ description: 'its bills not cancelled' }),
  due: Type.Number({ description: 'what is left to pay on them' }),
  guest_paid: Type.Number({ description: 'what guests paid toward them through the bill\'s link (issue 63); tips and refunds aside' }),
});

/** Where the open orders' bills stand, for the floor's tiles: the orders with a bill, what is left, what guests paid. */
export default async function openBillRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const orders = app.deps.readStore.collection<OrderView>(ORDERS);
  const tickets = app.deps.readStore.collection<TicketView>(TICKETS);
  const tag = app.collectionsTag([ORDERS, TICKETS]);
  // One answer per change for every tablet of the floor polling it (http/kept-answers.ts).
  const kept = new KeptAnswers();

  app.get('/orders/open/bills', {
    config: { permission: 'bills:read' },
    schema: {
      tags: ['tickets'], summary: "Where the open orders' bills stand: what is left to pay, and what guests paid through the bill's link",
      description: 'One entry per open order with a bill not cancelled, newest order first (the floor marks a table a guest paid at, and what is left). Its ETag is a digest of the answer, for If-None-Match.',
      response: { 200: Type.Array(OpenBill), ...commonErrors },
    },
  }, async (request, reply) => {
    // Its ETag is the answer's own bytes: the orders and bills collections move with every line added
    // anywhere, and a floor polled every 2 s would be answered in full each time; the answer is made once
    // per change of them (kept, for every tablet) and a tablet holding the same bytes gets its 304.
    const answer = await kept.answer('open', await tag(), async () => {
      const open = await orders.find({ status: { $in: [...OPEN_STATUSES] } }, { sort: { placed_at: -1 } });
      const bills = open.length ? await tickets.find({ order_id: { $in: open.map((o) => o.id) }, status: { $in: [1, 2] } }) : [];
      const items = open.flatMap((o) => {
        const mine = bills.filter((t) => t.order_id === o.id);
        if (mine.length === 0) return [];
        const due = mine.reduce((sum, t) => sum + ticketFiguresOf(t).due, 0);
        const guestPaid = mine.flatMap((t) => t.payments).filter((p) => p.details.method === 'lightning' && p.details.byGuest)
          .reduce((sum, p) => sum + p.amount_cents, 0);
        return [{ order_id: o.id, table_id: o.table_id, bills: mine.length, due: fromCents(due), guest_paid: fromCents(guestPaid) }];
      });
      return listAnswer(reply, items, items.length, 'an empty array');
    });
    if (unchanged(request, reply, bytesTag(answer))) return reply;
    return sendListAnswer(reply, answer);
  });
}
