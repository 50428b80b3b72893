import t from 'tap';
import { order, type OrderEvent } from '../src/index.js';
import { given } from './given.js';

// Closing a table's order (closing.ts): paid in full, it is completed whatever the kitchen's state.
const placed: OrderEvent = { type: 'OrderPlaced', data: { orderId: 'o1', userId: 'u1', tableId: 't1', waiter: 'Ana', placedAt: 1000 } };
const line = (lineId: string) => ({ lineId, dishId: 'd1', priceCents: 1250, notes: '' });
const added: OrderEvent = { type: 'DishesAdded', data: { lines: [line('l1'), line('l2')] } };
const billed = (billId: string, lineIds: string[]): OrderEvent => ({ type: 'OrderBilled', data: { billId, ticketIds: [`${billId}-t`], lineIds } });
const preparing: OrderEvent = { type: 'OrderStatusChanged', data: { from: 'pending', to: 'preparing', at: 2 } };
const close = (paidBills: string[]) => ({ type: 'closeOrder' as const, at: 9, paidBills });

t.test('given every line on a paid bill, when the table is closed, the order completes from wherever the kitchen is', async (t) => {
  t.same(given(order, [placed, added, billed('b1', ['l1', 'l2'])]).when(close(['b1'])), {
    events: [{ type: 'OrderStatusChanged', data: { from: 'pending', to: 'completed', at: 9, paid: true } }],
  }, 'nothing sent to the kitchen: pending → completed');
  t.same(given(order, [placed, added, preparing, billed('b1', ['l1']), billed('b2', ['l2'])]).when(close(['b1', 'b2'])), {
    events: [{ type: 'OrderStatusChanged', data: { from: 'preparing', to: 'completed', at: 9, paid: true } }],
  }, 'a kitchen that never bumped: preparing → completed, split bills both paid');
});

t.test('given a completed order, closing it again changes nothing (a retried tap)', async (t) => {
  const done: OrderEvent = { type: 'OrderStatusChanged', data: { from: 'pending', to: 'completed', at: 9, paid: true } };
  t.same(given(order, [placed, added, billed('b1', ['l1', 'l2']), done]).when(close(['b1'])), { events: [] });
});

t.test('given something unpaid, closing is refused, naming the lines', async (t) => {
  t.same(given(order, [placed, added, billed('b1', ['l1'])]).when(close(['b1'])), {
    error: { kind: 'conflict', message: 'The order cannot be closed: some dishes are on no bill', details: { lineIds: ['l2'] } },
  }, 'a line on no bill (added after the bill)');
  t.same(given(order, [placed, added, billed('b1', ['l1']), billed('b2', ['l2'])]).when(close(['b1'])), {
    error: { kind: 'conflict', message: 'The order cannot be closed before every bill is paid', details: { lineIds: ['l2'] } },
  }, 'a bill not paid');
  t.same(given(order, [placed]).when(close([])), { error: { kind: 'conflict', message: 'An order with no dishes is cancelled, not closed' } });
  const cancelled: OrderEvent = { type: 'OrderStatusChanged', data: { from: 'pending', to: 'cancelled', at: 2 } };
  t.same(given(order, [placed, added, cancelled]).when(close([])), { error: { kind: 'conflict', message: 'A cancelled order cannot be closed' } });
  t.match(given(order, []).when(close([])), { error: { kind: 'not_found' } });
});
