import t from 'tap';
import type { Page } from 'puppeteer-core';
import { addPlanTable, dragTable, fill, punch, retype, saveSheet, tableAt } from '../src/back-office.js';
import { Client } from '../src/http-client.js';
import { DESKTOP, LANDSCAPE, PORTRAIT, closeSheet, openOffice, press, seatTable, shoot, signIn, tablet, waitText } from '../src/pos-browser.js';
import { emptyStage } from '../src/pos-stage.js';
import { type Report, analyticsCli, screenRows, withoutIds } from '../src/reports-screen.js';

type Z = { sales: number; tips: number; refunds: number; net: number; covers: number; expected_cash: number; difference: number; by_method: Record<string, { count: number; amount: number; tip: number; refunds: number }>; taxes_by_rate: Array<{ tax_rate_id: string; amount: number }> };
const SIZES = { landscape: LANDSCAPE, desktop: DESKTOP, portrait: PORTRAIT };
const ok = <T = { id: string }>(res: { status: number; body: unknown }, status: number, what: string): T => {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as T;
};
const cents = (x: unknown) => Math.round(Number(x) * 100);

/**
 * Issue 60's whole story, on screens only, in Debian's Chromium against a real standalone that starts
 * with nothing but its first admin. The manager hires two waiters and a cook, builds the menu (a
 * station, a 10.125 % rate, a modifier group), draws the floor with a section, lowers the waiter's
 * discount limit, opens the till and counts the aguas at 3. Two waiters clock in and take orders: the
 * third agua sells it out on both tablets; the manager 86es the taco and the open tablet greys it, the
 * API refuses both. The bills are paid in cash and by card with a tip, the manager refunds part of
 * the cash and closes the till; today's reports on screen equal GET /reports, `npm run analytics`, and
 * the Z report, field by field.
 */
t.test('a manager runs a restaurant from an empty one: staff, menu, floor, settings, 86, a refund, the day\'s reports = the Z report = the CLI', async (t) => {
  const stage = await emptyStage(t);
  if (!stage) return;
  const { pos, chromium, log, problems, dataDir } = stage;
  const admin = new Client(pos.url);
  await admin.login('admin', '1234');
  const look = async (page: Page, name: string) => void problems.push(...(await shoot(page, `story-${name}`, SIZES)));
  const boss = await tablet(chromium.browser, pos.url, log, 'admin', 'manager');
  await signIn(boss, 'admin', '1234');

  // Staff: two waiters and a cook.
  await openOffice(boss, 'staff');
  for (const m of [{ name: 'Marisol', role: 'waiter', pin: '2580' }, { name: 'Pedro', role: 'waiter', pin: '1470' }, { name: 'Rosa', role: 'kitchen', pin: '2468' }]) {
    await press(boss, '#add-member');
    await fill(boss, '#member-name', m.name);
    await press(boss, `#member-sheet [data-role="${m.role}"]`);
    await fill(boss, '#member-pin', m.pin);
    await saveSheet(boss, '#member-sheet');
    await waitText(boss, new RegExp(`${m.name}\\s*${m.role}`), '.staff-list');
  }
  await look(boss, 'staff');
  const users = ok<Array<{ id: string; name: string; role: string }>>(await admin.get('/users?all=true'), 200, 'users');
  const id = (name: string) => users.find((u) => u.name === name)!.id;
  t.same(users.map((u) => [u.name, u.role]).sort(), [['Marisol', 'waiter'], ['Pedro', 'waiter'], ['Rosa', 'kitchen'], ['admin', 'admin']], 'hired on screen');

  // The menu: a kitchen station, a 10.125 % rate, a category taxed at it, a modifier group, two dishes.
  await press(boss, '#office-back');
  await press(boss, '#office-menu');
  await press(boss, '#menu-tab-stations');
  await press(boss, '#add-station');
  await fill(boss, '#station-name', 'Cocina');
  await saveSheet(boss, '#station-sheet');
  await waitText(boss, /Cocina\s*default/, '.menu-rows');
  await look(boss, 'stations');
  await press(boss, '#menu-tab-rates');
  await press(boss, '#add-tax-rate');
  await fill(boss, '#tax-rate-name', 'IVA reducido');
  await fill(boss, '#tax-rate-rate', '10.125');
  await saveSheet(boss, '#tax-rate-sheet');
  await waitText(boss, /IVA reducido\s*10\.125 %/, '.menu-rows');
  const [rate] = ok<Array<{ id: string; rate: number }>>(await admin.get('/tax-rates'), 200, 'rates');
  const [station] = ok<Array<{ id: string; is_default: boolean }>>(await admin.get('/stations'), 200, 'stations');
  t.match(station, { is_default: true }, 'the first station is the default');
  await press(boss, '#menu-tab-dishes');
  await press(boss, '#add-category');
  await fill(boss, '#category-name', 'Carta');
  await boss.select('#category-tax-rate', rate!.id);
  await boss.select('#category-station', station!.id);
  await saveSheet(boss, '#category-sheet');
  await waitText(boss, /Carta[\s\S]*IVA reducido 10\.125 % · Cocina/, '.category-head');
  // A second station made the default; Cocina, which the category routes to, cannot be deleted: the API's 409 on the sheet.
  await press(boss, '#menu-tab-stations');
  await press(boss, '#add-station');
  await fill(boss, '#station-name', 'Barra');
  await press(boss, '#station-default');
  await saveSheet(boss, '#station-sheet');
  await waitText(boss, /Barra\s*default\s*Cocina/, '.menu-rows');
  await press(boss, `.menu-row[data-row-id="${station!.id}"]`);
  await press(boss, '#station-sheet .delete');
  await press(boss, '#station-sheet .delete-confirm');
  t.match(await waitText(boss, /used by/, '#station-sheet [role="alert"]'), /Cocina/, 'a station still routed to is kept, the sheet says why');
  await press(boss, '#station-sheet .secondary:not(.delete)');
  t.same(ok<Array<{ name: string; is_default: boolean }>>(await admin.get('/stations'), 200, 'stations').map((x) => [x.name, x.is_default]), [['Barra', true], ['Cocina', false]], 'Barra now the default');
  await press(boss, '#menu-tab-groups');
  await press(boss, '#add-group');
  await fill(boss, '#group-name', 'Salsa');
  await fill(boss, '.group-option[data-option="0"] .option-name', 'Verde');
  await press(boss, '#add-option');
  await fill(boss, '.group-option[data-option="1"] .option-name', 'Guacamole');
  await retype(boss, '.group-option[data-option="1"] .option-delta', '1.50');
  await saveSheet(boss, '#group-sheet');
  const [salsa] = ok<Array<{ id: string; options: Array<{ id: string; name: string }> }>>(await admin.get('/modifier-groups'), 200, 'groups');
  await press(boss, '#menu-tab-dishes');
  await press(boss, '#add-dish');
  await fill(boss, '#dish-name', 'Taco al pastor');
  await fill(boss, '#dish-price', '25.50');
  await press(boss, `#dish-sheet [data-value="${salsa!.id}"]`);
  await saveSheet(boss, '#dish-sheet');
  await waitText(boss, /Taco al pastor/, '.menu-rows');
  await press(boss, '#add-dish');
  await fill(boss, '#dish-name', 'Agua fresca');
  await fill(boss, '#dish-price', '18');
  await saveSheet(boss, '#dish-sheet');
  await waitText(boss, /Agua fresca\s*\$18\.00 MXN/, '.menu-rows');
  await look(boss, 'menu');
  const dishes = ok<Array<{ id: string; name: string; price: number }>>(await admin.get('/dishes'), 200, 'dishes');
  const [taco, agua] = ['Taco al pastor', 'Agua fresca'].map((n) => dishes.find((d) => d.name === n)!.id) as [string, string];

  // The floor: a space, two tables dragged onto the grid, Marisol's section.
  await press(boss, '#office-back');
  await press(boss, '#office-floor-plan');
  await fill(boss, '#new-space', 'Salón');
  await press(boss, '#add-space');
  await waitText(boss, /Salón/, '.tabs .tab.active', 5_000);
  const m1 = await addPlanTable(boss, { name: 'M1', seats: '4', shape: 'square' }, 0);
  const m2 = await addPlanTable(boss, { name: 'M2', seats: '2', shape: 'round' }, 1);
  await dragTable(boss, m2, 3, 1);
  await tableAt(boss, m2, 3, 1);
  await dragTable(boss, m1, 1, 1, 'finger');
  await tableAt(boss, m1, 1, 1);
  await press(boss, '#add-section');
  await fill(boss, '#section-name', 'Ventana');
  await press(boss, `#section-sheet [data-value="${m1}"]`);
  await boss.select('#section-waiter', id('Marisol'));
  await saveSheet(boss, '#section-sheet');
  await waitText(boss, /Ventana · Marisol · 1 table/, '.plan-sections');
  await look(boss, 'floor-plan');

  // Settings: the waiter's discount limit from 10 % to 5 %, with why.
  await press(boss, '#office-back');
  await press(boss, '#office-settings');
  await retype(boss, '#setting-waiter_discount_max_percent', '5');
  await boss.type('#setting-reason', 'opening month');
  await press(boss, '#save-settings');
  await waitText(boss, /Saved/, '#settings-said');
  t.match(ok(await admin.get('/settings'), 200, 'settings'), { waiter_discount_max_percent: 5 }, 'the limit as the API has it');

  // The till opens with 500; the aguas are counted at 3.
  await press(boss, '#nav-cashier');
  for (const digit of '500') await press(boss, `.keypad [data-key="${digit}"]`);
  await press(boss, '#open-shift');
  await waitText(boss, /Shift 1 open/, 'main');
  await openOffice(boss, '86');
  await fill(boss, `[data-stock-dish="${agua}"] input`, '3');
  await press(boss, `[data-stock-dish="${agua}"] [data-action="count"]`);
  await waitText(boss, /3 left/, `[data-stock-dish="${agua}"]`);

  // The waiters clock in on the wall tablet, then take orders on their own.
  const wall = await tablet(chromium.browser, pos.url, log, 'wall');
  t.match(await punch(wall, 'Marisol', '2580', 'in'), /^Clocked in: Marisol/);
  t.match(await punch(wall, 'Pedro', '1470', 'in'), /^Clocked in: Pedro/);
  const waiter = async (name: string, pin: string, table: string, floor: (page: Page) => Promise<unknown>) => {
    const page = await tablet(chromium.browser, pos.url, log, name);
    await signIn(page, name, pin);
    await floor(page);
    await seatTable(page, `[data-table-id="${table}"][data-status="available"]`);
    await page.waitForSelector(`.order .dishes [data-dish-id="${agua}"]`);
    return page;
  };
  // Marisol's floor is the plan as drawn, her section marked.
  const marisol = await waiter('Marisol', '2580', m1, async (p) => {
    await waitText(p, /Your section: Ventana/, '#my-section');
    t.same(await p.$$eval('.floor-plan .tile', (es) => es.map((e) => [e.querySelector('.tile-name')!.textContent, e.getAttribute('data-shape'), e.hasAttribute('data-mine')])),
      [['M1', 'square', true], ['M2', 'round', false]], 'the tables as drawn, M1 in her section');
    await look(p, 'waiter-floor');
  });
  await press(marisol, `[data-dish-id="${taco}"]`);
  await press(marisol, `[data-option-id="${salsa!.options[1]!.id}"]`);
  await press(marisol, '#add-line');
  await waitText(marisol, /Taco al pastor[\s\S]*Guacamole/, '.ticket-pane');
  await press(marisol, `[data-dish-id="${agua}"]`);
  await marisol.waitForFunction(() => document.querySelectorAll('.ticket-pane .line').length === 2);
  await press(marisol, '#fire-all');
  // Rosa, the cook, signs in on the kitchen screen of the station made on screen: the taco with its salsa.
  const rosa = await tablet(chromium.browser, pos.url, log, 'rosa', 'kitchen-screen');
  await rosa.goto(`${pos.url}/kitchen?station=${station!.id}`);
  await signIn(rosa, 'Rosa', '2468', '#station');
  t.match(await waitText(rosa, /Taco al pastor/, 'article.ticket'), /M1[\s\S]*Taco al pastor[\s\S]*Guacamole[\s\S]*Agua fresca/, 'the cook sees M1\'s ticket at Cocina');
  const pedro = await waiter('Pedro', '1470', m2, (p) => p.waitForSelector('.floor-plan .tile'));
  await press(pedro, `[data-dish-id="${agua}"]`);
  await pedro.waitForFunction(() => document.querySelectorAll('.ticket-pane .line').length === 1);
  await press(pedro, `[data-dish-id="${agua}"]`);
  await waitText(pedro, /2 ×/, '.ticket-pane');
  // The third agua of the count: sold out on both tablets, Marisol's never reloaded; the API refuses a fourth.
  await pedro.waitForSelector(`[data-dish-id="${agua}"].sold-out`, { timeout: 10_000 });
  await marisol.waitForSelector(`[data-dish-id="${agua}"].sold-out`, { timeout: 10_000 });
  t.match(ok(await admin.get(`/dishes/${agua}`), 200, 'agua'), { sold_out: true, remaining: 0 }, 'three ordered, none left');
  const marisolApi = new Client(pos.url);
  await marisolApi.login('Marisol', '2580');
  const refused = (dish: string) => marisolApi.post('/orders/with-dishes', { order: { user_id: id('Marisol'), table_id: null, waiter: 'Marisol' }, dishes: [{ dish_id: dish }] });
  t.match(await refused(agua), { status: 409, body: { message: /Agua fresca is sold out/ } }, 'a fourth agua refused');

  // The manager 86es the taco: Marisol's open order greys it within seconds; the API refuses it.
  await press(boss, `[data-stock-dish="${taco}"] [data-action="86"]`);
  await boss.waitForSelector(`[data-stock-dish="${taco}"].sold-out`);
  await look(boss, 'sold-out');
  await marisol.waitForSelector(`[data-dish-id="${taco}"].sold-out`, { timeout: 10_000 });
  t.match(await refused(taco), { status: 409, body: { message: /Taco al pastor is sold out/ } }, 'the 86\'d taco refused');
  await look(marisol, 'waiter-order');

  // The bills: Marisol's in cash (45.00, 50 tendered), Pedro's by card with a 10 % tip; both tables closed.
  const payAndClose = async (page: Page, how: (p: Page) => Promise<void>) => {
    await press(page, '#to-bill');
    await press(page, '#issue-bill');
    await press(page, '.ticket-card .pay');
    await how(page);
    await page.waitForSelector('.ticket-card.paid', { timeout: 10_000 });
    await press(page, '#complete-order');
    await page.waitForSelector('main.floor');
  };
  await payAndClose(marisol, async (p) => {
    for (const digit of '50') await press(p, `.pay-sheet [data-key="${digit}"]`);
    await press(p, '#take-payment');
    t.match(await waitText(p, /Change/, '#change'), /Change \$5\.00 MXN/, 'change for 50 on 45.00');
    await closeSheet(p);
  });
  await payAndClose(pedro, async (p) => {
    await press(p, '.pay-sheet [data-method="card"]');
    await press(p, '.pay-sheet [data-tip="10"]');
    await press(p, '#take-payment');
  });
  type Bill = { id: string; subtotal: number; tip: number; taxes: Array<{ rate: number; amount: number }> };
  const list = ok<Bill[]>(await admin.get('/tickets'), 200, 'bills');
  // Prices include tax: 45.00 × 10.125 / 110.125 = 4.137… → 4.14; 36.00 → 3.309… → 3.31.
  t.same(list.map((b) => [b.subtotal, b.tip, b.taxes.map((x) => [x.rate, x.amount])]).sort(), [[36, 3.6, [[10.125, 3.31]]], [45, 0, [[10.125, 4.14]]]],
    'taco 25.50 + 1.50 and an agua 18.00; two aguas with a 10 % tip; the tax at 10.125 % to the cent');
  const cashBill = list.find((b) => b.subtotal === 45)!;

  // The manager refunds part of Marisol's cash on the Bills screen, with why.
  await openOffice(boss, 'bills');
  await press(boss, `[data-bill-row="${cashBill.id}"]`);
  await press(boss, '.ticket-card [data-refund-payment]');
  await press(boss, '#refund-part');
  await fill(boss, '#refund-amount', '12.34');
  await boss.type('#refund-reason', 'cold taco');
  await press(boss, '#refund-confirm');
  await waitText(boss, /Refund \$12\.34 MXN: cold taco · by admin, approved by admin/, '.ticket-card');

  // The till closes with what the drawer holds: 500 + 45.00 − 12.34.
  await press(boss, '#nav-cashier');
  await waitText(boss, /Expected cash\s*\$532\.66 MXN/, '#shift-report', 10_000);
  for (const digit of '532.66') await press(boss, `.keypad [data-key="${digit}"]`);
  await press(boss, '#close-shift');
  await waitText(boss, /Z report — shift 1/, 'main');
  await look(boss, 'z-report');
  const shiftId = await boss.$eval('#shift-report', (e) => e.getAttribute('data-shift-id')!);
  const z = ok<{ report: Z }>(await admin.get(`/shifts/${shiftId}`), 200, 'Z').report;
  t.match(z, { sales: 81, tips: 3.6, refunds: 12.34, net: 72.26, covers: 4, expected_cash: 532.66, difference: 0 }, 'the Z report to the cent');

  // Today's reports on screen equal GET /reports, which equals npm run analytics; and the Z report, field by field.
  const today = String(ok<Report>(await admin.get('/reports/sales'), 200, 'sales').sections.by_day![0]!.day);
  const names = ['sales', 'product-mix', 'waiters', 'payments', 'discounts', 'audit'];
  const http = new Map<string, Report>();
  for (const name of names) http.set(name, ok<Report>(await admin.get(`/reports/${name}?from=${today}&to=${today}`), 200, name));
  await openOffice(boss, 'reports');
  await boss.waitForFunction((n) => document.querySelectorAll('.report-section .csv').length === n, {}, names.length);
  await boss.waitForSelector('#chart-by-hour canvas');
  for (const [tableId, report, section] of [['sales-by-day', 'sales', 'by_day'], ['sales-taxes', 'sales', 'tax_by_rate'], ['mix-by-dish', 'product-mix', 'by_dish'],
    ['waiters-table', 'waiters', 'by_waiter'], ['payments-table', 'payments', 'by_method'], ['audit-table', 'audit', 'entries']] as const) {
    t.same(await screenRows(boss, tableId), withoutIds(http.get(report)!.sections[section]!), `${tableId}: on screen as GET /reports/${report} gives it`);
  }
  await look(boss, 'reports');
  const fromCli = (JSON.parse(await analyticsCli(dataDir, today, today, ['--format', 'json'])) as { reports: Report[] }).reports;
  for (const name of names) t.same(fromCli.find((x) => x.report === name), ok<Report>(await admin.get(`/reports/${name}?from=${today}&to=${today}`), 200, name), `${name}: npm run analytics says the same`);

  const sales = http.get('sales')!.sections;
  const totals = sales.totals![0]!;
  const methods = http.get('payments')!.sections.by_method!;
  const sum = (rows: Array<Record<string, unknown>>, k: string) => rows.reduce((n, r) => n + cents(r[k]), 0);
  t.same(Object.fromEntries(methods.map((m) => [m.method, [m.payments, cents(m.amount), cents(m.tips), cents(m.refunds)]])),
    Object.fromEntries(Object.entries(z.by_method).map(([m, x]) => [m, [x.count, cents(x.amount), cents(x.tip), cents(x.refunds)]])), 'payments by method = the Z report\'s by method');
  t.same([sum(methods, 'amount'), sum(methods, 'tips'), sum(methods, 'refunds'), sum(methods, 'net')], [cents(z.sales), cents(z.tips), cents(z.refunds), cents(z.net)], 'the payments\' totals = the Z report\'s sales, tips, refunds, net');
  t.same([cents(totals.gross) - cents(totals.discounts) - cents(totals.comps) - cents(totals.voids), cents(totals.refunds), cents(totals.net), totals.covers],
    [cents(z.sales), cents(z.refunds), cents(z.sales) - cents(z.refunds), z.covers], 'sales: what the orders came to = the Z report\'s sales; refunds, net and covers the same');
  t.same(Object.fromEntries(sales.tax_by_rate!.map((x) => [x.tax_rate_id, cents(x.tax)])), Object.fromEntries(z.taxes_by_rate.map((x) => [x.tax_rate_id, cents(x.amount)])), 'tax per rate = the Z report\'s');
  const waiters = http.get('waiters')!.sections.by_waiter!;
  t.same(Object.fromEntries(waiters.map((w) => [w.waiter, [cents(w.tips), w.covers]])), { Marisol: [0, 2], Pedro: [360, 2] }, 'each waiter\'s tips and covers');
  t.equal(sum(waiters, 'tips'), cents(z.tips), 'the waiters\' tips = the Z report\'s');
  t.match(http.get('audit')!.sections.entries!.filter((e) => e.kind === 'refund' || e.kind === 'settings_changed'), [
    { kind: 'settings_changed', staff: 'admin' }, { kind: 'refund', staff: 'admin', reason: 'cold taco' },
  ], 'the audit trail names who changed the limit and who refunded');
  t.same(problems, [], 'every screen of the story fits 1280×800, 1920×1080 and 390×844 with finger-sized targets');
});
