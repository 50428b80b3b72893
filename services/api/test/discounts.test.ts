import t from 'tap';
import { billsService } from './bills-helpers.js';

const UNKNOWN = '99999999-9999-4999-8999-999999999999';

t.test('discounts and comps: the waiter\'s limit, a manager\'s comp, never below zero, 409 on billed lines', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const o = await s.orderWith(['pastor', 'agua', 'suadero']); // 25.50 + 30 + 22 = 77.50
  const post = (as: typeof s.waiter, body: object) => as('POST', `/orders/${o.id}/discounts`, body);
  t.equal((await s.kitchen('POST', `/orders/${o.id}/discounts`, { kind: 'percent', value: 5, reason: 'x' })).status, 403, 'the kitchen gives none');
  t.equal((await post(s.waiter, { kind: 'percent', value: 11, reason: 'regular' })).status, 403, 'over 10 %: a manager\'s call');
  t.equal((await post(s.waiter, { kind: 'amount', value: 7.76, reason: 'regular' })).status, 403, 'by amount too: 7.76 is over 10 % of 77.50');
  for (const bad of [{ kind: 'percent', value: 0, reason: 'x' }, { kind: 'percent', value: 101, reason: 'x' }, { kind: 'amount', value: 1.001, reason: 'x' }, { kind: 'percent', value: 5, reason: '' },
    { kind: 'percent', value: 5, reason: 'x'.repeat(201) }, { kind: 'percent', value: 5 }, { kind: 'half', value: 5, reason: 'x' }, { line_id: UNKNOWN, kind: 'percent', value: 5, reason: 'x' }]) {
    t.equal((await post(s.manager, bad)).status, 400, JSON.stringify(bad));
  }
  t.equal((await post(s.manager, { line_id: o.lines[0], kind: 'amount', value: 25.51, reason: 'x' })).status, 400, 'never below zero');
  const tenPercent = await post(s.waiter, { kind: 'percent', value: 10, reason: 'regular' });
  t.equal(tenPercent.status, 201);
  const comp = await post(s.manager, { line_id: o.lines[1], kind: 'percent', value: 100, reason: 'comp: spilt on the guest' });
  t.equal(comp.status, 201);
  const order = (await s.waiter('GET', `/orders/${o.id}`)).body;
  t.equal(order.total, 77.5 - 7.75 - 30);
  t.same(order.discounts.map((d: { kind: string; value: number; amount: number; comp: boolean; line_id: string | null }) => [d.line_id, d.kind, d.value, d.amount, d.comp]), [
    [null, 'percent', 10, 7.75, false], [o.lines[1], 'percent', 100, 30, true],
  ]);
  const lines = (await s.waiter('GET', `/orders/${o.id}/dishes`)).body as Array<{ discount: number; line_total: number }>;
  // The 7.75 is spread over what the lines come to after their own discounts (25.50, 0 for the comp,
  // 22): 4.16 and 3.59 (3.5895… takes the cent left by largest remainder).
  t.same(lines.map((l) => [l.discount, l.line_total]), [[4.16, 21.34], [30, 0], [3.59, 18.41]]);
  t.equal(Math.round(lines.reduce((sum, l) => sum + l.line_total * 100, 0)), Math.round(order.total * 100), 'the lines add up to the total');
  t.ok(lines.every((l) => l.line_total >= 0), 'no line below zero');

  const bill = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' })).body.tickets[0];
  t.equal(bill.subtotal, order.total, 'the bill asks what the order owes');
  t.equal((await post(s.manager, { line_id: o.lines[0], kind: 'percent', value: 5, reason: 'late' })).status, 409, 'a billed line: cancel the ticket first');
  t.equal((await s.manager('DELETE', `/orders/${o.id}/discounts/${tenPercent.body.id}`)).status, 409);
  t.match(await s.waiter('POST', `/tickets/${bill.id}/payments`, { method: 'credit_card', amount: bill.total }), { status: 201 });
  t.equal((await post(s.manager, { kind: 'percent', value: 5, reason: 'late' })).status, 409, 'a paid ticket: 409 too');
  const receipt = (await s.waiter('GET', `/tickets/${bill.id}/receipt`)).body as string;
  t.match(receipt, /Discount\s+-30\.00/);
});

t.test('taking a discount off; a line with a discount keeps its price and quantity', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  const o = await s.orderWith(['pastor']);
  const given = await s.waiter('POST', `/orders/${o.id}/discounts`, { line_id: o.lines[0], kind: 'amount', value: 2.5, reason: 'regular' });
  t.equal((await s.waiter('PUT', `/orders/${o.id}/dishes/${o.lines[0]}`, { quantity: 2 })).status, 409);
  t.equal((await s.waiter('DELETE', `/orders/${o.id}/discounts/${UNKNOWN}`)).status, 400);
  t.equal((await s.waiter('DELETE', `/orders/${o.id}/discounts/${given.body.id}`)).status, 200);
  t.equal((await s.waiter('GET', `/orders/${o.id}`)).body.total, 25.5);
  t.same((await s.waiter('GET', `/orders/${o.id}`)).body.discounts, []);
  t.equal((await s.waiter('PUT', `/orders/${o.id}/dishes/${o.lines[0]}`, { quantity: 2 })).status, 200);
});
