import t from 'tap';
import { billsService } from './bills-helpers.js';

const cents = (n: number) => Math.round(n * 100);

t.test('split by seats: one ticket per seat that has lines, one more for the table; 400 with parts or groups', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const placed = await s.waiter('POST', '/orders/with-dishes', {
    order: { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'Marisol' },
    dishes: [{ dish_id: s.r.dishes.pastor, seat: 2 }, { dish_id: s.r.dishes.agua }, { dish_id: s.r.dishes.suadero, seat: 1, quantity: 2 }, { dish_id: s.r.dishes.agua, seat: 2 }],
  });
  const id = placed.body.id as string;
  t.equal((await s.waiter('POST', `/orders/${id}/tickets`, { split: 'seats', parts: 2 })).status, 400);
  t.equal((await s.waiter('POST', `/orders/${id}/tickets`, { split: 'seats', groups: [[id]] })).status, 400);
  const issued = await s.waiter('POST', `/orders/${id}/tickets`, { split: 'seats' });
  t.equal(issued.status, 201);
  t.same(issued.body.tickets.map((k: { subtotal: number; lines: unknown[] }) => [k.subtotal, k.lines.length]), [[44, 1], [55.5, 2], [30, 1]], 'seat 1, seat 2, the table');
  t.equal((await s.waiter('POST', `/orders/${id}/tickets`, { split: 'seats' })).status, 409, 'nothing left to bill');
  const seatsOnly = await s.orderWith(['pastor'], 't2');
  t.equal((await s.waiter('POST', `/orders/${seatsOnly.id}/tickets`, { split: 'seats' })).body.ids.length, 1, 'no seats: one ticket for the table');
});

t.test('a dinner: starters fired, then mains; a comp by a manager, a waiter\'s 10 %; split by seat with taxes; paid; the Z report adds up to the cent', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  await s.admin('POST', '/stations', { name: 'Grill' });
  const iva = (await s.admin('POST', '/tax-rates', { name: 'IVA', rate: 16 })).body.id;
  await s.admin('PUT', `/categories/${s.r.category}`, { name: 'Tacos', tax_rate_id: iva });
  t.equal((await s.manager('POST', '/shifts/open', { cash_float: 200 })).status, 201);
  const placed = await s.waiter('POST', '/orders/with-dishes', {
    order: { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'Marisol' },
    dishes: [
      { dish_id: s.r.dishes.agua, quantity: 2, course: 1 },
      { dish_id: s.r.dishes.pastor, quantity: 3, course: 2, seat: 1 },
      { dish_id: s.r.dishes.suadero, quantity: 2, course: 2, seat: 2 },
    ],
  });
  const id = placed.body.id as string;
  const number = (await s.waiter('GET', `/orders/${id}`)).body.number;
  t.equal(number, 1);
  t.equal((await s.waiter('POST', `/orders/${id}/fire`, { course: 1 })).body.tickets.length, 1, 'starters');
  t.match((await s.kitchen('GET', '/kitchen/tickets')).body, [{ order_number: 1, lines: [{ quantity: 2, course: 1 }] }]);
  t.equal((await s.waiter('POST', `/orders/${id}/fire`, { course: 2 })).body.tickets[0].line_ids.length, 2, 'then mains');
  t.equal((await s.waiter('GET', `/orders/${id}`)).body.total, 60 + 76.5 + 44);
  const lines = (await s.waiter('GET', `/orders/${id}/dishes`)).body as Array<{ id: string }>;
  t.equal((await s.manager('POST', `/orders/${id}/discounts`, { line_id: lines[2]!.id, kind: 'percent', value: 100, reason: 'comp: the suadero was late' })).status, 201, 'a comp by a manager');
  t.equal((await s.waiter('POST', `/orders/${id}/discounts`, { kind: 'percent', value: 10, reason: 'regulars' })).status, 201, "a waiter's 10 %");
  const total = (await s.waiter('GET', `/orders/${id}`)).body.total;
  t.equal(total, 122.85, 'the suadero comped, then 10 % of the 136.50 left: 13.65 off');
  const bills = (await s.waiter('POST', `/orders/${id}/tickets`, { split: 'seats' })).body.tickets as Array<{ id: string; total: number; taxes: Array<{ amount: number }> }>;
  t.same(bills.map((b) => b.total), [68.85, 0, 54]);
  t.equal(bills.reduce((sum, b) => sum + cents(b.total), 0), cents(total), 'Σ ticket totals = what the order owes');
  const taxes = bills.reduce((sum, b) => sum + b.taxes.reduce((x, y) => x + cents(y.amount), 0), 0);
  t.same(bills.map((b) => b.taxes.map((x) => x.amount)), [[9.5], [0], [7.45]], 'the comped seat: no tax to pay');
  t.match((await s.waiter('GET', `/tickets/${bills[1]!.id}`)).body, { status: 2, status_name: 'paid', payments: [] }, 'the comped seat owes nothing: issued settled');
  for (const [i, b] of bills.entries()) {
    if (b.total === 0) continue;
    const method = i === 0 ? 'cash' : 'credit_card';
    const paid = await s.waiter('POST', `/tickets/${b.id}/payments`, { method, amount: b.total, ...(method === 'cash' ? { tendered: b.total } : {}) });
    t.equal(paid.status, 201);
  }
  t.equal((await s.waiter('GET', `/tables/${s.r.tables.t1}`)).body.status, 'occupied');
  await s.finish(id, s.r.tables.t1);
  const z = (await s.manager('POST', '/shifts/close', { counted_cash: 268.85 })).body.report; // the float and the cash seat
  t.equal(cents(z.sales), cents(total));
  t.equal(z.taxes_by_rate.reduce((sum: number, x: { amount: number }) => sum + cents(x.amount), 0), taxes, 'the Z report carries every bill\'s tax');
  t.same(z.taxes_by_rate.map((x: { name: string; amount: number }) => [x.name, x.amount]), [['IVA', 16.95]], 'per bill, rounded once each: 68.85 × 16 / 116 = 9.4965… → 9.50, 54 × 16 / 116 = 7.448… → 7.45');
  t.equal(z.difference, 0);
});

t.test('a seat whose lines are all comped: its 0.00 bill is issued settled, nothing pending, the order completes', async (t) => {
  const s = await billsService({ COMANDA_COMPLETE_REQUIRES_PAYMENT: 'true' });
  t.teardown(s.close);
  t.equal((await s.manager('POST', '/shifts/open', { cash_float: 0 })).status, 201);
  const placed = await s.waiter('POST', '/orders/with-dishes', {
    order: { user_id: s.waiterId, table_id: s.r.tables.t1, waiter: 'Marisol' },
    dishes: [{ dish_id: s.r.dishes.agua, seat: 1 }, { dish_id: s.r.dishes.suadero, seat: 2, quantity: 2 }],
  });
  const id = placed.body.id as string;
  const lines = (await s.waiter('GET', `/orders/${id}/dishes`)).body as Array<{ id: string }>;
  t.equal((await s.manager('POST', `/orders/${id}/discounts`, { line_id: lines[1]!.id, kind: 'percent', value: 100, reason: 'comp: birthday' })).status, 201);
  const bills = (await s.waiter('POST', `/orders/${id}/tickets`, { split: 'seats' })).body.tickets as Array<{ id: string; total: number; status: number }>;
  t.same(bills.map((b) => [b.total, b.status]), [[30, 1], [0, 2]], 'seat 1 to pay, seat 2 settled at issue');
  t.same((await s.waiter('GET', '/tickets?status=1')).body.map((x: { id: string }) => x.id), [bills[0]!.id], 'no 0.00 left pending');
  t.equal((await s.waiter('POST', `/tickets/${bills[1]!.id}/payments`, { method: 'cash', amount: 0.01 })).status, 409, 'nothing to pay on it');
  t.equal((await s.finish(id, s.r.tables.t1)).status, 409, 'seat 1 still owes');
  t.equal((await s.waiter('POST', `/tickets/${bills[0]!.id}/payments`, { method: 'cash', amount: 30 })).status, 201);
  t.equal((await s.finish(id, s.r.tables.t1)).status, 200, 'every line on a paid ticket: completed');
  const z = (await s.manager('POST', '/shifts/close', { counted_cash: 30 })).body.report;
  t.match(z, { sales: 30, open: 0, difference: 0 }, 'the comp took no payment and leaves nothing open');
  t.equal(z.by_method.cash.count, 1, 'one payment: the settled bill records none');
});
