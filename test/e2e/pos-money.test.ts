import t from 'tap';
import { Client } from '../src/http-client.js';
import { openOffice, press, seatTable, signIn, tablet, waitText } from '../src/pos-browser.js';
import { posStage } from '../src/pos-stage.js';

const ok = <T = { id: string }>(res: { status: number; body: unknown }, status: number, what: string): T => {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as T;
};
type Ticket = { id: string; status_name: string; paid: number; refunded: number; refunds: Array<{ amount: number; reason: string; by: string; approved_by: string }> };

/**
 * Issue 60, money on screen: a cash bill paid at S1; the manager finds it on the back office's Bills,
 * refunds part of it with a reason and sees it on the bill and in the reports' audit trail with her
 * name; the waiter's refund on the table's bill asks for a manager's name and PIN; the manager then
 * archives a dish in the menu editor: it leaves the waiter's open order screen; restored, it is back;
 * she reopens the bill (what is left given back, the bill cancelled).
 */
t.test('refunds with who and why, a waiter\'s refund approved by a manager\'s PIN, a dish archived and restored, reopening a bill', async (t) => {
  const stage = await posStage(t);
  if (!stage) return;
  const { pos, r, chromium, log, problems, look } = stage;
  const marisol = new Client(pos.url);
  await marisol.login('marisol', '2580');
  const me = ok<{ id: string }>(await marisol.get('/auth/me'), 200, 'me');
  ok(await r.admin.post('/shifts/open', { cash_float: 500 }), 201, 'till');
  const orderId = ok(await marisol.post('/orders/with-dishes', { order: { user_id: me.id, table_id: r.tables.S1, waiter: 'Marisol', guests: 2 }, dishes: [{ dish_id: r.menu.guacamole }, { dish_id: r.menu.mole }] }), 201, 'order').id;
  const [billId] = ok<{ ids: string[] }>(await marisol.post(`/orders/${orderId}/tickets`, { split: 'none' }), 201, 'bill').ids;
  const due = ok<{ due: number }>(await marisol.get(`/tickets/${billId}`), 200, 'issued').due;
  t.equal(due, 305, 'guacamole and mole, taxes included');
  ok(await marisol.post(`/tickets/${billId}/payments`, { method: 'cash', amount: due, tendered: 400 }), 201, 'cash');
  const bill = async () => ok<Ticket>(await marisol.get(`/tickets/${billId}`), 200, 'bill');

  // The manager finds the bill among today's by its table and refunds part of the cash, with a reason.
  const lupita = await tablet(chromium.browser, pos.url, log, 'lupita', 'manager');
  await signIn(lupita, 'Lupita', '1357');
  await openOffice(lupita, 'bills');
  // The screen renders after the tap that opens it (under load, after `type` would have looked).
  await lupita.waitForSelector('#bills-search', { visible: true });
  await lupita.type('#bills-search', 'S1');
  await press(lupita, `[data-bill-row="${billId}"]`);
  await press(lupita, '.ticket-card [data-refund-payment]');
  t.equal(await lupita.$eval('#refundable', (e) => e.textContent), '$305.00 MXN', 'all of the payment is left to refund');
  await press(lupita, '#refund-part');
  await lupita.type('#refund-amount', '305.01');
  await lupita.waitForSelector('#refund-over');
  t.ok(await lupita.$eval('#refund-confirm', (e) => (e as HTMLButtonElement).disabled), 'never more than is left');
  await lupita.$eval('#refund-amount', (e) => ((e as HTMLInputElement).value = ''));
  await lupita.type('#refund-amount', '12.34');
  await lupita.type('#refund-reason', 'cold mole');
  await look(lupita, 'money-refund-sheet');
  await press(lupita, '#refund-confirm');
  await waitText(lupita, /Refund \$12\.34 MXN: cold mole · by Lupita, approved by Lupita/, '.ticket-card');
  t.match(await bill(), { paid: 292.66, refunded: 12.34, refunds: [{ amount: 12.34, reason: 'cold mole' }] }, 'to the cent');
  await look(lupita, 'money-bills');

  // The reports' audit trail: the refund, who did it, who approved it, why.
  await press(lupita, '#office-back');
  await press(lupita, '#office-reports');
  await waitText(lupita, /cold mole/, '#audit-table');
  const audit = await lupita.$$eval('#audit-table tbody tr', (trs) => trs.map((tr) => tr.textContent ?? '').filter((x) => x.includes('cold mole')));
  t.match(audit, [/refund.*Lupita.*Lupita.*cold mole.*12\.34/], 'the audit trail names her');
  await look(lupita, 'money-reports-audit');

  // The waiter refunds at the table's bill: a manager's name and PIN are asked for on the spot.
  const tablet1 = await tablet(chromium.browser, pos.url, log, 'marisol', 'tablet');
  await signIn(tablet1, 'Marisol', '2580');
  await tablet1.goto(`${pos.url}/pos#/bill/${orderId}`);
  await press(tablet1, '.ticket-card [data-refund-payment]');
  await press(tablet1, '#refund-part');
  await tablet1.type('#refund-amount', '1');
  await tablet1.type('#refund-reason', 'charged a water twice');
  await press(tablet1, '#refund-confirm');
  await tablet1.waitForSelector('#manager-name');
  await look(tablet1, 'money-waiter-approval');
  await tablet1.type('#manager-name', 'Lupita');
  for (const digit of '1357') await tablet1.click(`.manager-approval .keypad [data-key="${digit}"]`);
  await tablet1.click('.manager-approval .keypad .enter');
  await waitText(tablet1, /Refund \$1\.00 MXN: charged a water twice/, '.ticket-card');
  const lupitaId = ok<Array<{ id: string; name: string }>>(await r.admin.get('/users'), 200, 'users').find((u) => u.name === 'Lupita')!.id;
  t.match((await bill()).refunds[1], { amount: 1, by: me.id, approved_by: lupitaId }, 'the waiter did it, the manager approved it');

  // A dish archived in the menu editor leaves the waiter's menu (the open order screen, never reloaded); restored, it is back.
  await tablet1.goto(`${pos.url}/pos#/floor`);
  await seatTable(tablet1, `[data-table-id="${r.tables.S2}"][data-status="available"]`);
  const beer = `.order .dishes [data-dish-id="${r.menu.cerveza}"]`;
  await tablet1.waitForSelector(beer);
  const drinks = ok<{ category_id: string }>(await r.admin.get(`/dishes/${r.menu.cerveza}`), 200, 'cerveza').category_id;
  await press(lupita, '#office-back');
  await press(lupita, '#office-menu');
  await press(lupita, `[data-category-id="${drinks}"]`);
  // Two managers: another changes the beer while her sheet is open; her save is refused, the menu read again.
  await press(lupita, `.menu-row[data-row-id="${r.menu.cerveza}"]`);
  await lupita.waitForSelector('#dish-sheet #dish-price');
  ok(await r.admin.put(`/dishes/${r.menu.cerveza}`, { name: 'Cerveza', price: 60, category_id: drinks }), 200, 'the other manager');
  await lupita.$eval('#dish-price', (e) => ((e as HTMLInputElement).value = ''));
  await lupita.type('#dish-price', '58');
  await press(lupita, '#dish-sheet .save');
  await waitText(lupita, /Changed by someone else — reloaded/, '#menu-stale');
  await waitText(lupita, /Cerveza\s*\$60\.00 MXN/, '.menu-rows');
  t.equal(ok<{ price: number }>(await r.admin.get(`/dishes/${r.menu.cerveza}`), 200, 'beer').price, 60, 'the other manager\'s price stands');
  await look(lupita, 'money-menu-stale');
  await press(lupita, `.menu-row[data-row-id="${r.menu.cerveza}"]`);
  await press(lupita, '#archive-dish');
  await lupita.waitForSelector(`#archived-dishes [data-archived-id="${r.menu.cerveza}"]`);
  t.equal(await lupita.$(`.menu-row[data-row-id="${r.menu.cerveza}"]`), null, 'listed apart, not among the drinks');
  await look(lupita, 'money-archived-dish');
  await tablet1.waitForSelector(beer, { hidden: true, timeout: 10_000 });
  t.pass('gone from the waiter\'s menu without a reload');
  await press(lupita, `[data-restore="${r.menu.cerveza}"]`);
  await lupita.waitForSelector(`.menu-row[data-row-id="${r.menu.cerveza}"]`);
  t.equal(await lupita.$('#archived-dishes'), null, 'restored: nothing archived');

  // The manager reopens the bill: what is left given back, the bill cancelled.
  await press(lupita, '#office-back');
  await press(lupita, '#office-bills');
  await press(lupita, `[data-bill-row="${billId}"]`);
  await press(lupita, '.ticket-card .reopen-button');
  await lupita.type('#reopen-reason', 'wrong table');
  await press(lupita, '#reopen-ticket');
  await waitText(lupita, /cancelled/i, '.ticket-card header');
  t.match(await bill(), { status_name: 'cancelled', paid: 0, refunded: 305 }, 'every cent given back once');
  await look(lupita, 'money-reopened');
  t.same(problems, [], 'every screen fits and its targets are large enough');
});
