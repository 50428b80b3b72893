import t from 'tap';
import { type Authority, type OrderEvent, type RecordedLine, atMenuPrice, order } from '../src/index.js';
import { MANAGER, WAITER, given } from './given.js';

const placed: OrderEvent = { type: 'OrderPlaced', data: { orderId: 'o1', userId: 'u1', tableId: 't1', waiter: 'Ana', placedAt: 1000 } };
const line = (lineId: string, priceCents = 38990): RecordedLine => ({ lineId, dishId: 'd1', priceCents, notes: '' });
const added: OrderEvent = { type: 'DishesAdded', data: { lines: [line('l1'), { ...line('l2', 1000), quantity: 2 }] } };
const fired: OrderEvent = {
  type: 'OrderLinesFired', data: { firingId: 'f1', at: 5, lines: [{ lineId: 'l1', firingId: 'f1', dishId: 'd1', stationId: 's1', ticketId: 'k1', dishName: 'Ribeye' }] },
};
/** A waiter's request that carries manager m1's approval (name and PIN checked at the edge). */
const approved = (reason: string | null): Authority => ({ ...WAITER, approvedBy: 'm1', reason });
/** A dish at 0.01 where the menu says 389.90. */
const cheap = [{ ...line('l3', 1), menuPriceCents: 38990 }];

t.test('a price other than the menu\'s is an override: a manager\'s call, recorded with who, approver and why', async (t) => {
  const g = given(order, [placed]);
  t.same(g.when({ type: 'addDishes', lines: atMenuPrice([line('l3')]), authority: WAITER }), { events: [{ type: 'DishesAdded', data: { lines: [line('l3')] } }] }, "the menu's price passes as it is");
  t.same(g.when({ type: 'addDishes', lines: cheap, authority: WAITER }), { error: { kind: 'forbidden', message: "Needs a manager's approval: price override" } });
  t.match(g.when({ type: 'addDishes', lines: cheap, authority: approved(null) }), { error: { kind: 'validation', details: { errors: [{ field: 'reason' }] } } }, 'an approval needs a reason');
  t.same(g.when({ type: 'addDishes', lines: cheap, authority: approved('owner\'s friend') }), {
    events: [{ type: 'DishesAdded', data: { lines: [{ ...line('l3', 1), override: { by: 'u1', approvedBy: 'm1', reason: "owner's friend", fromCents: 38990 } }] } }],
  });
  t.same(g.when({ type: 'addDishes', lines: cheap, authority: MANAGER }), {
    events: [{ type: 'DishesAdded', data: { lines: [{ ...line('l3', 1), override: { by: 'm1', approvedBy: 'm1', reason: null, fromCents: 38990 } }] } }],
  }, "a manager's own override needs no reason (the seed's clients send none)");
  t.same(given(order, []).when({ type: 'placeOrder', orderId: 'o1', userId: 'u1', tableId: null, waiter: 'Ana', at: 1, lines: cheap, authority: WAITER }), { error: { kind: 'forbidden', message: "Needs a manager's approval: price override" } }, 'placing an order too');
});

t.test('repricing a line, fired or not, is an override from the price it had', async (t) => {
  const g = given(order, [placed, added, fired]);
  t.same(g.when({ type: 'updateLine', lineId: 'l1', priceCents: 100, authority: WAITER }), { error: { kind: 'forbidden', message: "Needs a manager's approval: price override" } });
  t.same(g.when({ type: 'updateLine', lineId: 'l2', priceCents: 900, authority: approved('regular') }), {
    events: [{ type: 'OrderLineUpdated', data: { lineId: 'l2', priceCents: 900, notes: '', override: { by: 'u1', approvedBy: 'm1', reason: 'regular', fromCents: 1000 } } }],
  });
  t.same(g.when({ type: 'updateLine', lineId: 'l2', notes: 'bien cocido', authority: WAITER }), { events: [{ type: 'OrderLineUpdated', data: { lineId: 'l2', priceCents: 1000, notes: 'bien cocido' } }] }, 'notes are no override');
});

t.test('a line the kitchen has is voided by a manager, with its amount; an unfired one is removed', async (t) => {
  const g = given(order, [placed, added, fired]);
  t.same(g.when({ type: 'removeLine', lineId: 'l2', authority: WAITER }), { events: [{ type: 'OrderLineRemoved', data: { lineId: 'l2' } }] }, 'not fired: removed as the seed says');
  t.same(g.when({ type: 'removeLine', lineId: 'l1', authority: WAITER }), { error: { kind: 'forbidden', message: "Needs a manager's approval: void of a line the kitchen has" } });
  t.match(g.when({ type: 'removeLine', lineId: 'l1', authority: approved(' ') }), { error: { kind: 'validation', details: { errors: [{ field: 'reason' }] } } });
  t.same(g.when({ type: 'removeLine', lineId: 'l1', authority: approved('sent back: cold') }), {
    events: [{ type: 'OrderLineRemoved', data: { lineId: 'l1', reason: 'sent back: cold', void: { by: 'u1', approvedBy: 'm1', reason: 'sent back: cold', amountCents: 38990 } } }],
  });
  t.same(g.when({ type: 'removeLine', lineId: 'l1', authority: MANAGER }), {
    events: [{ type: 'OrderLineRemoved', data: { lineId: 'l1', void: { by: 'm1', approvedBy: 'm1', reason: null, amountCents: 38990 } } }],
  }, "a manager's own void, as the seed's clients send it (no reason)");
  t.same(g.when({ type: 'clearLines', authority: WAITER }), { error: { kind: 'forbidden', message: "Needs a manager's approval: void of a line the kitchen has" } }, 'clearing takes the fired line too');
  t.same(g.when({ type: 'clearLines', authority: approved('wrong table') }), {
    events: [{ type: 'OrderLinesCleared', data: { lineIds: ['l1', 'l2'], void: { by: 'u1', approvedBy: 'm1', reason: 'wrong table', amountCents: 38990 } } }],
  }, 'the void counts the fired line only');
});

t.test("the waiter's discount limit holds per order: all discounts without a manager together", async (t) => {
  const give = (discountId: string, authority: Authority, value = 1000) => ({ type: 'giveDiscount' as const, discountId, lineId: null, kind: 'percent' as const, value, reason: 'regular', at: 5, limitBp: 1000, authority });
  const first = given(order, [placed, added]).when(give('x1', WAITER));
  t.same(first, { events: [{ type: 'DiscountGiven', data: { discountId: 'x1', lineId: null, kind: 'percent', value: 1000, at: 5, reason: 'regular', by: 'u1', approvedBy: null, amountCents: 4099 } }] }, '10 % of 409.90, within the limit: no approver');
  const events = 'events' in first ? first.events : [];
  const g = given(order, [placed, added, ...events]);
  t.same(g.when(give('x2', WAITER)), { error: { kind: 'forbidden', message: "Needs a manager's approval: discount over the waiter's limit of 10 %" } }, 'two 10 % discounts would be 19 %');
  t.same(g.when(give('x2', WAITER, 1)), { error: { kind: 'forbidden', message: "Needs a manager's approval: discount over the waiter's limit of 10 %" } }, 'even 0.01 % more');
  t.match(g.when(give('x2', approved('birthday'))), { events: [{ type: 'DiscountGiven', data: { by: 'u1', approvedBy: 'm1', amountCents: 3689 } }] }, "with a manager's approval");
  t.match(g.when(give('x2', MANAGER)), { events: [{ type: 'DiscountGiven', data: { by: 'm1', approvedBy: 'm1' } }] }, "a manager's own discount names the manager as approver");
  const afterApproved = given(order, [placed, added, { type: 'DiscountGiven', data: { discountId: 'x9', lineId: null, kind: 'percent', value: 5000, amountCents: 20495, reason: 'staff meal', by: 'm1', approvedBy: 'm1', at: 4 } }]);
  t.match(afterApproved.when(give('x1', WAITER)), { events: [{ type: 'DiscountGiven', data: { approvedBy: null } }] }, "a manager's discount does not use the waiter's allowance");
});

t.test('an order handed to another waiter is a transfer: a manager\'s call, recorded', async (t) => {
  const g = given(order, [placed, added]);
  const update = (authority: Authority, userId = 'u2') => ({ type: 'updateOrder' as const, userId, tableId: 't1', waiter: 'Bea', status: 'pending' as const, at: 5, authority });
  t.same(g.when(update(WAITER)), { error: { kind: 'forbidden', message: "Needs a manager's approval: order transfer to another waiter" } });
  t.same(g.when(update(approved('end of shift'))), {
    events: [{ type: 'OrderDetailsChanged', data: { userId: 'u2', waiter: 'Bea', transfer: { by: 'u1', approvedBy: 'm1', reason: 'end of shift', fromUserId: 'u1' } } }],
  });
  t.same(g.when({ ...update(WAITER, 'u1'), waiter: 'Pedro' }), { events: [] }, 'another name for the same member is no change');
});
