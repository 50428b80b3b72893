import t from 'tap';
import { atMenuPrice, completeLine, linesBySeat, linesToFire, lineTotal, linesTotal, order, orderTotal, ticket, type OrderEvent, type RecordedLine, type TicketEvent } from '../src/index.js';
import { MANAGER, WAITER, given } from './given.js';

const placed: OrderEvent = { type: 'OrderPlaced', data: { orderId: 'o1', userId: 'u1', tableId: 't1', waiter: 'Ana', placedAt: 1000 } };
/** A line as today's release wrote it: no quantity, course, seat or modifiers. */
const old = (lineId: string, priceCents = 1250): RecordedLine => ({ lineId, dishId: 'd1', priceCents, notes: '' });
const line = (lineId: string, extra: Partial<RecordedLine> = {}): RecordedLine => ({ ...old(lineId), quantity: 1, course: 1, seat: null, modifiers: [], ...extra });
const fired = (lineId: string): OrderEvent => ({
  type: 'OrderLinesFired', data: { firingId: 'f1', at: 5, lines: [{ lineId, firingId: 'f1', dishId: 'd1', stationId: 's1', ticketId: 'k1', dishName: 'Tacos' }] },
});

t.test('a line written before quantities reads as one portion, course 1, no seat, no modifiers', async (t) => {
  const g = given(order, [placed, { type: 'DishesAdded', data: { lines: [old('l1'), old('l2', 800)] } }]);
  t.same(g.state.lines.l1, { lineId: 'l1', dishId: 'd1', priceCents: 1250, notes: '', quantity: 1, course: 1, seat: null, modifiers: [] });
  t.equal(orderTotal(g.state), 2050, 'the same total as today');
  t.same(completeLine(old('x')), line('x'));
});

t.test('a line carries a quantity; its total is (price + modifiers) × quantity', async (t) => {
  const two = line('l1', { quantity: 2, course: 2, seat: 3 });
  t.same(given(order, [placed]).when({ type: 'addDishes', lines: atMenuPrice([two]), authority: WAITER }), { events: [{ type: 'DishesAdded', data: { lines: [two] } }] });
  const g = given(order, [placed, { type: 'DishesAdded', data: { lines: [two, line('l2', { priceCents: 800, quantity: 3 })] } }]);
  t.equal(orderTotal(g.state), 2 * 1250 + 3 * 800);
  const guacamole = { groupId: 'g1', optionId: 'o1', name: 'guacamole', priceDeltaCents: 1500 };
  t.equal(lineTotal(line('l3', { quantity: 2, modifiers: [guacamole] })), 2 * (1250 + 1500));
  t.equal(linesTotal([old('a', 1), line('b', { priceCents: 1, quantity: 99 })]), 100);
});

t.test('quantity, course and seat stay within their ranges: one error per field', async (t) => {
  const g = given(order, [placed]);
  for (const [field, bad] of [['quantity', 0], ['quantity', 100], ['quantity', 1.5], ['course', 0], ['course', 10], ['seat', 0], ['seat', 100], ['seat', 2.5]] as const) {
    t.match(g.when({ type: 'addDishes', lines: atMenuPrice([line('l1', { [field]: bad })]), authority: WAITER }), { error: { kind: 'validation', details: { errors: [{ field: `lines[0].${field}` }] } } }, `${field} ${bad}`);
  }
  t.match(g.when({ type: 'addDishes', lines: atMenuPrice([line('l1', { modifiers: [{ groupId: 'g', optionId: 'o', name: 'x', priceDeltaCents: 1.5 }] })]), authority: WAITER }), { error: { kind: 'validation' } }, 'deltas are whole cents');
  t.match(given(order, []).when({ type: 'placeOrder', orderId: 'o1', userId: 'u1', tableId: null, waiter: 'Ana', at: 1, lines: atMenuPrice([line('l1', { quantity: 0 })]), authority: WAITER }), { error: { kind: 'validation' } });
  t.same(g.when({ type: 'addDishes', lines: atMenuPrice([line('l1', { quantity: 99, course: 9, seat: 99 })]), authority: WAITER }), { events: [{ type: 'DishesAdded', data: { lines: [line('l1', { quantity: 99, course: 9, seat: 99 })] } }] }, 'the bounds themselves');
});

t.test('a modifier may take money off a portion, never below zero: "sin queso −5.00"', async (t) => {
  const g = given(order, [placed]);
  const noCheese = (priceDeltaCents: number) => ({ groupId: 'g', optionId: 'sin-queso', name: 'Sin queso', priceDeltaCents });
  const cheaper = line('l1', { priceCents: 800, quantity: 2, modifiers: [noCheese(-500)] });
  t.same(g.when({ type: 'addDishes', lines: atMenuPrice([cheaper]), authority: WAITER }), { events: [{ type: 'DishesAdded', data: { lines: [cheaper] } }] });
  t.equal(lineTotal(cheaper), 2 * 300);
  const free = line('l2', { priceCents: 500, modifiers: [noCheese(-500)] });
  t.match(g.when({ type: 'addDishes', lines: atMenuPrice([free]), authority: WAITER }), { events: [{ type: 'DishesAdded' }] }, 'down to 0.00 exactly');
  t.same(g.when({ type: 'addDishes', lines: atMenuPrice([line('l3', { priceCents: 400, modifiers: [noCheese(-500)] })]), authority: WAITER }), {
    error: { kind: 'validation', message: 'Validation failed', details: { errors: [{ field: 'lines[0].modifiers', message: 'a portion would come to less than nothing: 4.00 with modifiers of -5.00' }] } },
  });
  const past: OrderEvent[] = [placed, { type: 'DishesAdded', data: { lines: [cheaper] } }];
  t.match(given(order, past).when({ type: 'updateLine', lineId: 'l1', priceCents: 400, authority: MANAGER }), { error: { kind: 'validation', details: { errors: [{ field: 'price_at_order', message: /less than nothing: 4.00 with modifiers of -5.00/ }] } } }, 'a new price below its own modifiers');
  t.match(given(order, past).when({ type: 'updateLine', lineId: 'l1', priceCents: 500, authority: MANAGER }), { events: [{ type: 'OrderLineUpdated' }] });
});

t.test('updating a line: quantity, course and seat change until the kitchen has it', async (t) => {
  const past: OrderEvent[] = [placed, { type: 'DishesAdded', data: { lines: [old('l1')] } }];
  const g = given(order, past);
  t.same(g.when({ type: 'updateLine', lineId: 'l1', quantity: 3, authority: WAITER }), { events: [{ type: 'OrderLineUpdated', data: { lineId: 'l1', priceCents: 1250, notes: '', quantity: 3 } }] });
  t.same(g.when({ type: 'updateLine', lineId: 'l1', quantity: 1, course: 1, seat: null, authority: WAITER }), { events: [] }, 'the defaults of an old line are no change');
  t.same(g.when({ type: 'updateLine', lineId: 'l1', seat: 2, course: 2, authority: WAITER }), { events: [{ type: 'OrderLineUpdated', data: { lineId: 'l1', priceCents: 1250, notes: '', course: 2, seat: 2 } }] });
  t.match(g.when({ type: 'updateLine', lineId: 'l1', quantity: 100, authority: WAITER }), { error: { kind: 'validation', details: { errors: [{ field: 'lines[0].quantity' }] } } });
  const after = given(order, [...past, { type: 'OrderLineUpdated', data: { lineId: 'l1', priceCents: 1000, notes: '', quantity: 3 } }]);
  t.equal(orderTotal(after.state), 3000);
  t.equal(orderTotal(given(order, [...past, { type: 'OrderLineUpdated', data: { lineId: 'l1', priceCents: 1000, notes: 'x' } }]).state), 1000, 'an old update keeps the quantity');
  const sent = given(order, [...past, fired('l1')]);
  t.match(sent.when({ type: 'updateLine', lineId: 'l1', quantity: 2, authority: WAITER }), { error: { kind: 'conflict', message: /kitchen already has this line/ } });
  t.match(sent.when({ type: 'updateLine', lineId: 'l1', notes: 'sin cebolla', authority: WAITER }), { events: [{ type: 'OrderLineUpdated' }] }, 'notes still reach the kitchen');
});

t.test('a ticket voids a line for its whole quantity', async (t) => {
  const issued: TicketEvent = {
    type: 'TicketIssued',
    data: {
      ticketId: 'k1', orderId: 'o1', billId: 'b1', tableId: null, waiter: 'Ana', currencyId: 'mxn', share: null, subtotalCents: 3500, issuedAt: 1, issuedBy: null,
      lines: [line('l1', { quantity: 2 }), old('l2', 1000)],
    },
  };
  t.match(given(ticket, [issued]).when({ type: 'voidLine', lineId: 'l1', reason: 'cold', refundId: 'r', shiftId: null, by: 'm', at: 2 }), {
    events: [{ type: 'TicketLineVoided', data: { lineId: 'l1', amountCents: 2500 } }],
  });
});

t.test('firing by course: only that course\'s unfired lines; a firing says its course', async (t) => {
  const past: OrderEvent[] = [placed, { type: 'DishesAdded', data: { lines: [old('s1'), line('m1', { course: 2 }), line('s2', { course: 1, seat: 2 }), line('d1', { course: 3 })] } }];
  const g = given(order, past);
  t.same(linesToFire(g.state, 1), ['s1', 's2'], 'old lines are starters');
  t.same(linesToFire(g.state, 2), ['m1']);
  t.same(linesToFire(g.state, 9), []);
  t.same(linesToFire(g.state), ['s1', 'm1', 's2', 'd1'], 'no course: every unfired line');
  const firing = (lineIds: string[], course?: number) => ({
    type: 'fireLines' as const, firingId: 'f1', at: 5, ...(course === undefined ? {} : { course }),
    lines: lineIds.map((lineId) => ({ lineId, firingId: 'f1', dishId: 'd1', stationId: 's', ticketId: 'k', dishName: 'Tacos' })),
  });
  t.match(g.when(firing(['s1', 's2'], 1)), { events: [{ type: 'OrderLinesFired', data: { course: 1, lines: [{ lineId: 's1' }, { lineId: 's2' }] } }] });
  t.same(g.when(firing(['s1', 'm1'], 1)), { error: { kind: 'validation', message: 'Validation failed', details: { errors: [{ field: 'course', message: 'line m1 is in course 2, not 1' }] } } });
  t.notOk('course' in (g.when(firing(['m1'])) as { events: Array<{ data: object }> }).events[0]!.data, 'a firing of named lines names no course');
  const startersSent = given(order, [...past, ...(g.when(firing(['s1', 's2'], 1)) as { events: OrderEvent[] }).events]);
  t.same(linesToFire(startersSent.state, 1), [], 'starters are out');
  t.same(linesToFire(startersSent.state), ['m1', 'd1'], 'then the rest');
  t.same(startersSent.when({ ...firing(['s1'], 1), firingId: 'f2' }), { events: [] }, 'a fired line is not fired again');
  t.match(g.when(firing(['zz'], 1)), { error: { kind: 'not_found' } });
});

t.test('a split by seats: one group per seat in seat order, then the lines for the table', async (t) => {
  const l = (lineId: string, seat: number | null) => ({ lineId, seat });
  t.same(linesBySeat([l('a', 2), l('b', null), l('c', 1), l('d', 2), l('e', null)]), [['c'], ['a', 'd'], ['b', 'e']]);
  t.same(linesBySeat([l('a', 3)]), [['a']], 'no table lines: no extra group');
  t.same(linesBySeat([l('a', null)]), [['a']]);
  t.same(linesBySeat([]), []);
});

t.test('a bill of a split by seats records its seat (null: the table\'s shared lines); other bills none', async (t) => {
  const g = given(order, [placed, { type: 'DishesAdded', data: { lines: [line('a', { seat: 2 }), line('b')] } }]);
  const bySeat = g.when({ type: 'billLines', bills: [{ billId: 'b1', ticketIds: ['k1'], lineIds: ['a'], seat: 2 }, { billId: 'b2', ticketIds: ['k2'], lineIds: ['b'], seat: null }] });
  t.same(bySeat, { events: [
    { type: 'OrderBilled', data: { billId: 'b1', ticketIds: ['k1'], lineIds: ['a'], seat: 2 } },
    { type: 'OrderBilled', data: { billId: 'b2', ticketIds: ['k2'], lineIds: ['b'], seat: null } },
  ] });
  const billed = given(order, [placed, { type: 'DishesAdded', data: { lines: [line('a', { seat: 2 }), line('b')] } }, ...(bySeat as { events: OrderEvent[] }).events]);
  t.same([billed.state.billing.bills.b1!.seat, billed.state.billing.bills.b2!.seat], [2, null]);
  t.same(g.when({ type: 'billLines', bills: [{ billId: 'b3', ticketIds: ['k3'], lineIds: ['a', 'b'] }] }), { events: [{ type: 'OrderBilled', data: { billId: 'b3', ticketIds: ['k3'], lineIds: ['a', 'b'] } }] }, 'no seat: the event a whole bill always wrote');
});
