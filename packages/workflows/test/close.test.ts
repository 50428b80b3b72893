import t from 'tap';
import { newId, ownAuthority, ticket, ticketFigures, ticketStream } from '@comanda/domain';
import { closeIfPaid, closeOrder, issueTickets, placeOrder } from '../src/index.js';
import { restaurant } from './restaurant.js';

// Issue 59's closing of a paid table: given a seated order with the kitchen still cooking, when it is
// closed, then it ends paid and its table is free; unpaid, nothing is written.

type Restaurant = Awaited<ReturnType<typeof restaurant>>;

async function seatedOrder(r: Restaurant) {
  const orderId = newId();
  let n = 0;
  await placeOrder(r.commands, {
    orderId, userId: r.ids.waiter, tableId: r.ids.t1, dishes: [{ dishId: r.ids.pastor, quantity: 2 }], lineId: () => `${orderId}-${n++}`,
    at: 1, timezone: 'UTC', authority: ownAuthority(r.ids.waiter, 'waiter'), context: {},
  });
  return orderId;
}

const pay = async (r: Restaurant, orderId: string) => {
  const { ticketIds } = await issueTickets({ commands: r.commands, now: () => 2 }, orderId, { split: 'none' }, {});
  for (const k of ticketIds) {
    const { due } = ticketFigures((await r.commands.state(ticket, ticketStream(k))).state);
    await r.commands.handle(ticket, ticketStream(k), { type: 'takePayment', paymentId: `p-${k}`, method: 'credit_card', amountCents: due, tipCents: 0, shiftId: null, by: r.ids.waiter, at: 3 });
  }
};

t.test('a paid table closes while the kitchen still has it: completed, paid, the table free', async (t) => {
  const r = await restaurant();
  const orderId = await seatedOrder(r);
  await pay(r, orderId);
  const { position } = await closeOrder(r.commands, { orderId, at: 4, context: {} });
  t.not(position, null, 'written');
  t.equal((await r.orderOf(orderId)).status, 'completed');
  t.equal((await r.table(r.ids.t1)).status, 'available');
});

t.test('an unpaid table is refused and nothing is written; an unknown one is not found', async (t) => {
  const r = await restaurant();
  const orderId = await seatedOrder(r);
  const before = await r.mark();
  await t.rejects(closeOrder(r.commands, { orderId, at: 4, context: {} }), { kind: 'conflict' });
  t.same(await r.store.readAfter(before, 100), [], 'nothing half-written');
  t.equal((await r.table(r.ids.t1)).status, 'occupied');
  await t.rejects(closeOrder(r.commands, { orderId: newId(), at: 4, context: {} }), { kind: 'not_found' });
});

t.test('closing by itself after a payment: only once paid in full, and never an order already ended', async (t) => {
  const r = await restaurant();
  const orderId = await seatedOrder(r);
  t.equal(await closeIfPaid(r.commands, { orderId, at: 4, context: {} }), null, 'still owing: left open');
  t.equal((await r.orderOf(orderId)).status, 'pending');
  await pay(r, orderId);
  t.not(await closeIfPaid(r.commands, { orderId, at: 5, context: {} }), null, 'paid in full: closed');
  t.equal((await r.orderOf(orderId)).status, 'completed');
  t.equal(await closeIfPaid(r.commands, { orderId, at: 6, context: {} }), null, 'already ended: left as it is');
});
