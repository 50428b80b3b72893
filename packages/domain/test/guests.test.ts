import t from 'tap';
import { atMenuPrice, order, type OrderEvent } from '../src/index.js';
import { WAITER, given } from './given.js';

// Covers (issue 59): how many guests sat down, recorded with the order and corrected while it is open.
const placeAt = (guests?: number) => ({ type: 'placeOrder' as const, orderId: 'o1', userId: 'u1', tableId: 't1', waiter: 'Ana', at: 1000, lines: atMenuPrice([]), authority: WAITER, ...(guests === undefined ? {} : { guests }) });
const placed = (guests?: number): OrderEvent => ({ type: 'OrderPlaced', data: { orderId: 'o1', userId: 'u1', tableId: 't1', waiter: 'Ana', placedAt: 1000, ...(guests === undefined ? {} : { guests }) } });
const update = (guests?: number) => ({ type: 'updateOrder' as const, userId: 'u1', tableId: 't1', waiter: 'Ana', status: 'pending' as const, at: 5, authority: WAITER, ...(guests === undefined ? {} : { guests }) });

t.test('when a table is seated with its guest count, the order records the covers', async (t) => {
  t.same(given(order, []).when(placeAt(4)), { events: [placed(4)] });
  t.same(given(order, []).when(placeAt()), { events: [placed()] }, 'not said: no count');
  t.equal(given(order, [placed(4)]).state.guests, 4);
  t.equal(given(order, [placed()]).state.guests, null);
});

t.test('a guest count is 1 to 99 whole guests', async (t) => {
  for (const guests of [0, -1, 100, 2.5]) {
    t.same(given(order, []).when(placeAt(guests)), { error: { kind: 'validation', message: 'Validation failed', details: { errors: [{ field: 'guests', message: 'must be a whole number from 1 to 99' }] } } }, `${guests}`);
    t.match(given(order, [placed(2)]).when(update(guests)), { error: { kind: 'validation' } }, `changed to ${guests}`);
  }
});

t.test('given an open order, the count is corrected; the same count or none changes nothing; a finished order keeps its count', async (t) => {
  t.same(given(order, [placed(2)]).when(update(3)), { events: [{ type: 'OrderGuestsChanged', data: { guests: 3 } }] });
  t.same(given(order, [placed(2)]).when(update(2)), { events: [] });
  t.same(given(order, [placed(2)]).when(update()), { events: [] });
  t.equal(given(order, [placed(2), { type: 'OrderGuestsChanged', data: { guests: 5 } }]).state.guests, 5);
  const cancelled: OrderEvent = { type: 'OrderStatusChanged', data: { from: 'pending', to: 'cancelled', at: 2 } };
  t.match(given(order, [placed(2), cancelled]).when({ ...update(3), status: 'cancelled' }), { error: { kind: 'conflict', message: "A cancelled order's guest count no longer changes" } });
});
