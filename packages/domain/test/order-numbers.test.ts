import t from 'tap';
import { atMenuPrice, businessDay, order, orderNumbers, type OrderEvent, type OrderNumberEvent } from '../src/index.js';
import { MANAGER, WAITER, given } from './given.js';

const placed: OrderEvent = { type: 'OrderPlaced', data: { orderId: 'o1', userId: 'u1', tableId: 't1', waiter: 'Ana', placedAt: 1000 } };

t.test('leased blocks: a replica leases ten numbers at once; blocks and single numbers never overlap', async (t) => {
  const day = '2026-11-26';
  const taken = (orderId: string, number: number): OrderNumberEvent => ({ type: 'OrderNumberTaken', data: { orderId, number, day } });
  const leased = (leaseId: string, from: number, to: number): OrderNumberEvent => ({ type: 'OrderNumbersLeased', data: { leaseId, from, to, day } });
  t.same(given(orderNumbers, []).when({ type: 'leaseOrderNumbers', leaseId: 'r1', count: 10, day }), { events: [leased('r1', 1, 10)] });
  const g = given(orderNumbers, [taken('a', 1), leased('r1', 2, 11)]);
  t.same(g.when({ type: 'leaseOrderNumbers', leaseId: 'r2', count: 10, day }), { events: [leased('r2', 12, 21)] }, 'the next block starts after every number given');
  t.same(g.when({ type: 'takeOrderNumber', orderId: 'b', day }), { events: [taken('b', 12)] }, 'and so does the next single number');
  t.same(g.when({ type: 'leaseOrderNumbers', leaseId: 'r1', count: 10, day }), { events: [] }, 'the same lease again: nothing new');
  t.same(g.state.leases.r1, { from: 2, to: 11 });
  t.same(given(orderNumbers, []).when({ type: 'leaseOrderNumbers', leaseId: 'r3', count: 0, day }), { events: [leased('r3', 1, 1)] }, 'at least one number');
});

t.test('order numbers: from 1 each business day, one per order, the same again for the same order', async (t) => {
  const taken = (orderId: string, number: number): OrderNumberEvent => ({ type: 'OrderNumberTaken', data: { orderId, number, day: '2026-11-26' } });
  t.same(given(orderNumbers, []).when({ type: 'takeOrderNumber', orderId: 'a', day: '2026-11-26' }), { events: [taken('a', 1)] });
  const g = given(orderNumbers, [taken('a', 1), taken('b', 2)]);
  t.same(g.when({ type: 'takeOrderNumber', orderId: 'c', day: '2026-11-26' }), { events: [taken('c', 3)] });
  t.same(g.when({ type: 'takeOrderNumber', orderId: 'a', day: '2026-11-26' }), { events: [] }, 'a retried request keeps its number');
  t.equal(g.state.byOrder.b, 2);
  const placedWith = given(order, [{ type: 'OrderPlaced', data: { ...placed.data, number: 7 } }]);
  t.equal(placedWith.state.number, 7);
  t.equal(given(order, [placed]).state.number, null, 'an order placed before numbers has none');
  t.same(given(order, []).when({ type: 'placeOrder', orderId: 'o1', userId: 'u1', tableId: 't1', waiter: 'Ana', at: 1000, lines: atMenuPrice([]), authority: WAITER, number: 3 }), {
    events: [{ type: 'OrderPlaced', data: { ...placed.data, number: 3 } }],
  });
  // The business day is the restaurant's: 23:30 in Mexico City on the 25th is already the 26th in UTC.
  t.equal(businessDay(Date.parse('2026-11-26T05:30:00Z'), 'America/Mexico_City'), '2026-11-25');
  t.equal(businessDay(Date.parse('2026-11-26T06:00:00Z'), 'America/Mexico_City'), '2026-11-26');
  t.equal(businessDay(Date.parse('2026-11-26T05:30:00Z'), 'UTC'), '2026-11-26');
});
