import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../src/http-client.js';
import { startStandalone } from '../src/standalone-process.js';

/**
 * Issue 44's end-to-end dinner against a real standalone process over the network (the same story as
 * services/api/test/dinner.test.ts through `app.inject`): every figure the Z report shows is worked
 * out here from the menu prices and the issue's rules, so a cent lost anywhere between the order, its
 * bills and the shift shows.
 */
type Tax = { tax_rate_id: string; name: string; rate: number; base: number; amount: number };
type Bill = { id: string; subtotal: number; total: number; status: number; status_name: string; taxes: Tax[]; lines: Array<{ lineId?: string; id?: string }> };

const cents = (n: number) => Math.round(n * 100);
const roundHalfUp = (p: number, q: number) => Math.floor((2 * p + q) / (2 * q));

t.test('a dinner over real HTTP: starters, then mains, a comp, a waiter\'s 10 %, split by seat, paid in cash; the Z report adds up to the cent', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-dinner-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', COMANDA_COMPLETE_REQUIRES_PAYMENT: 'true' });
  t.teardown(() => pos.stop());
  const ok = <T = Record<string, unknown> & { id: string }>(res: { status: number; body: unknown }, status: number, what: string) => {
    if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as T;
  };
  const admin = new Client(pos.url);
  await admin.login('admin', '1234');
  const waiterId = ok(await admin.post('/users', { name: 'Marisol', pin: '2580', role: 'waiter' }), 201, 'waiter').id;
  ok(await admin.post('/users', { name: 'Lupita', pin: '1357', role: 'manager' }), 201, 'manager');
  const manager = new Client(pos.url);
  await manager.login('lupita', '1357');
  const waiter = new Client(pos.url);
  await waiter.login('marisol', '2580');

  // The menu: IVA 16 % on the dishes, 8 % on the drinks (prices include tax, the default), a modifier group.
  const iva = ok(await admin.post('/tax-rates', { name: 'IVA', rate: 16 }), 201, 'IVA').id;
  const reduced = ok(await admin.post('/tax-rates', { name: 'Bebidas', rate: 8 }), 201, 'reduced').id;
  const station = ok(await admin.post('/stations', { name: 'Cocina' }), 201, 'station').id;
  const platos = ok(await admin.post('/categories', { name: 'Platos', station_id: station, tax_rate_id: iva }), 201, 'platos').id;
  const bebidas = ok(await admin.post('/categories', { name: 'Bebidas', station_id: station, tax_rate_id: reduced }), 201, 'bebidas').id;
  const extras = ok<{ id: string; option_ids: string[] }>(await manager.post('/modifier-groups', {
    name: 'Extras', min_choices: 0, max_choices: 2, options: [{ name: 'Arroz', price_delta: 25 }, { name: 'Tortillas a mano', price_delta: 12.5 }],
  }), 201, 'modifier group');
  const [arroz, tortillas] = extras.option_ids as [string, string];
  const dish = async (name: string, price: number, category: string, more: Record<string, unknown> = {}) =>
    (await manager.post('/dishes', { name, price, category_id: category, ...more })).headers.get('location')!.split('/').pop()!;
  const guacamole = await dish('Guacamole', 120, platos);
  const sopa = await dish('Sopa de lima', 95, platos);
  const mole = await dish('Mole poblano', 185.5, platos, { modifier_group_ids: [extras.id] });
  const chiles = await dish('Chiles en nogada', 210, platos);
  const agua = await dish('Agua de horchata', 35, bebidas);

  // The till opens; the table orders starters (course 1) and mains (course 2), seat by seat.
  ok(await manager.post('/shifts/open', { cash_float: 500 }), 201, 'open shift');
  const space = ok(await admin.post('/spaces', { name: 'Salón' }), 201, 'space').id;
  const table = ok(await admin.post('/tables', { name: 'S1', status: 'available', space_id: space, order_id: null }), 201, 'table').id;
  // [dish, portion price in cents, quantity, course, seat, rate in basis points]
  const ordered = [
    { dish_id: guacamole, course: 1, quantity: 1, seat: null, portion: 12000, bp: 1600 },
    { dish_id: agua, course: 1, quantity: 3, seat: null, portion: 3500, bp: 800 },
    { dish_id: sopa, course: 1, quantity: 1, seat: 1, portion: 9500, bp: 1600 },
    { dish_id: mole, course: 2, quantity: 1, seat: 1, modifiers: [arroz], portion: 18550 + 2500, bp: 1600 },
    { dish_id: chiles, course: 2, quantity: 1, seat: 2, portion: 21000, bp: 1600 },
    { dish_id: mole, course: 2, quantity: 2, seat: 3, modifiers: [arroz, tortillas], portion: 18550 + 2500 + 1250, bp: 1600 },
  ];
  const orderId = ok(await waiter.post('/orders/with-dishes', {
    order: { user_id: waiterId, table_id: table, waiter: 'Marisol' },
    dishes: ordered.map(({ portion: _p, bp: _b, ...line }) => line),
  }), 201, 'order').id;
  const lines = ok<Array<{ id: string; quantity: number; line_total: number; discount: number }>>(await waiter.get(`/orders/${orderId}/dishes`), 200, 'lines');
  const gross = ordered.map((l) => l.portion * l.quantity);
  t.same(lines.map((l) => cents(l.line_total)), gross, 'each line: (price + modifiers) × quantity');

  const starters = ok<{ tickets: Array<{ line_ids: string[] }> }>(await waiter.post(`/orders/${orderId}/fire`, { course: 1 }), 200, 'fire 1');
  t.same(starters.tickets.flatMap((k) => k.line_ids).sort(), lines.slice(0, 3).map((l) => l.id).sort(), 'starters fired first');
  const mains = ok<{ tickets: Array<{ line_ids: string[] }> }>(await waiter.post(`/orders/${orderId}/fire`, { course: 2 }), 200, 'fire 2');
  t.same(mains.tickets.flatMap((k) => k.line_ids).sort(), lines.slice(3).map((l) => l.id).sort(), 'then the mains');

  // The chiles came late: the manager comps them. The waiter may give 10 % of the order, not 11 %.
  ok(await manager.post(`/orders/${orderId}/discounts`, { line_id: lines[4]!.id, kind: 'percent', value: 100, reason: 'comp: the chiles were late' }), 201, 'comp');
  t.equal((await waiter.post(`/orders/${orderId}/discounts`, { kind: 'percent', value: 11, reason: 'regulars' })).status, 403, "a waiter's 11 %: a manager's call");
  ok(await waiter.post(`/orders/${orderId}/discounts`, { kind: 'percent', value: 10, reason: 'regulars' }), 201, "waiter's 10 %");

  // What the order owes, worked out here: the comp, then 10 % (half up) of what is left, spread over
  // the lines in proportion to what each comes to after its own discount, cents by largest remainder.
  const own = gross.map((g, i) => (i === 4 ? g : 0));
  const after = gross.map((g, i) => g - own[i]!);
  const base = after.reduce((s, x) => s + x, 0);
  const tenPercent = roundHalfUp(base * 1000, 10_000);
  const owes = base - tenPercent;
  const share = after.map((a) => Math.floor((tenPercent * a) / base));
  const byRemainder = after.map((_, i) => i).sort((a, b) => ((tenPercent * after[b]!) % base) - ((tenPercent * after[a]!) % base) || a - b);
  for (const i of byRemainder.slice(0, tenPercent - share.reduce((s, x) => s + x, 0))) share[i]! += 1;
  const net = gross.map((g, i) => g - own[i]! - share[i]!);
  t.equal(cents(ok<{ total: number }>(await waiter.get(`/orders/${orderId}`), 200, 'order').total), owes, `the order owes ${owes / 100}`);
  const discounted = ok<Array<{ discount: number }>>(await waiter.get(`/orders/${orderId}/dishes`), 200, 'lines');
  t.same(discounted.map((l) => cents(l.discount)), gross.map((_, i) => own[i]! + share[i]!), 'each line shows its discount and its share of the 10 %');

  // Split by seat: seats 1, 2, 3, then the table's shared lines. Each bill's tax per rate: round half
  // up of its gross × rate / (100 + rate).
  const bills = ok<{ tickets: Bill[] }>(await waiter.post(`/orders/${orderId}/tickets`, { split: 'seats' }), 201, 'split').tickets;
  const groups = [[2, 3], [4], [5], [0, 1]];
  const expected = groups.map((g) => {
    const byRate = new Map<number, number>();
    for (const i of g) byRate.set(ordered[i]!.bp, (byRate.get(ordered[i]!.bp) ?? 0) + net[i]!);
    const taxes = [...byRate].filter(([, x]) => x > 0).map(([bp, x]) => ({ bp, amount: roundHalfUp(x * bp, 10_000 + bp) }));
    return { total: g.reduce((s, i) => s + net[i]!, 0), taxes };
  });
  t.same(bills.map((b) => cents(b.total)), expected.map((e) => e.total), 'seat 1, seat 2 (comped), seat 3, the table');
  t.equal(bills.reduce((s, b) => s + cents(b.total), 0), owes, 'Σ bill totals = what the order owes');
  for (const [i, b] of bills.entries()) {
    const shown = b.taxes.filter((x) => x.amount > 0).map((x) => ({ bp: Math.round(x.rate * 100), amount: cents(x.amount) })).sort((a, c) => a.bp - c.bp);
    t.same(shown, [...expected[i]!.taxes].sort((a, c) => a.bp - c.bp), `bill ${i + 1}: its taxes per rate`);
  }
  t.match(bills[1], { status: 2, status_name: 'paid' }, 'the comped seat owes nothing: issued settled');

  // Each bill that owes something is paid in cash, inside the shift.
  const toPay = bills.filter((b) => b.total > 0);
  for (const b of toPay) ok(await waiter.post(`/tickets/${b.id}/payments`, { method: 'cash', amount: b.total, tendered: b.total }), 201, `pay ${b.id}`);
  for (const status of ['preparing', 'ready', 'completed']) ok(await waiter.put(`/orders/${orderId}`, { user_id: waiterId, table_id: table, waiter: 'Marisol', status }), 200, status);
  t.match((await waiter.get(`/tables/${table}`)).body, { status: 'available', order_id: null }, 'paid and completed: the table is free');

  // The Z report, to the cent: sales = what the order owed, the drawer = float + sales, tax per rate.
  const taxByRate = new Map<number, number>();
  for (const e of expected) for (const x of e.taxes) taxByRate.set(x.bp, (taxByRate.get(x.bp) ?? 0) + x.amount);
  const closed = ok<{ id: string; report: Record<string, unknown> }>(await manager.post('/shifts/close', { counted_cash: (50_000 + owes) / 100 }), 200, 'close');
  const shift = ok<{ report: Record<string, unknown> }>(await manager.get(`/shifts/${closed.id}`), 200, 'shift');
  for (const z of [closed.report, shift.report] as Array<Record<string, any>>) {
    t.equal(cents(z.sales), owes, 'sales');
    t.equal(cents(z.tips), 0);
    t.same([z.by_method.cash.count, cents(z.by_method.cash.amount)], [toPay.length, owes], 'cash: one payment per bill that owed something');
    t.equal(cents(z.expected_cash), 50_000 + owes, 'the float and the bills');
    t.equal(cents(z.difference), 0);
    t.equal(cents(z.open), 0, 'nothing left open: the comped seat is settled');
    t.same(
      (z.taxes_by_rate as Tax[]).map((x) => [Math.round(x.rate * 100), cents(x.amount)]).sort((a, b) => a[0]! - b[0]!),
      [...taxByRate].sort((a, b) => a[0] - b[0]), 'tax by rate: the sum of every bill\'s, rounded once per bill and rate',
    );
  }
});
