import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../src/http-client.js';
import { startStandalone } from '../src/standalone-process.js';

type Ticket = { id: string; subtotal: number; tip: number; total: number; paid: number; due: number; status: number; status_name: string };

t.test('a dinner paid three ways over real HTTP; the Z report adds up to the cent, and survives a restart', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-bills-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', COMANDA_RESTAURANT_NAME: 'Fonda Doña Lupe' };
  let pos = await startStandalone(env);
  t.teardown(() => pos.stop());
  const manager = new Client(pos.url);
  await manager.login('admin', '1234');
  const ok = <T = Record<string, unknown> & { id: string }>(res: { status: number; body: unknown }, status: number) => {
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as T;
  };

  // Before service: staff, menu, floor, the till.
  const waiterId = ok(await manager.post('/users', { name: 'Marisol', pin: '2580', role: 'waiter' }), 201).id;
  const space = ok(await manager.post('/spaces', { name: 'Salón' }), 201).id;
  const table = ok(await manager.post('/tables', { name: 'S1', status: 'available', space_id: space, order_id: null }), 201).id;
  const category = ok(await manager.post('/categories', { name: 'Platos' }), 201).id;
  const dish = async (name: string, price: number) => (await manager.post('/dishes', { name, price, category_id: category })).headers.get('location')!.split('/').pop()!;
  const mole = await dish('Mole poblano', 185.5);
  const chiles = await dish('Chiles en nogada', 210);
  const agua = await dish('Agua de horchata', 35);
  ok(await manager.post('/shifts/open', { cash_float: 1000 }), 201);

  // Seat, order, fire to the kitchen.
  const waiter = new Client(pos.url);
  await waiter.login('marisol', '2580');
  const order = ok(await waiter.post('/orders/with-dishes', {
    order: { user_id: waiterId, table_id: table, waiter: 'Marisol' },
    dishes: [{ dish_id: mole }, { dish_id: chiles, notes: 'sin nuez' }, { dish_id: agua }, { dish_id: agua }],
  }), 201).id; // 185.50 + 210 + 35 + 35 = 465.50
  ok(await waiter.put(`/orders/${order}`, { user_id: waiterId, table_id: table, waiter: 'Marisol', status: 'preparing' }), 200);

  // Split three ways, with an Idempotency-Key the tablet retries after a dropped answer.
  const split = { split: 'even', parts: 3 };
  const issued = ok<{ ids: string[]; tickets: Ticket[] }>(await waiter.post(`/orders/${order}/tickets`, split, { 'idempotency-key': 'table-s1-split' }), 201);
  const retried = ok<{ ids: string[] }>(await waiter.post(`/orders/${order}/tickets`, split, { 'idempotency-key': 'table-s1-split' }), 201);
  t.same(retried.ids, issued.ids, 'the retried split is the same three tickets');
  t.same(issued.tickets.map((k) => k.subtotal), [155.17, 155.17, 155.16]);
  const [cash, card, tipped] = issued.ids as [string, string, string];

  // Cash with change, a card, a card with a tip (the tablet retries it once).
  const paidCash = ok<{ change: number; ticket: Ticket }>(await waiter.post(`/tickets/${cash}/payments`, { method: 'cash', amount: 155.17, tendered: 200 }), 201);
  t.equal(paidCash.change, 44.83);
  ok(await waiter.post(`/tickets/${card}/payments`, { method: 'debit_card', amount: 155.17 }), 201);
  const tip = { method: 'credit_card', amount: 155.16, tip: 23.27 };
  ok(await waiter.post(`/tickets/${tipped}/payments`, tip, { 'idempotency-key': 'tip-1' }), 201);
  ok(await waiter.post(`/tickets/${tipped}/payments`, tip, { 'idempotency-key': 'tip-1' }), 201);
  const tickets = ok<Ticket[]>(await waiter.get(`/orders/${order}/tickets`), 200);
  t.same(tickets.map((k) => [k.status_name, k.due]), [['paid', 0], ['paid', 0], ['paid', 0]]);
  t.equal(Math.round(tickets.reduce((s, k) => s + k.paid, 0) * 100), 46550 + 2327, 'paid = the order + the tip, once');

  const receipt = await fetch(`${pos.url}/tickets/${tipped}/receipt`, { headers: { cookie: (await waiter.login('marisol', '2580')).headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') } });
  const text = await receipt.text();
  t.match(text, /Fonda Doña Lupe/);
  t.match(text, /part 3 of 3/);
  t.ok(text.split('\n').every((l) => l.length <= 42));

  // The kitchen is done, the table is freed.
  ok(await waiter.put(`/orders/${order}`, { user_id: waiterId, table_id: table, waiter: 'Marisol', status: 'ready' }), 200);
  ok(await waiter.put(`/orders/${order}`, { user_id: waiterId, table_id: table, waiter: 'Marisol', status: 'completed' }), 200);
  t.match((await waiter.get(`/tables/${table}`)).body, { status: 'available', order_id: null });

  // Close the shift: the drawer holds the float and the cash ticket (its change went back).
  const closed = ok<{ id: string; report: Record<string, unknown> }>(await manager.post('/shifts/close', { counted_cash: 1155.17 }), 200);
  t.same(closed.report, {
    sales: 465.5, covers: 0, tips: 23.27, tips_by_waiter: { Marisol: 23.27 }, service_charge: 0, service_charge_by_staff: {}, overpaid: 0,
    by_method: {
      cash: { count: 1, amount: 155.17, tip: 0, refunds: 0 },
      debit_card: { count: 1, amount: 155.17, tip: 0, refunds: 0 },
      credit_card: { count: 1, amount: 155.16, tip: 23.27, refunds: 0 },
    },
    refunds: 0, net: 488.77, open: 0, cash_float: 1000, expected_cash: 1155.17, counted_cash: 1155.17, difference: 0, taxes_by_rate: [],
  });

  // Everything is in the log: after a restart the read models are rebuilt to the same figures.
  t.equal(await pos.stop(), 0);
  pos = await startStandalone(env);
  const again = new Client(pos.url);
  await again.login('admin', '1234');
  t.same((await again.get(`/shifts/${closed.id}`)).body, closed, 'the Z report, read back after a restart');
  t.same(((await again.get('/tickets?status=2')).body as Ticket[]).map((k) => k.id).sort(), [...issued.ids].sort());
  t.equal(await pos.stop(), 0);
});
