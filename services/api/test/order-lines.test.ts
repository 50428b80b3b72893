import t from 'tap';
import { billsService } from './bills-helpers.js';

/** Quantities, courses and seats on order lines, over HTTP (pastor 25.50, suadero 22.00, agua 30.00). */
async function service() {
  const s = await billsService();
  const order = async () => {
    const res = await s.waiter('POST', '/orders', { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'Marisol' });
    return res.body.id as string;
  };
  return { ...s, order };
}

t.test('a line carries a quantity; line_total and the order total count it', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const id = await s.order();
  const added = await s.manager('POST', `/orders/${id}/dishes`, [
    { dish_id: s.r.dishes.pastor, quantity: 2 },
    { dish_id: s.r.dishes.agua, quantity: 3, course: 2, seat: 4, price_at_order: 10.1 },
    { dish_id: s.r.dishes.suadero },
  ]);
  t.equal(added.status, 201);
  const lines = (await s.waiter('GET', `/orders/${id}/dishes`)).body;
  t.same(lines.map((l: Record<string, unknown>) => [l.price_at_order, l.quantity, l.course, l.seat, l.line_total]), [
    [25.5, 2, 1, null, 51], [10.1, 3, 2, 4, 30.3], [22, 1, 1, null, 22],
  ]);
  t.equal((await s.waiter('GET', `/orders/${id}`)).body.total, 103.3, '51 + 30.30 + 22, exact to the cent');
  t.equal((await s.waiter('PUT', `/orders/${id}/calculate-total`)).body.total, 103.3, 'the decider sums the same way');
  const most = await s.waiter('POST', `/orders/${id}/dishes`, [{ dish_id: s.r.dishes.pastor, quantity: 99 }]);
  t.equal(most.status, 201, '99 is the most');
  t.equal((await s.waiter('GET', `/orders/${id}`)).body.total, 103.3 + 2524.5);
});

t.test('out of range: 400 naming the field, nothing written', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const id = await s.order();
  for (const [field, value] of [['quantity', 0], ['quantity', 100], ['quantity', 1.5], ['quantity', '2'], ['course', 0], ['course', 10], ['seat', 0], ['seat', 100]] as const) {
    const res = await s.waiter('POST', `/orders/${id}/dishes`, [{ dish_id: s.r.dishes.pastor, [field]: value }]);
    t.equal(res.status, 400, `${field} ${JSON.stringify(value)}`);
    t.match(JSON.stringify(res.body), field);
  }
  t.equal((await s.waiter('GET', `/orders/${id}`)).body.total, 0);
  const placed = await s.waiter('POST', '/orders/with-dishes', { order: { user_id: s.waiterId, table_id: null, waiter: 'M' }, dishes: [{ dish_id: s.r.dishes.agua, quantity: 2, seat: null }] });
  t.equal(placed.status, 201);
  t.equal((await s.waiter('GET', `/orders/${placed.body.id}`)).body.total, 60);
  t.equal((await s.waiter('POST', '/orders/with-dishes', { order: { user_id: s.waiterId, table_id: null, waiter: 'M' }, dishes: [{ dish_id: s.r.dishes.agua, quantity: -1 }] })).status, 400);
});

t.test('a seed request without the new fields answers as today, plus the defaults', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const id = await s.order();
  await s.waiter('POST', `/orders/${id}/dishes`, [{ dish_id: s.r.dishes.pastor, price_at_order: 25.5, notes: 'sin cebolla' }]);
  const [line] = (await s.waiter('GET', `/orders/${id}/dishes`)).body;
  t.match(line, { dish_id: s.r.dishes.pastor, price_at_order: 25.5, notes: 'sin cebolla', kitchen_status: 'pending', quantity: 1, course: 1, seat: null, line_total: 25.5 });
  t.equal((await s.waiter('GET', `/orders/${id}`)).body.total, 25.5);
});

t.test('PUT changes quantity, course and seat until the line is fired; then 409', async (t) => {
  const s = await service();
  t.teardown(s.close);
  await s.admin('POST', '/stations', { name: 'Grill' });
  const id = await s.order();
  const [lineId] = (await s.waiter('POST', `/orders/${id}/dishes`, [{ dish_id: s.r.dishes.pastor }])).body.ids;
  t.equal((await s.waiter('PUT', `/orders/${id}/dishes/${lineId}`, { quantity: 4, seat: 2 })).status, 200);
  t.match((await s.waiter('GET', `/orders/${id}/dishes`)).body[0], { quantity: 4, seat: 2, line_total: 102 });
  t.equal((await s.waiter('PUT', `/orders/${id}/dishes/${lineId}`, { quantity: 0 })).status, 400);
  t.equal((await s.waiter('POST', `/orders/${id}/fire`)).status, 200);
  const late = await s.waiter('PUT', `/orders/${id}/dishes/${lineId}`, { quantity: 5 });
  t.equal(late.status, 409);
  t.match(late.body.message, /kitchen already has this line/);
  t.equal((await s.waiter('PUT', `/orders/${id}/dishes/${lineId}`, { notes: 'bien dorado' })).status, 200, 'notes still change');
});

t.test('tickets and receipts carry quantities; a split and a void count them', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const id = await s.order();
  await s.waiter('POST', `/orders/${id}/dishes`, [{ dish_id: s.r.dishes.pastor, quantity: 2 }, { dish_id: s.r.dishes.agua }]);
  const issued = await s.waiter('POST', `/orders/${id}/tickets`, { split: 'none' });
  t.equal(issued.status, 201);
  const ticket = (await s.waiter('GET', `/tickets/${issued.body.ids[0]}`)).body;
  t.equal(ticket.subtotal, 81);
  t.same(ticket.lines.map((l: Record<string, unknown>) => [l.price, l.quantity, l.line_total]), [[25.5, 2, 51], [30, 1, 30]]);
  const receipt = await s.waiter('GET', `/tickets/${ticket.id}/receipt`);
  t.match(receipt.body, /2 x Taco al pastor\s+51\.00/);
  const pastorLine = ticket.lines[0].id;
  const voided = await s.manager('POST', `/tickets/${ticket.id}/voids`, { line_id: pastorLine, reason: 'cold' });
  t.ok(voided.status < 300, JSON.stringify(voided.body));
  t.equal((await s.waiter('GET', `/tickets/${ticket.id}`)).body.subtotal, 30, 'the void takes both portions off');
});

t.test('a split by seats: each bill and its receipt say the seat it is for, the table\'s shared lines say so', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const id = await s.order();
  await s.waiter('POST', `/orders/${id}/dishes`, [
    { dish_id: s.r.dishes.pastor, seat: 2 }, { dish_id: s.r.dishes.agua }, { dish_id: s.r.dishes.suadero, seat: 1 },
  ]);
  const issued = await s.waiter('POST', `/orders/${id}/tickets`, { split: 'seats' });
  t.equal(issued.status, 201);
  const bills = await Promise.all(issued.body.ids.map(async (b: string) => (await s.waiter('GET', `/tickets/${b}`)).body));
  t.same(bills.map((b) => [b.seat, b.bill_for, b.subtotal]), [[1, 'Seat 1', 22], [2, 'Seat 2', 25.5], [null, 'Table (shared)', 30]]);
  const listed = (await s.waiter('GET', `/orders/${id}/tickets`)).body;
  t.same(listed.map((b: { bill_for: string }) => b.bill_for).sort(), ['Seat 1', 'Seat 2', 'Table (shared)'], 'the list says it too');
  const receipt = (await s.waiter('GET', `/tickets/${bills[1].id}/receipt`)).body as string;
  t.match(receipt, /^Seat 2$/m);
  t.match((await s.waiter('GET', `/tickets/${bills[2].id}/receipt`)).body, /^Table \(shared\)$/m);
  const html = await s.waiter('GET', `/tickets/${bills[0].id}/receipt`, undefined, { accept: 'text/html' });
  t.match(html.body, /<p>Seat 1<\/p>/);

  const other = (await s.waiter('POST', '/orders', { user_id: s.waiterId, table_id: s.r.tables.t2, waiter: 'Marisol' })).body.id as string;
  await s.waiter('POST', `/orders/${other}/dishes`, [{ dish_id: s.r.dishes.pastor, seat: 2 }]);
  const whole = (await s.waiter('GET', `/tickets/${(await s.waiter('POST', `/orders/${other}/tickets`, { split: 'none' })).body.ids[0]}`)).body;
  t.same([whole.seat, whole.bill_for], [null, null], 'a bill not split by seats names no seat');
  t.notMatch((await s.waiter('GET', `/tickets/${whole.id}/receipt`)).body, /Seat 2/);
});
