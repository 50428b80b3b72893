import t from 'tap';
import { atMenuPrice, ORDER_STATUSES, TRANSITIONS, order, orderTotal, type OrderEvent, type OrderStatus } from '../src/index.js';
import { MANAGER, WAITER, given } from './given.js';

const placed: OrderEvent = { type: 'OrderPlaced', data: { orderId: 'o1', userId: 'u1', tableId: 't1', waiter: 'Ana', placedAt: 1000 } };
const line = (lineId: string, priceCents = 1250, dishId = 'd1') => ({ lineId, dishId, priceCents, notes: '' });
const added: OrderEvent = { type: 'DishesAdded', data: { lines: [line('l1'), line('l2', 800)] } };
const statusPath: Record<OrderStatus, OrderEvent[]> = {
  pending: [],
  preparing: [{ type: 'OrderStatusChanged', data: { from: 'pending', to: 'preparing', at: 2 } }],
  ready: [
    { type: 'OrderStatusChanged', data: { from: 'pending', to: 'preparing', at: 2 } },
    { type: 'OrderStatusChanged', data: { from: 'preparing', to: 'ready', at: 3 } },
  ],
  completed: [
    { type: 'OrderStatusChanged', data: { from: 'pending', to: 'preparing', at: 2 } },
    { type: 'OrderStatusChanged', data: { from: 'preparing', to: 'ready', at: 3 } },
    { type: 'OrderStatusChanged', data: { from: 'ready', to: 'completed', at: 4 } },
  ],
  cancelled: [{ type: 'OrderStatusChanged', data: { from: 'pending', to: 'cancelled', at: 2 } }],
};
const inStatus = (s: OrderStatus) => [placed, added, ...statusPath[s]];

t.test('placing an order, with or without dishes', async (t) => {
  t.same(given(order, []).when({ type: 'placeOrder', orderId: 'o1', userId: 'u1', tableId: 't1', waiter: 'Ana', at: 1000, lines: atMenuPrice([]), authority: WAITER }), { events: [placed] });
  t.same(given(order, []).when({ type: 'placeOrder', orderId: 'o1', userId: 'u1', tableId: 't1', waiter: 'Ana', at: 1000, lines: atMenuPrice([line('l1')]), authority: WAITER }), {
    events: [placed, { type: 'DishesAdded', data: { lines: [line('l1')] } }],
  });
  t.match(given(order, [placed]).when({ type: 'placeOrder', orderId: 'o1', userId: 'u1', tableId: 't1', waiter: 'Ana', at: 1, lines: atMenuPrice([]), authority: WAITER }), { error: { kind: 'conflict' } });
  t.match(given(order, []).when({ type: 'addDishes', lines: atMenuPrice([line('x')]), authority: WAITER }), { error: { kind: 'not_found' } });
});

t.test('every transition of the lifecycle, allowed and forbidden', async (t) => {
  for (const from of ORDER_STATUSES) {
    for (const to of ORDER_STATUSES) {
      const outcome = given(order, inStatus(from)).when({ type: 'changeStatus', to, at: 9 });
      if (from === to) t.same(outcome, { events: [] }, `${from} → ${to} changes nothing`);
      else if (TRANSITIONS[from].includes(to)) t.same(outcome, { events: [{ type: 'OrderStatusChanged', data: { from, to, at: 9 } }] }, `${from} → ${to}`);
      else t.same(outcome, { error: { kind: 'conflict', message: `An order cannot go from ${from} to ${to}`, details: { from, to } } }, `${from} ↛ ${to}`);
    }
  }
  t.same(TRANSITIONS.completed, []);
  t.same(TRANSITIONS.cancelled, []);
});

t.test('dishes change only while the order is open: pending, preparing or ready (the next course)', async (t) => {
  for (const s of ORDER_STATUSES) {
    const outcome = given(order, inStatus(s)).when({ type: 'addDishes', lines: atMenuPrice([line('l9')]), authority: WAITER });
    if (s === 'pending' || s === 'preparing' || s === 'ready') t.same(outcome, { events: [{ type: 'DishesAdded', data: { lines: [line('l9')] } }] });
    else t.match(outcome, { error: { kind: 'conflict', message: `Dishes can change only while the order is open (pending, preparing or ready); it is ${s}` } });
    t.match(given(order, inStatus(s)).when({ type: 'removeLine', lineId: 'l1', authority: WAITER }), s === 'pending' || s === 'preparing' || s === 'ready' ? { events: [{ type: 'OrderLineRemoved' }] } : { error: { kind: 'conflict' } });
  }
});

t.test('lines: update, remove, clear; unknown line is not found', async (t) => {
  const g = given(order, [placed, added]);
  t.same(g.when({ type: 'updateLine', lineId: 'l1', notes: 'no onion', authority: WAITER }), { events: [{ type: 'OrderLineUpdated', data: { lineId: 'l1', priceCents: 1250, notes: 'no onion' } }] });
  t.same(g.when({ type: 'updateLine', lineId: 'l1', priceCents: 1250, authority: WAITER }), { events: [] }, 'no change, no event');
  t.match(g.when({ type: 'updateLine', lineId: 'nope', notes: 'x', authority: WAITER }), { error: { kind: 'not_found' } });
  t.match(g.when({ type: 'removeLine', lineId: 'nope', authority: WAITER }), { error: { kind: 'not_found' } });
  t.same(g.when({ type: 'clearLines', authority: WAITER }), { events: [{ type: 'OrderLinesCleared', data: { lineIds: ['l1', 'l2'] } }] });
  t.same(given(order, [placed]).when({ type: 'clearLines', authority: WAITER }), { events: [] });
  t.equal(orderTotal(g.state), 2050);
  const after = given(order, [placed, added, { type: 'OrderLineUpdated', data: { lineId: 'l2', priceCents: 100, notes: '' } }, { type: 'OrderLineRemoved', data: { lineId: 'l1' } }]);
  t.equal(orderTotal(after.state), 100);
});

t.test('updating an order: details, table move, status, If-Match', async (t) => {
  const g = given(order, [placed, added]);
  t.same(g.state.version, 2);
  t.same(g.when({ type: 'updateOrder', userId: 'u1', tableId: 't1', waiter: 'Ana', status: 'pending', at: 5, authority: MANAGER }), { events: [] });
  t.same(g.when({ type: 'updateOrder', userId: 'u2', tableId: 't2', waiter: 'Bea', status: 'preparing', at: 5, ifMatch: 2, authority: MANAGER }), {
    events: [
      { type: 'OrderDetailsChanged', data: { userId: 'u2', waiter: 'Bea', transfer: { by: 'm1', approvedBy: 'm1', reason: null, fromUserId: 'u1' } } },
      { type: 'OrderMovedToTable', data: { from: 't1', to: 't2' } },
      { type: 'OrderStatusChanged', data: { from: 'pending', to: 'preparing', at: 5 } },
    ],
  });
  t.match(g.when({ type: 'updateOrder', userId: 'u1', tableId: 't1', waiter: 'Ana', status: 'pending', at: 5, ifMatch: 1, authority: MANAGER }), { error: { kind: 'precondition' } });
  t.match(given(order, inStatus('completed')).when({ type: 'updateOrder', userId: 'u1', tableId: 't2', waiter: 'Ana', status: 'completed', at: 5, authority: MANAGER }), { error: { kind: 'conflict' } });
});

t.test('deleting: pending or cancelled only; a completed order is a sales record', async (t) => {
  for (const s of ORDER_STATUSES) {
    const outcome = given(order, inStatus(s)).when({ type: 'deleteOrder' });
    if (s === 'pending' || s === 'cancelled') t.same(outcome, { events: [{ type: 'OrderDeleted', data: { tableId: 't1' } }] });
    else t.match(outcome, { error: { kind: 'conflict' } }, s);
  }
  t.match(given(order, [placed, { type: 'OrderDeleted', data: { tableId: 't1' } }]).when({ type: 'deleteOrder' }), { error: { kind: 'not_found' } });
});

t.test('payments are recorded once per payment hash, whatever the state; late and odd ones are flagged', async (t) => {
  const pay = { type: 'recordPayment' as const, paymentHash: 'ab'.repeat(32), amountSat: 1500, receivedAt: 7 };
  const received: OrderEvent = { type: 'OrderPaymentReceived', data: { paymentHash: pay.paymentHash, amountSat: 1500, receivedAt: 7 } };
  const flagged = (flag: string) => ({ events: [{ ...received, data: { ...received.data, flag } }] });
  for (const s of ['pending', 'preparing', 'ready'] as const) t.same(given(order, inStatus(s)).when(pay), { events: [received] }, s);
  t.same(given(order, inStatus('completed')).when(pay), flagged('order_completed'), 'paid after completion');
  t.same(given(order, inStatus('cancelled')).when(pay), flagged('order_cancelled'), 'paid after cancellation');
  t.same(given(order, [placed, { type: 'OrderDeleted', data: { tableId: 't1' } }]).when(pay), flagged('order_deleted'), 'paid after deletion');
  const other: OrderEvent = { type: 'OrderPaymentReceived', data: { paymentHash: 'cd'.repeat(32), amountSat: 900, receivedAt: 3 } };
  t.same(given(order, [placed, other]).when(pay), flagged('order_already_paid'), 'a second payment of another hash');
  t.same(given(order, [placed, received]).when(pay), { events: [] }, 'a second delivery changes nothing');
  t.match(given(order, []).when(pay), { error: { kind: 'not_found' } });
  t.same(given(order, [placed, received]).state.payments, { [pay.paymentHash]: { amountSat: 1500, receivedAt: 7 } });
});
