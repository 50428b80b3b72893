import t from 'tap';
import { billsService } from './bills-helpers.js';

/**
 * A restaurant with an automatic, taxable 10 % service charge for parties of three or more, its Tacos
 * taxed at IVA 16 % with prices including tax (pastor 25.50, suadero 22.00, agua 30.00).
 */
async function service() {
  const s = await billsService({ COMANDA_SERVICE_CHARGE_PERCENT: '10', COMANDA_SERVICE_CHARGE_MIN_PARTY: '3', COMANDA_SERVICE_CHARGE_TAXABLE: 'true' });
  const iva = (await s.admin('POST', '/tax-rates', { name: 'IVA', rate: 16 })).body.id as string;
  if ((await s.admin('PUT', `/categories/${s.r.category}`, { name: 'Tacos', tax_rate_id: iva })).status !== 200) throw new Error('rate');
  const me = async (role: 'manager') => (await s.as(role)('GET', '/auth/me')).body.id as string;
  /** An order with one dish per seat given (null: for the table). */
  const seated = async (table: 't1' | 't2' | 't3' | null, dishes: Array<['pastor' | 'suadero' | 'agua', number | null]>) => {
    const res = await s.waiter('POST', '/orders/with-dishes', {
      order: { user_id: s.waiterId, table_id: table ? s.r.tables[table] : null, waiter: 'Marisol' },
      dishes: dishes.map(([d, seat]) => ({ dish_id: s.r.dishes[d], seat })),
    });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.id as string;
  };
  return { ...s, iva, me, seated };
}

t.test('a party of three gets the automatic charge: on the bill, its tax, the receipt, the payment and the Z report, to the cent', async (t) => {
  const s = await service();
  t.teardown(s.close);
  await s.manager('POST', '/shifts/open', { cash_float: 0 });
  const order = await s.seated('t1', [['pastor', 1], ['suadero', 2], ['agua', 3]]);
  const issued = await s.waiter('POST', `/orders/${order}/tickets`, { split: 'none' });
  t.equal(issued.status, 201);
  const bill = issued.body.tickets[0];
  // 77.50 after discounts; 10 % = 7.75; IVA inside 85.25: 85.25 × 16 / 116 = 11.7586 → 11.76.
  t.same(bill.service_charge, { percent: 10, amount: 7.75, taxable: true, reason: 'party', party_size: 3, set_by: null, credited_to: s.waiterId, removed: null });
  t.same([bill.subtotal, bill.taxes.map((x: { base: number; amount: number }) => [x.base, x.amount]), bill.total, bill.due], [77.5, [[73.49, 11.76]], 85.25, 85.25]);
  const receipt = (await s.waiter('GET', `/tickets/${bill.id}/receipt`)).body as string;
  t.match(receipt, /Service charge 10% \(party of 3\)\s+7\.75/);
  t.match(receipt, /TOTAL\s+85\.25/);

  const paid = await s.waiter('POST', `/tickets/${bill.id}/payments`, { method: 'cash', amount: 85.25, tip: 5, tendered: 100 });
  t.match(paid.body, { payment: { change: 9.75 }, ticket: { status: 2, total: 90.25, paid: 90.25 } }, 'tip and change exact; the charge is not a tip');
  const z = (await s.manager('POST', '/shifts/close', { counted_cash: 90.25 })).body.report;
  t.match(z, { sales: 85.25, tips: 5, service_charge: 7.75, service_charge_by_staff: { [s.waiterId]: 7.75 }, expected_cash: 90.25, difference: 0 });
  t.same(z.taxes_by_rate.map((x: { amount: number }) => x.amount), [11.76]);
  // The order's waiter is the roster name of its user id ('waiter-1' here), whatever name the body sent.
  t.same(Object.keys(z.tips_by_waiter), ['waiter-1'], 'tips stay by name as before; the charge is credited by user id');
});

t.test('set by hand: any percent by anyone who bills; an even split\'s parts share it to the cent; lowering a party\'s is a manager\'s', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const pair = await s.seated('t2', [['pastor', 1], ['suadero', 2]]);
  const none = (await s.waiter('POST', `/orders/${pair}/tickets`, { split: 'none' })).body.tickets[0];
  t.equal(none.service_charge, null, 'a party of two: no automatic charge');
  await s.manager('POST', `/tickets/${none.id}/cancel`, { reason: 'asked for the service charge' });
  // 47.50 × 12.5 % = 5.9375 → 5.94, shared 2.97 and 2.97; the parts ask 26.72 each (53.44 in all).
  const parts = (await s.waiter('POST', `/orders/${pair}/tickets`, { split: 'even', parts: 2, service_charge_percent: 12.5 })).body.tickets;
  t.same(parts.map((p: { service_charge: { amount: number; reason: string; set_by: string } }) => [p.service_charge.amount, p.service_charge.reason, p.service_charge.set_by]), [[2.97, 'staff', s.waiterId], [2.97, 'staff', s.waiterId]]);
  t.same(parts.map((p: { total: number }) => p.total), [26.72, 26.72]);

  for (const bad of [100.01, 12.555, -1, '10']) {
    t.equal((await s.waiter('POST', `/orders/${pair}/tickets`, { split: 'none', service_charge_percent: bad })).status, 400, `percent ${JSON.stringify(bad)}`);
  }
  const party = await s.seated('t3', [['agua', 1], ['agua', 2], ['agua', 3]]);
  const waived = await s.waiter('POST', `/orders/${party}/tickets`, { split: 'none', service_charge_percent: 5 });
  t.same([waived.status, waived.body.message], [403, 'Only a manager lowers or waives the service charge of a party this size (10 %)']);
  const byManager = await s.manager('POST', `/orders/${party}/tickets`, { split: 'none', service_charge_percent: 0 });
  t.equal(byManager.status, 201);
  t.match(byManager.body.tickets[0], { service_charge: { percent: 0, amount: 0, reason: 'staff', set_by: await s.me('manager') }, total: 90 }, 'waived, and who waived it');
});

t.test('a manager takes the charge off a bill still to be paid, with a reason; the bill records who', async (t) => {
  const s = await service();
  t.teardown(s.close);
  const order = await s.seated(null, [['pastor', 1], ['pastor', 2], ['pastor', 3]]);
  const bill = (await s.waiter('POST', `/orders/${order}/tickets`, { split: 'none' })).body.tickets[0];
  t.equal(bill.total, 84.15, '76.50 + 7.65');
  const path = `/tickets/${bill.id}/service-charge/removal`;
  t.equal((await s.waiter('POST', path, { reason: 'slow' })).status, 403, 'not a waiter\'s');
  t.equal((await s.manager('POST', path, {})).status, 400, 'a reason is required');
  t.equal((await s.manager('POST', '/tickets/99999999-9999-4999-8999-999999999999/service-charge/removal', { reason: 'x' })).status, 404);
  const removed = await s.manager('POST', path, { reason: 'slow service' });
  t.equal(removed.status, 200);
  t.match(removed.body, { total: 76.5, due: 76.5, service_charge: { amount: 0, removed: { by: await s.me('manager'), reason: 'slow service', amount: 7.65 } } });
  t.same(removed.body.taxes.map((x: { amount: number }) => x.amount), [10.55], 'its tax went with it: 76.50 × 16 / 116 = 10.5517');
  t.equal((await s.manager('POST', path, { reason: 'again' })).status, 409, 'nothing left to take off');
  t.notMatch((await s.waiter('GET', `/tickets/${bill.id}/receipt`)).body, /Service charge/);
  const paid = await s.waiter('POST', `/tickets/${bill.id}/payments`, { method: 'credit_card', amount: 76.5 });
  t.match(paid.body, { ticket: { status: 2 } });
  const manager = await s.me('manager');
  let trail = await s.manager('GET', '/audit?kind=service_charge_removed');
  for (const until = Date.now() + 5000; Date.now() < until && trail.body.count < 1;) trail = await s.manager('GET', '/audit?kind=service_charge_removed');
  t.match(trail.body.entries, [{ kind: 'service_charge_removed', staff_id: manager, approved_by_id: manager, reason: 'slow service', amount: 7.65, ticket_id: bill.id }], 'on the audit trail');
});

t.test('a void and a refund after payment take their share of the charge and of its tax back from the Z report', async (t) => {
  const s = await service();
  t.teardown(s.close);
  await s.manager('POST', '/shifts/open', { cash_float: 0 });
  const order = await s.seated('t1', [['pastor', 1], ['suadero', 2], ['agua', 3]]);
  const bill = (await s.waiter('POST', `/orders/${order}/tickets`, { split: 'none' })).body.tickets[0];
  const paid = await s.waiter('POST', `/tickets/${bill.id}/payments`, { method: 'credit_card', amount: 85.25 });
  const paymentId = paid.body.payment.id as string;
  // The agua voided after payment: 30.00 and its 3.00 of charge back; the charge on 47.50 is 4.75, the bill 52.25.
  const agua = bill.lines.find((l: { dish_id: string }) => l.dish_id === s.r.dishes.agua).id as string;
  const voided = await s.manager('POST', `/tickets/${bill.id}/voids`, { line_id: agua, reason: 'spilt', payment_id: paymentId });
  t.ok(voided.status < 300, JSON.stringify(voided.body));
  t.match((await s.waiter('GET', `/tickets/${bill.id}`)).body, { total: 52.25, service_charge: { amount: 4.75 } });
  // A fifth of what is left refunded (10.45): 4.75 × 4/5 = 3.80 of the charge kept.
  const refunded = await s.manager('POST', `/tickets/${bill.id}/refunds`, { payment_id: paymentId, amount: 10.45, reason: 'cold' });
  t.ok(refunded.status < 300, JSON.stringify(refunded.body));
  const z = (await s.manager('POST', '/shifts/close', { counted_cash: 0 })).body.report;
  t.match(z, { sales: 85.25, refunds: 43.45, service_charge: 3.8, service_charge_by_staff: { [s.waiterId]: 3.8 } });
  // IVA on the 52.25 that stands (its charge taxable): 7.2069 → 7.21; four fifths kept: 5.768 → 5.77.
  t.same(z.taxes_by_rate.map((x: { amount: number }) => x.amount), [5.77]);
});
