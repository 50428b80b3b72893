import t from 'tap';
import { billsService } from './bills-helpers.js';

const UNKNOWN = '99999999-9999-4999-8999-999999999999';

/** A restaurant whose Tacos category is taxed at IVA 16 % and whose agua overrides it with 8 %. */
async function taxed(env: Record<string, string> = {}) {
  const s = await billsService(env);
  const iva = (await s.admin('POST', '/tax-rates', { name: 'IVA', rate: 16 })).body.id as string;
  const reduced = (await s.admin('POST', '/tax-rates', { name: 'Reduced', rate: 8 })).body.id as string;
  const ok = (res: { status: number }) => { if (res.status !== 200) throw new Error(`setting up the rates: ${res.status}`); };
  ok(await s.admin('PUT', `/categories/${s.r.category}`, { name: 'Tacos', tax_rate_id: iva }));
  ok(await s.admin('PUT', `/dishes/${s.r.dishes.agua}`, { name: 'Agua de jamaica', price: 30, category_id: s.r.category, tax_rate_id: reduced }));
  return { ...s, iva, reduced };
}

t.test('tax rates: managers and admins write, every role reads; rate 0–100 with four decimals; 409 while in use', async (t) => {
  const s = await billsService();
  t.teardown(s.close);
  t.equal((await s.waiter('POST', '/tax-rates', { name: 'IVA', rate: 16 })).status, 403);
  t.equal((await s.waiter('GET', '/tax-rates')).status, 204);
  const created = await s.manager('POST', '/tax-rates', { name: 'IVA', rate: 16.5 });
  t.match(created, { status: 201, body: { id: /^[0-9a-f-]{36}$/, message: 'Tax rate added successfully' } });
  const id = created.body.id as string;
  t.same((await s.kitchen('GET', '/tax-rates')).body, [{ id, name: 'IVA', rate: 16.5 }]);
  for (const rate of [-1, 100.01, 16.55555, '16']) t.equal((await s.admin('POST', '/tax-rates', { name: 'X', rate })).status, 400, `rate ${JSON.stringify(rate)}`);
  t.equal((await s.admin('POST', '/tax-rates', { name: 'iva', rate: 1 })).status, 409);
  t.equal((await s.admin('PUT', `/tax-rates/${id}`, { name: 'IVA', rate: 16 }, { 'if-match': '"1"' })).status, 200);
  t.same((await s.waiter('GET', `/tax-rates/${id}`)).body, { id, name: 'IVA', rate: 16 });
  t.equal((await s.admin('PUT', `/tax-rates/${UNKNOWN}`, { name: 'IVA', rate: 16 })).status, 404);
  t.equal((await s.admin('POST', '/categories', { name: 'Bebidas', tax_rate_id: UNKNOWN })).status, 400);
  const drinks = (await s.admin('POST', '/categories', { name: 'Bebidas', tax_rate_id: id })).body.id as string;
  t.match((await s.waiter('GET', `/categories/${drinks}`)).body, { tax_rate_id: id });
  t.equal((await s.admin('POST', '/dishes', { name: 'X', price: 1, category_id: drinks, tax_rate_id: UNKNOWN })).status, 400);
  const inUse = await s.admin('DELETE', `/tax-rates/${id}`);
  t.same([inUse.status, inUse.body.category_count, inUse.body.dish_count], [409, 1, 0]);
  t.equal((await s.admin('PUT', `/categories/${drinks}`, { name: 'Bebidas', tax_rate_id: null })).status, 200);
  t.equal((await s.admin('DELETE', `/tax-rates/${id}`)).status, 204);
  t.equal((await s.admin('DELETE', `/tax-rates/${id}`)).status, 404);
});

t.test('prices include tax (the default): the bill shows each rate inside its total; the order total is unchanged', async (t) => {
  const s = await taxed();
  t.teardown(s.close);
  const o = await s.orderWith(['pastor', 'pastor', 'agua']);
  const bill = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' })).body.ids[0];
  const ticket = (await s.waiter('GET', `/tickets/${bill}`)).body;
  // IVA: 51.00 × 16 / 116 = 7.034… → 7.03; Reduced: 30 × 8 / 108 = 2.222… → 2.22.
  t.match(ticket, { subtotal: 81, total: 81, due: 81 });
  t.same(ticket.taxes, [
    { tax_rate_id: s.reduced, name: 'Reduced', rate: 8, base: 27.78, amount: 2.22 },
    { tax_rate_id: s.iva, name: 'IVA', rate: 16, base: 43.97, amount: 7.03 },
  ]);
  t.equal((await s.waiter('GET', `/orders/${o.id}`)).body.total, 81);
  const receipt = (await s.waiter('GET', `/tickets/${bill}/receipt`)).body as string;
  t.match(receipt, /IVA 16% incl\.\s+7\.03/);
  // A rate changed afterwards does not change an issued bill.
  await s.admin('PUT', `/tax-rates/${s.iva}`, { name: 'IVA', rate: 20 });
  t.same((await s.waiter('GET', `/tickets/${bill}`)).body.taxes[1], { tax_rate_id: s.iva, name: 'IVA', rate: 16, base: 43.97, amount: 7.03 });
});

t.test('prices exclude tax: taxes are added; an even split and a void stay exact to the cent', async (t) => {
  const s = await taxed({ COMANDA_PRICES_INCLUDE_TAX: 'false' });
  t.teardown(s.close);
  const o = await s.orderWith(['pastor', 'suadero', 'agua']);
  const whole = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' })).body.ids[0];
  const ticket = (await s.waiter('GET', `/tickets/${whole}`)).body;
  // IVA net 47.50 × 16 % = 7.60; Reduced 30 × 8 % = 2.40.
  t.match(ticket, { subtotal: 77.5, total: 87.5, due: 87.5 });
  t.same(ticket.taxes.map((x: { amount: number; base: number }) => [x.base, x.amount]), [[30, 2.4], [47.5, 7.6]]);
  const voided = await s.manager('POST', `/tickets/${whole}/voids`, { line_id: o.lines[2], reason: 'spilt' });
  t.ok(voided.status < 300, JSON.stringify(voided.body));
  const after = (await s.waiter('GET', `/tickets/${whole}`)).body;
  t.match(after, { subtotal: 47.5, total: 55.1, due: 55.1 }, 'the agua leaves with its 2.40 tax');
  t.match(after.voids, [{ amount: 32.4 }]);
  const cancelled = await s.manager('POST', `/tickets/${whole}/cancel`, { reason: 'split instead' });
  t.ok(cancelled.status < 300, JSON.stringify(cancelled.body));

  const parts = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'even', parts: 3 })).body.ids as string[];
  const shares = await Promise.all(parts.map(async (id) => (await s.waiter('GET', `/tickets/${id}`)).body));
  const cents = (n: number) => Math.round(n * 100);
  t.equal(shares.reduce((sum, x) => sum + cents(x.total), 0), 8750, 'Σ ticket totals = what the order owes with taxes');
  for (const x of shares) {
    t.equal(cents(x.total), cents(x.subtotal) + x.taxes.reduce((sum: number, y: { amount: number }) => sum + cents(y.amount), 0));
  }
  const totals = shares.map((x) => cents(x.total));
  t.ok(Math.max(...totals) - Math.min(...totals) <= 2, `shares close: ${totals}`);
});

t.test('the Z report shows the tax in the shift\'s sales by rate, to the cent, however the bill was paid', async (t) => {
  const s = await taxed();
  t.teardown(s.close);
  t.equal((await s.manager('POST', '/shifts/open', { cash_float: 100 })).status, 201);
  const o = await s.orderWith(['pastor', 'pastor', 'agua']);
  const bill = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' })).body.ids[0];
  for (const amount of [30, 20, 31]) t.ok((await s.waiter('POST', `/tickets/${bill}/payments`, { method: 'cash', amount, tendered: amount })).status < 300);
  const closed = await s.manager('POST', '/shifts/close', { counted_cash: 181 });
  t.equal(closed.status, 200);
  t.same(closed.body.report.taxes_by_rate, [
    { tax_rate_id: s.reduced, name: 'Reduced', rate: 8, amount: 2.22 },
    { tax_rate_id: s.iva, name: 'IVA', rate: 16, amount: 7.03 },
  ], 'the bill\'s taxes, carried by its three payments');
  t.equal(closed.body.report.sales, 81);
});

t.test('issue 57: a rate with up to four decimals (New York City 8.875 %) taxes a bill exactly; five decimals are refused', async (t) => {
  const s = await taxed({ COMANDA_PRICES_INCLUDE_TAX: 'false' });
  t.teardown(s.close);
  const nyc = await s.admin('POST', '/tax-rates', { name: 'NYC', rate: 8.875 });
  t.equal(nyc.status, 201, JSON.stringify(nyc.body));
  t.same((await s.waiter('GET', `/tax-rates/${nyc.body.id}`)).body, { id: nyc.body.id, name: 'NYC', rate: 8.875 });
  t.equal((await s.admin('PUT', `/tax-rates/${nyc.body.id}`, { name: 'NYC', rate: 12.3456 })).status, 200, 'four decimals');
  t.same((await s.waiter('GET', `/tax-rates/${nyc.body.id}`)).body.rate, 12.3456);
  const tooFine = await s.admin('POST', '/tax-rates', { name: 'Too fine', rate: 8.87501 });
  t.match(tooFine, { status: 400, body: { errors: [{ field: 'rate', message: 'must be a percent from 0 to 100 with at most four decimals' }] } });
  t.equal((await s.admin('PUT', `/tax-rates/${nyc.body.id}`, { name: 'NYC', rate: 8.875 })).status, 200);
  t.equal((await s.admin('PUT', `/dishes/${s.r.dishes.agua}`, { name: 'Agua de jamaica', price: 30, category_id: s.r.category, tax_rate_id: nyc.body.id })).status, 200);
  const o = await s.orderWith(['agua']);
  const bill = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' })).body.ids[0];
  const ticket = (await s.waiter('GET', `/tickets/${bill}`)).body;
  // 30.00 × 8.875 % = 2.6625 → 2.66.
  t.same(ticket.taxes, [{ tax_rate_id: nyc.body.id, name: 'NYC', rate: 8.875, base: 30, amount: 2.66 }]);
  t.match(ticket, { subtotal: 30, total: 32.66 });
  t.match((await s.waiter('GET', `/tickets/${bill}/receipt`)).body as string, /NYC 8\.875%\s+2\.66/);
});

t.test('issue 57: a refund takes its share of tax off the Z report; a void of a paid line takes its line\'s tax off', async (t) => {
  const s = await taxed();
  t.teardown(s.close);
  t.equal((await s.manager('POST', '/shifts/open', { cash_float: 100 })).status, 201);
  const o = await s.orderWith(['pastor', 'pastor', 'agua']);
  const bill = (await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' })).body.ids[0];
  const paid = await s.waiter('POST', `/tickets/${bill}/payments`, { method: 'cash', amount: 81, tendered: 81 });
  t.ok(paid.status < 300, JSON.stringify(paid.body));
  const paymentId = (await s.waiter('GET', `/tickets/${bill}`)).body.payments[0].id as string;
  // The agua (30.00, 2.22 of tax at 8 %) voided and refunded; then half of the 51.00 left refunded.
  const voided = await s.manager('POST', `/tickets/${bill}/voids`, { line_id: o.lines[2], reason: 'spilt', payment_id: paymentId });
  t.ok(voided.status < 300, JSON.stringify(voided.body));
  const refunded = await s.manager('POST', `/tickets/${bill}/refunds`, { payment_id: paymentId, amount: 25.5, reason: 'cold' });
  t.ok(refunded.status < 300, JSON.stringify(refunded.body));
  const closed = await s.manager('POST', '/shifts/close', { counted_cash: 125.5 });
  t.equal(closed.status, 200, JSON.stringify(closed.body));
  // IVA on the 51.00 that stands: 7.03; half of it kept: 3.515 → 3.52.
  t.same(closed.body.report.taxes_by_rate, [{ tax_rate_id: s.iva, name: 'IVA', rate: 16, amount: 3.52 }]);
});
