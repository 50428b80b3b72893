import t from 'tap';
import { fold, order, type FiredLine, type OrderEvent } from '../src/index.js';
import { MANAGER, WAITER, given } from './given.js';

// Issue 59: lines moved between orders and tables; money moves only with a name.

const line = (lineId: string, priceCents = 1000) => ({ lineId, dishId: 'd', priceCents, notes: '', quantity: 1, course: 1, seat: null, modifiers: [] });
const placed = (orderId: string, userId = 'u1'): OrderEvent[] => [
  { type: 'OrderPlaced', data: { orderId, userId, tableId: `t-${orderId}`, waiter: 'Ana', placedAt: 1 } },
  { type: 'DishesAdded', data: { lines: [line(`${orderId}-a`), line(`${orderId}-b`, 2500)] } },
];
const fired: FiredLine = { lineId: 'A-b', firingId: 'f1', dishId: 'd', stationId: 's', ticketId: 'kt1', dishName: 'Steak' };
const out = (lineIds: string[], authority = WAITER, toUserId = 'u1') => ({ type: 'moveLinesOut' as const, moveId: 'm1', lineIds, toOrderId: 'B', toUserId, authority });

t.test('given an order, when a waiter moves an unfired line to their own other order: removed here, carrying the line; no approval needed', async (t) => {
  t.same(given(order, placed('A')).when(out(['A-a'])), {
    events: [{ type: 'OrderLineRemoved', data: { lineId: 'A-a', move: { moveId: 'm1', toOrderId: 'B', line: line('A-a') } } }],
  });
  const after = fold(order, [...placed('A'), { type: 'OrderLineRemoved', data: { lineId: 'A-a', move: { moveId: 'm1', toOrderId: 'B', line: line('A-a') } } }]);
  t.same(Object.keys(after.lines), ['A-b']);
  t.same(given(order, [...placed('A'), { type: 'OrderLineRemoved', data: { lineId: 'A-a', move: { moveId: 'm1', toOrderId: 'B', line: line('A-a') } } }]).when(out(['A-a'])), { events: [] }, 'the same move again: nothing');
});

t.test('a fired line, or lines to another waiter, move only with a manager: 403 without, recorded with who, who approved and why', async (t) => {
  const firedA: OrderEvent[] = [...placed('A'), { type: 'OrderLinesFired', data: { firingId: 'f1', lines: [fired], at: 2 } }];
  t.same(given(order, firedA).when(out(['A-b'])), { error: { kind: 'forbidden', message: "Needs a manager's approval: move of a line the kitchen has" } });
  t.same(given(order, placed('A')).when(out(['A-a'], WAITER, 'u2')), { error: { kind: 'forbidden', message: "Needs a manager's approval: move of lines to another waiter's order" } });
  const approved = { ...WAITER, approvedBy: 'm1', reason: 'guest changed tables' };
  t.same(given(order, firedA).when(out(['A-b'], approved)), {
    events: [{ type: 'OrderLineRemoved', data: { lineId: 'A-b', move: { moveId: 'm1', toOrderId: 'B', line: line('A-b', 2500), fired, approval: { by: 'u1', approvedBy: 'm1', reason: 'guest changed tables' } } } }],
  });
  t.match(given(order, firedA).when(out(['A-b'], MANAGER)), { events: [{ data: { move: { approval: { by: 'm1', approvedBy: 'm1' } } } }] }, "a manager's own move approves itself");
  const moved = fold(order, [...firedA, ...(given(order, firedA).when(out(['A-b'], MANAGER)) as { events: OrderEvent[] }).events]);
  t.same(moved.fired['A-b'], { ...fired, movedTo: 'B' }, 'stays fired here, marked as gone: the kitchen keeps cooking it, never cancelled');
});

t.test('refused: a billed line (cancel the bill first), a line of no order, the same order, a closed order', async (t) => {
  const billed: OrderEvent = { type: 'OrderBilled', data: { billId: 'b', ticketIds: ['k'], lineIds: ['A-a'] } };
  t.match(given(order, [...placed('A'), billed]).when(out(['A-a'])), { error: { kind: 'conflict', message: 'A line on a ticket cannot change; cancel the ticket first' } });
  t.match(given(order, placed('A')).when(out(['zz'])), { error: { kind: 'validation' } });
  t.same(given(order, placed('A')).when(out([])), { events: [] }, 'no line (an empty check merged): nothing moves');
  t.match(given(order, placed('A')).when({ ...out(['A-a']), toOrderId: 'A' }), { error: { kind: 'validation' } });
  const done: OrderEvent[] = [...placed('A'), { type: 'OrderStatusChanged', data: { from: 'pending', to: 'cancelled', at: 3 } }];
  t.match(given(order, done).when(out(['A-a'])), { error: { kind: 'conflict' } });
});

t.test('given the other order, when the lines move in: added once, fired as they were (its kitchen ticket stays the first order\'s)', async (t) => {
  const moveIn = { type: 'moveLinesIn' as const, moveId: 'm1', fromOrderId: 'A', lines: [line('A-b', 2500)], fired: [fired] };
  const added: OrderEvent = { type: 'DishesAdded', data: { lines: [line('A-b', 2500)], moved: { moveId: 'm1', fromOrderId: 'A', fired: [fired] } } };
  t.same(given(order, placed('B')).when(moveIn), { events: [added] });
  const b = fold(order, [...placed('B'), added]);
  t.same(b.fired['A-b'], { ...fired, movedFrom: 'A' }, 'never fired again from here');
  t.equal(b.lines['A-b']!.priceCents, 2500);
  t.same(given(order, [...placed('B'), added]).when(moveIn), { events: [] }, 'a retried move changes nothing');
  t.match(given(order, [...placed('B'), { type: 'OrderStatusChanged', data: { from: 'pending', to: 'cancelled', at: 3 } }]).when(moveIn), { error: { kind: 'conflict' } }, 'a closed order takes no lines');
});
