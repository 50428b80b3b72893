import t from 'tap';
import type { Page } from 'puppeteer-core';
import { SHOTS, closeSheet, press, signIn, tablet, tap, waitText } from '../src/pos-browser.js';
import { posStage } from '../src/pos-stage.js';
import { kitchenScreens } from '../src/kitchen-screens.js';
import { payInvoice } from '../src/simulated-wallet.js';
import { traffic } from '../src/traffic-recorder.js';

type ShiftReport = { covers: number; sales: number; tips: number; refunds: number; net: number; open: number; cash_float: number; expected_cash: number; counted_cash: number | null; difference: number | null };

/**
 * Issue 45's dinner on the POS screens in Debian's Chromium, against a real standalone process: two
 * waiters on two tablets, the kitchen on its own screen, a manager on a third, every tap a person's.
 */
t.test('a whole dinner on the POS screens: two waiters, the kitchen, a comp, a bill split by seat paid three ways, the Z report', async (t) => {
  const stage = await posStage(t);
  if (!stage) return;
  const { pos, r, chromium, log, problems, look } = stage;

  // Marisol's tablet: the PIN pad, then the floor.
  const marisol = await tablet(chromium.browser, pos.url, log, 'marisol');
  await marisol.waitForSelector('#login-name');
  await look(marisol, 'login');
  await signIn(marisol, 'Marisol', '2580');
  await marisol.waitForSelector(`[data-table-id="${r.tables.S1}"]`);
  await look(marisol, 'floor');

  // The manager opens the till on her own tablet before the first table sits.
  const lupita = await tablet(chromium.browser, pos.url, log, 'lupita', 'manager');
  await signIn(lupita, 'Lupita', '1357');
  await press(lupita, '#nav-cashier');
  await waitText(lupita, /No shift open/, 'main');
  for (const digit of '500') await press(lupita, `.keypad [data-key="${digit}"]`);
  await press(lupita, '#open-shift');
  await waitText(lupita, /Shift 1 open/, 'main');
  await look(lupita, 'cashier');

  // She seats S1 and orders: starters (course 1), mains (course 2), seat by seat.
  const stepper = (page: Page, which: 1 | 2, way: 'more' | 'less') => press(page, `.course-seat label:nth-child(${which}) [aria-label="${way}"]`);
  await press(marisol, `[data-table-id="${r.tables.S1}"]`);
  await marisol.waitForSelector('.guests-sheet');
  await look(marisol, 'guests');
  await press(marisol, '[data-guests="2"]');
  await marisol.waitForSelector('.order .dishes .dish');
  const orderId = marisol.url().split('/').pop()!;
  await press(marisol, `[data-dish-id="${r.menu.guacamole}"]`);
  await waitText(marisol, /Guacamole/, '.ticket-pane');
  await stepper(marisol, 2, 'more');
  await press(marisol, `[data-dish-id="${r.menu.sopa}"]`);
  await waitText(marisol, /Sopa de lima[\s\S]*seat 1/, '.ticket-pane');
  await stepper(marisol, 2, 'more');
  await press(marisol, `[data-dish-id="${r.menu.agua}"]`);
  await waitText(marisol, /Agua de horchata[\s\S]*seat 2/, '.ticket-pane');
  await tap(marisol, 'Agua de horchata', '.ticket-pane');
  await marisol.waitForSelector('.line-sheet');
  await tap(marisol, '+', '.line-sheet label:nth-of-type(1)');
  await tap(marisol, '+', '.line-sheet label:nth-of-type(1)');
  await press(marisol, '#save-line');
  await waitText(marisol, /3 ×\s*Agua de horchata/, '.ticket-pane');
  await stepper(marisol, 1, 'more');
  await stepper(marisol, 2, 'less');
  await press(marisol, `[data-dish-id="${r.menu.arrachera}"]`);
  await marisol.waitForSelector('.dish-sheet');
  await look(marisol, 'dish-sheet');
  t.ok(await marisol.$eval('#add-line', (b) => (b as HTMLButtonElement).disabled), 'a required choice (Término) holds the line back');
  await press(marisol, `[data-option-id="${r.term[0]}"]`);
  await press(marisol, `[data-option-id="${r.extras[1]}"]`);
  await press(marisol, '.dish-sheet .stepper [aria-label="more"]');
  await press(marisol, '#add-line');
  await waitText(marisol, /2 ×\s*Arrachera[\s\S]*Medio, Queso/, '.ticket-pane');
  await stepper(marisol, 2, 'more');
  await press(marisol, `[data-dish-id="${r.menu.mole}"]`);
  await waitText(marisol, /Mole poblano[\s\S]*seat 2/, '.ticket-pane');
  await look(marisol, 'order');
  const lines = (await r.admin.get(`/orders/${orderId}/dishes`)).body as Array<{ dish_id: string; quantity: number; course: number; seat: number | null; line_total: number; modifiers: Array<{ name: string }> }>;
  t.same(lines.map((l) => [l.dish_id, l.quantity, l.course, l.seat, l.line_total]), [
    [r.menu.guacamole, 1, 1, null, 120], [r.menu.sopa, 1, 1, 1, 95], [r.menu.agua, 3, 1, 2, 105], [r.menu.arrachera, 2, 2, 1, 560], [r.menu.mole, 1, 2, 2, 185],
  ], 'the order as the server has it: quantities, courses, seats, the modifier priced in');

  // Tomás, on his own tablet, seats the terrace's T1 and fires everything at once.
  const tomas = await tablet(chromium.browser, pos.url, log, 'tomas');
  await signIn(tomas, 'Tomás', '1470');
  await tap(tomas, 'Terraza', 'nav.tabs');
  await press(tomas, `[data-table-id="${r.tables.T1}"]`);
  await press(tomas, '[data-guests="3"]');
  await tomas.waitForSelector('.order .dishes .dish');
  const tomasOrder = tomas.url().split('/').pop()!;
  await tomas.type('.search', 'taco');
  await press(tomas, `[data-dish-id="${r.menu.tacos}"]`);
  await press(tomas, `[data-option-id="${r.extras[0]}"]`);
  await press(tomas, '#add-line');
  // As a waiter sees it: the sheet closes once the line is added (a tap before lands on its backdrop).
  await tomas.waitForSelector('.dish-sheet', { hidden: true });
  await press(tomas, '.search', { clickCount: 3 });
  await tomas.keyboard.press('Backspace');
  await tomas.type('.search', 'cerv');
  await press(tomas, `[data-dish-id="${r.menu.cerveza}"]`);
  await waitText(tomas, /Tacos al pastor[\s\S]*Guacamole[\s\S]*Cerveza/, '.ticket-pane');
  await press(tomas, '#fire-all');
  await waitText(tomas, /sent[\s\S]*sent/, '.ticket-pane');

  // Marisol fires the starters; the kitchen screen (a third tablet) cooks and bumps them.
  await press(marisol, '[data-fire-course="1"]');
  await waitText(marisol, /Course 1[\s\S]*sent[\s\S]*Course 2[\s\S]*not sent/, '.ticket-pane');
  // The kitchen's two screens, the line's and the bar's (one tablet each, signed in as the cook).
  const { cookAndBump, chef } = await kitchenScreens(chromium.browser, pos.url, log, r.stations);
  await cookAndBump(orderId);
  await press(marisol, '.order-head .secondary');
  await marisol.waitForSelector(`[data-table-id="${r.tables.S1}"] .ready-badge`, { timeout: 10_000 });
  t.match(await waitText(marisol, /2 guests/, `[data-table-id="${r.tables.S1}"]`), /2 guests/, 'the floor shows the covers');
  t.pass('the waiter sees "ready" on the floor when the kitchen is done');
  await look(marisol, 'floor');

  // The mains: fired, cooked, bumped. A beer for seat 2, fired, spilt: only a manager voids it.
  await press(marisol, `[data-table-id="${r.tables.S1}"]`);
  await marisol.waitForSelector('[data-fire-course="2"]');
  await press(marisol, '[data-fire-course="2"]');
  await waitText(marisol, /Course 2[\s\S]*sent[\s\S]*sent/, '.ticket-pane');
  await stepper(marisol, 1, 'more');
  await stepper(marisol, 2, 'more');
  await stepper(marisol, 2, 'more');
  await press(marisol, `[data-dish-id="${r.menu.cerveza}"]`);
  const cerveza = () => marisol.$$eval('.ticket-pane .line', (rows) => rows.filter((row) => row.textContent!.includes('Cerveza')).map((row) => row.querySelector('.chip.ks')!.textContent));
  // The tap shows at once ("+1 Cerveza adding…"), then as the order's line.
  await marisol.waitForFunction(() => [...document.querySelectorAll('.ticket-pane .line')].some((row) => row.textContent!.includes('Cerveza')));
  t.same(await cerveza(), ['not sent'], 'the beer is on the order, not fired yet');
  await press(marisol, '#fire-all');
  await marisol.waitForFunction(() => Array.from(document.querySelectorAll('.ticket-pane .line')).some((row) => row.textContent!.includes('Cerveza') && row.querySelector('.chip.ks')!.textContent === 'sent'));
  await tap(marisol, 'Cerveza', '.ticket-pane');
  await marisol.waitForSelector('.line-sheet');
  t.notOk(await marisol.$('#remove-line'), 'a fired line has no plain "remove"');
  await marisol.type('#line-reason', 'se derramó');
  await press(marisol, '#void-line');
  await marisol.waitForSelector('.manager-approval');
  await marisol.type('#manager-name', 'Tomás');
  for (const digit of '1470') await press(marisol, `.manager-approval [data-key="${digit}"]`);
  await press(marisol, '.manager-approval .enter');
  await waitText(marisol, /Tomás is not a manager/, '.manager-approval');
  t.pass("a waiter's PIN does not approve a void");
  await press(marisol, '#manager-name', { clickCount: 3 });
  await marisol.type('#manager-name', 'Lupita');
  for (const digit of '1357') await press(marisol, `.manager-approval [data-key="${digit}"]`);
  await look(marisol, 'manager-approval');
  await press(marisol, '.manager-approval .enter');
  await marisol.waitForFunction(() => !document.querySelector('.sheet') && !/Cerveza/.test(document.querySelector('.ticket-pane')?.textContent ?? ''));
  const bar = (await chef.get(`/kitchen/tickets?station_id=${r.stations.bar}&all=true`)).body as Array<{ order_id: string; lines: Array<{ dish_id: string; kitchen_status: string }> }>;
  t.same(bar.filter((k) => k.order_id === orderId).flatMap((k) => k.lines).filter((l) => l.dish_id === r.menu.cerveza).map((l) => l.kitchen_status), ['cancelled'], "the manager's void reaches the bar as a cancelled line");
  // The void is Marisol's, approved by Lupita on her tablet (the approval travels with Marisol's request).
  type Audit = { entries: Array<{ staff: string; approved_by: string; reason: string; order_id: string }> };
  const voidOnAudit = async () => ((await r.admin.get('/audit?kind=void')).body as Audit).entries.filter((e) => e.order_id === orderId);
  for (const until = Date.now() + 5000; Date.now() < until && (await voidOnAudit()).length === 0;) await new Promise((ok) => setTimeout(ok, 50));
  t.match(await voidOnAudit(), [{ staff: 'Marisol', approved_by: 'Lupita', reason: 'se derramó' }], 'the audit trail names who voided and who approved');
  await cookAndBump(orderId);

  // The mole came cold: comped, the manager approving on Marisol's tablet.
  await marisol.goto(`${pos.url}/pos#/order/${orderId}`);
  await tap(marisol, 'Mole poblano', '.ticket-pane');
  await marisol.type('#line-reason', 'llegó frío');
  await press(marisol, '#comp-line');
  await marisol.type('#manager-name', 'Lupita');
  for (const digit of '1357') await press(marisol, `.manager-approval [data-key="${digit}"]`);
  await press(marisol, '.manager-approval .enter');
  await waitText(marisol, /Comp 100 % — comp: llegó frío/, '.ticket-pane');
  await waitText(marisol, /Total\s*\$880\.00 MXN/, '.ticket-pane');
  await tap(marisol, 'Order (', '.pane-switch');
  await look(marisol, 'order-ticket');

  // The bill, split by seat: seat 1 in cash, seat 2 by card with a 10 % tip, the table's by Lightning.
  await press(marisol, '#to-bill');
  await press(marisol, '[data-split="seats"]');
  await look(marisol, 'bill-issue');
  await press(marisol, '#issue-bill');
  await marisol.waitForFunction(() => document.querySelectorAll('.ticket-card').length === 3);
  type Bill = { id: string; total: number; lines: Array<{ dish_id: string }> };
  const bills = (await r.admin.get(`/orders/${orderId}/tickets`)).body as Bill[];
  const billWith = (dish: string) => bills.find((b) => b.lines.some((l) => l.dish_id === dish))!;
  const [seat1, seat2, table] = [billWith(r.menu.sopa), billWith(r.menu.agua), billWith(r.menu.guacamole)];
  t.same([seat1.total, seat2.total, table.total], [655, 105, 120], 'seat 1: sopa and two arracheras; seat 2: the waters (the mole comped); the table: the guacamole');
  await look(marisol, 'bill');
  for (const [bill, says] of [[seat1, /Seat 1/], [seat2, /Seat 2/], [table, /Table \(shared\)/]] as const) {
    t.match(await waitText(marisol, says, `[data-ticket-id="${bill.id}"] header`), says, 'each bill of the split says whose it is');
  }
  await press(marisol, `[data-ticket-id="${seat1.id}"] .pay`);
  for (const digit of '700') await press(marisol, `.pay-sheet [data-key="${digit}"]`);
  await look(marisol, 'pay-cash');
  await press(marisol, '#take-payment');
  t.match(await waitText(marisol, /Change/, '#change'), /Change \$45\.00 MXN/, 'change for 700 on 655');
  await closeSheet(marisol);
  await press(marisol, `[data-ticket-id="${seat2.id}"] .pay`);
  await press(marisol, '.pay-sheet [data-method="card"]');
  await press(marisol, '.pay-sheet [data-tip="10"]');
  await look(marisol, 'pay-card');
  await press(marisol, '#take-payment');
  await marisol.waitForSelector(`[data-ticket-id="${seat2.id}"].paid`);
  // The table's guacamole by Lightning in two goes: 50 now (the screen says what is still due), then the rest.
  await press(marisol, `[data-ticket-id="${table.id}"] .pay`);
  await press(marisol, '.pay-sheet [data-method="lightning"]');
  await marisol.click('#pay-amount', { clickCount: 3 });
  await marisol.type('#pay-amount', '50');
  await press(marisol, '#show-invoice');
  const part = await (await marisol.waitForSelector('#invoice-qr'))!.evaluate((img) => img.getAttribute('data-invoice')!);
  t.ok((await payInvoice(pos.output(), part)).paymentId, 'the customer pays 50 of it');
  await marisol.waitForSelector('#lightning-paid', { timeout: 15_000 });
  t.match(await waitText(marisol, /Still due/, '.lightning'), /\$50\.00 MXN[\s\S]*Still due: \$70\.00 MXN/, 'a part paid: the rest still due');
  await closeSheet(marisol);
  // She taps the bill as it now reads ("Pay $70.00"); the sheet asks what is due as the latest read has it.
  await waitText(marisol, /Pay \$70\.00/, `[data-ticket-id="${table.id}"]`);
  await press(marisol, `[data-ticket-id="${table.id}"] .pay`);
  await press(marisol, '.pay-sheet [data-method="lightning"]');
  t.equal(await marisol.$eval('#pay-amount', (e) => (e as HTMLInputElement).value), '70', 'the rest is what the next invoice asks');
  await press(marisol, '#show-invoice');
  const invoice = await (await marisol.waitForSelector('#invoice-qr'))!.evaluate((img) => img.getAttribute('data-invoice')!);
  t.match(await marisol.$eval('.lightning', (e) => (e as HTMLElement).innerText), /[\d,]+ sats[\s\S]*\$70\.00 MXN at 1,750,000 MXN\/BTC[\s\S]*Expires in \d+:\d\d/, 'sats, the base currency at the locked rate, a countdown');
  await look(marisol, 'pay-lightning');
  t.ok((await payInvoice(pos.output(), invoice)).paymentId, "the customer's wallet pays the QR's invoice");
  await marisol.waitForSelector('#lightning-paid', { timeout: 15_000 });
  await look(marisol, 'pay-lightning-paid');
  await closeSheet(marisol);
  await marisol.waitForSelector(`[data-ticket-id="${table.id}"].paid`);

  // The receipt, then the order closed and S1 free again.
  await press(marisol, `[data-ticket-id="${seat1.id}"] .receipt-button`);
  t.match(await waitText(marisol, /Sopa de lima/, '#receipt'), /Arrachera[\s\S]*Cash[\s\S]*700[\s\S]*45/i, 'the receipt shows the lines, the cash and the change');
  await look(marisol, 'receipt');
  await tap(marisol, '← Bill');
  await press(marisol, '#complete-order');
  await marisol.waitForSelector(`[data-table-id="${r.tables.S1}"][data-status="available"]`, { timeout: 10_000 });
  t.pass('the order closed and S1 free on the floor');

  // Tomás: his guests move to T2; a waiter's 10 % for regulars; the bill by lines, paid by debit card.
  await tomas.bringToFront();
  await tomas.goto(`${pos.url}/pos#/order/${tomasOrder}`);
  await tap(tomas, 'Move', '.actions');
  await press(tomas, `[data-move-to="${r.tables.T2}"]`);
  await tomas.waitForFunction(() => !document.querySelector('.sheet'));
  t.equal(((await r.admin.get(`/tables/${r.tables.T2}`)).body as { order_id: string }).order_id, tomasOrder, 'the order moved to T2');
  t.equal(((await r.admin.get(`/tables/${r.tables.T1}`)).body as { status: string }).status, 'available', 'and T1 is free');
  await tap(tomas, 'Discount', '.actions');
  await tomas.waitForSelector('.discount-sheet');
  await tomas.type('#discount-reason', 'clientes de siempre');
  for (const digit of '15') await press(tomas, `.discount-sheet [data-key="${digit}"]`);
  await press(tomas, '#give-discount');
  await tomas.waitForSelector('.manager-approval');
  t.pass("15 % is over a waiter's limit: the manager is asked");
  await tap(tomas, 'Cancel', '.manager-approval');
  await press(tomas, '.discount-sheet [data-key="⌫"]');
  await press(tomas, '.discount-sheet [data-key="⌫"]');
  await press(tomas, '.discount-sheet [data-key="1"]');
  await press(tomas, '.discount-sheet [data-key="0"]');
  await look(tomas, 'discount');
  await press(tomas, '#give-discount');
  await waitText(tomas, /Discount 10 % — clientes de siempre[\s\S]*Total\s*\$180\.00 MXN/, '.ticket-pane');
  await press(tomas, '#to-bill');
  await press(tomas, '[data-split="lines"]');
  await press(tomas, '.line-groups li:nth-child(2) [aria-label="more"]');
  await press(tomas, '#issue-bill');
  await tomas.waitForFunction(() => document.querySelectorAll('.ticket-card').length === 2);
  const tomasBills = (await r.admin.get(`/orders/${tomasOrder}/tickets`)).body as Bill[];
  t.same(tomasBills.map((b) => b.total).sort((a, b) => a - b), [49.5, 130.5], 'by lines: the tacos with their extra, the beer, each 10 % off');
  for (const b of tomasBills) {
    await press(tomas, `[data-ticket-id="${b.id}"] .pay`);
    await press(tomas, '.pay-sheet [data-method="card"]');
    await tap(tomas, 'Debit', '.pay-sheet');
    await press(tomas, '#take-payment');
    await tomas.waitForSelector(`[data-ticket-id="${b.id}"].paid`);
  }
  // Paid in full: the table closes whatever the kitchen's state (issue 59; the kitchen has not bumped Tomás's tickets).
  await press(tomas, '#complete-order');
  await tomas.waitForSelector('.floor');

  // The receipt prints alone: the browser's print of that page shows no buttons, no header.
  await marisol.goto(`${pos.url}/pos#/receipt/${seat1.id}`);
  await marisol.waitForSelector('#receipt');
  await waitText(marisol, /TOTAL/, '#receipt');
  await marisol.emulateMediaType('print');
  t.same(await marisol.$$eval('header.top, .no-print', (els) => els.map((e) => getComputedStyle(e).display)), ['none', 'none'], 'printed: the receipt only');
  await marisol.screenshot({ path: `${SHOTS}/receipt-print.png` });
  await marisol.emulateMediaType(null);

  // The shift closes with the cash counted; the Z report on screen is the server's.
  await lupita.bringToFront();
  await waitText(lupita, /Expected cash\s*\$1,155\.00 MXN/, '#shift-report', 10_000);
  for (const digit of '1155') await press(lupita, `.keypad [data-key="${digit}"]`);
  await press(lupita, '#close-shift');
  await waitText(lupita, /Z report — shift 1/, 'main');
  await look(lupita, 'z-report');
  t.equal((await r.admin.get('/shifts/current')).status, 404, 'no shift open after the close');
  const onScreen = await lupita.$$eval('#shift-report [data-field]', (rows) => Object.fromEntries(rows.map((row) => [row.getAttribute('data-field'), row.querySelector('dd')!.textContent])));
  const shiftId = await lupita.$eval('#shift-report', (e) => e.getAttribute('data-shift-id')!);
  const closedShift = (await r.admin.get(`/shifts/${shiftId}`)).body as { report: ShiftReport | null };
  const fmt = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} MXN`;
  const report = closedShift.report!;
  t.same(onScreen, {
    sales: fmt(report.sales), tips: fmt(report.tips), refunds: fmt(report.refunds), net: fmt(report.net), open: fmt(report.open), cash_float: fmt(report.cash_float),
    expected_cash: fmt(report.expected_cash), counted_cash: fmt(report.counted_cash!), difference: fmt(report.difference!), covers: String(report.covers),
  }, 'the Z report on screen is GET /shifts/{id}');
  t.equal(report.covers, 5, "covers: Marisol's 2 guests at S1 and Tomás's 3");
  t.same([report.sales, report.tips, report.expected_cash, report.difference], [1060, 10.5, 1155, 0], 'sales 880 + 180, a 10.50 tip, 500 + 655 in the drawer, nothing missing');
  t.comment(`screenshots in ${SHOTS}`);
  // COMANDA_RECORD_TRAFFIC=<file>: the dinner's requests, for the pos-traffic bench (test/src/bench/traffic/).
  if (traffic) t.comment(`traffic profile in ${await traffic.save(pos.url, 'COMANDA_RECORD_TRAFFIC=<file> tap e2e/pos-dinner.test.ts (test/src/traffic-recorder.ts)')}`);
  t.same(problems, [], 'every screen: targets of 44 px at least, nothing wider than a phone');
});
