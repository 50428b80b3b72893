import t from 'tap';
import { SHOTS, closeSheet, press, signIn, tablet, tap, waitText, seatTable } from '../src/pos-browser.js';
import { posStage } from '../src/pos-stage.js';

type Ticket = { id: string; total: number; tip: number; status_name: string; lines: Array<{ dish_id: string; line_total: number; share: { part: number; parts: number } | null; modifiers: Array<{ name: string }> }> };

/**
 * Issue 59's checks on the POS screens in Chromium, against a real standalone: lines moved between two
 * tables, two tables' checks merged, a guacamole split between three checks, the steak's "Medio" on the
 * bill and the receipt, quick cash with a tip (in the shift's report to the cent), the Lightning
 * invoice as text with a copy button and a `lightning:` link.
 */
t.test('checks as a restaurant uses them: moved lines, merged checks, a split item, quick cash with a tip, the invoice as text', async (t) => {
  const stage = await posStage(t);
  if (!stage) return;
  const { pos, r, chromium, log, problems, look } = stage;
  t.equal((await r.admin.post('/shifts/open', { cash_float: 500 })).status, 201, 'the till is open');
  const page = await tablet(chromium.browser, pos.url, log, 'marisol');
  await signIn(page, 'Marisol', '2580');

  /** Seats a table and orders dishes (the arrachera asks its term: Medio). */
  const seat = async (table: string, dishes: string[]) => {
    await page.goto(`${pos.url}/pos#/floor`);
    await seatTable(page, `[data-table-id="${r.tables[table]}"]`);
    await page.waitForSelector('.order .dishes .dish');
    for (const [i, dish] of dishes.entries()) {
      await press(page, `[data-dish-id="${r.menu[dish as keyof typeof r.menu]}"]`);
      if (dish === 'arrachera') {
        await press(page, `.dish-sheet [data-option-id="${r.term[0]}"]`);
        await press(page, '#add-line');
        await page.waitForSelector('.dish-sheet', { hidden: true });
      }
      // Each line on the ticket before the next tap, so the lines come in the order the test names them.
      await page.waitForFunction((n) => document.querySelectorAll('.ticket-pane .line').length === n, {}, i + 1);
    }
    await page.waitForFunction((n) => document.querySelectorAll('.ticket-pane .line').length === n, {}, dishes.length);
    return page.url().split('/').pop()!;
  };
  const s1 = await seat('S1', ['arrachera', 'guacamole', 'cerveza']);
  const s2 = await seat('S2', ['sopa', 'agua']);
  const s3 = await seat('S3', ['mole']);

  // The beer was for S2: moved from S1's check to S2's.
  await page.goto(`${pos.url}/pos#/order/${s1}`);
  await waitText(page, /Cerveza/, '.ticket-pane');
  await press(page, '#move-order');
  await press(page, '[data-move-mode="lines"]');
  await tap(page, 'Cerveza', '.pick-lines');
  await look(page, 'checks-move-lines');
  await press(page, `[data-check-of="${r.tables.S2}"]`);
  await page.waitForSelector('.move-sheet', { hidden: true });
  await page.waitForFunction(() => !document.querySelector('.ticket-pane')?.textContent?.includes('Cerveza'));
  t.equal(((await r.admin.get(`/orders/${s2}`)).body as { total: number }).total, 185, 'S2: sopa 95 + agua 35 + the beer 55');

  // S3 joins S1: its check merged into S1's, S3 free again.
  await page.goto(`${pos.url}/pos#/order/${s3}`);
  await press(page, '#move-order');
  await press(page, '[data-move-mode="merge"]');
  await press(page, `[data-check-of="${r.tables.S1}"]`);
  await page.waitForFunction((id) => location.hash.endsWith(id), {}, s1);
  await waitText(page, /Mole poblano/, '.ticket-pane');
  t.match((await r.admin.get(`/tables/${r.tables.S3}`)).body, { status: 'available' }, 'S3 is free');
  t.equal(((await r.admin.get(`/orders/${s1}`)).body as { total: number }).total, 565, 'S1: arrachera 260 + guacamole 120 + mole 185');

  // The bill by lines: arrachera on check 1, mole on check 3, the guacamole split between all three.
  await press(page, '#to-bill');
  await press(page, '[data-split="lines"]');
  const lines = (await r.admin.get(`/orders/${s1}/dishes`)).body as Array<{ id: string; dish_id: string }>;
  const lineOf = (dish: keyof typeof r.menu) => lines.find((l) => l.dish_id === r.menu[dish])!.id;
  const mole = lineOf('mole');
  await press(page, `[data-group-line="${mole}"] [aria-label="more"]`);
  await press(page, `[data-group-line="${mole}"] [aria-label="more"]`);
  await press(page, `[data-share-line="${lineOf('guacamole')}"]`);
  await look(page, 'checks-split-item');
  await press(page, '#issue-bill');
  await page.waitForFunction(() => document.querySelectorAll('.ticket-card').length === 3);
  const tickets = (await r.admin.get(`/orders/${s1}/tickets`)).body as Ticket[];
  t.same(tickets.map((k) => k.total).sort((a, b) => a - b), [40, 225, 300], 'checks of 260 + 40, 40, 185 + 40');
  t.equal(tickets.reduce((sum, k) => sum + k.total, 0), 565, 'the checks add up to the order');
  const first = tickets.find((k) => k.total === 300)!;
  await waitText(page, /Arrachera[\s\S]*Medio[\s\S]*Guacamole \(1\/3\)/, `[data-ticket-id="${first.id}"]`);
  await look(page, 'checks-bill');

  // Check 1 in cash with a 10 % tip: 330 owed, the guest hands over 400 (a quick button): 70 change.
  await press(page, `[data-ticket-id="${first.id}"] .pay`);
  await press(page, '.pay-sheet [data-tip="10"]');
  await waitText(page, /Exact \$330\.00 MXN/, '.quick-cash');
  t.same(await page.$$eval('.quick-cash button', (bs) => bs.map((b) => b.getAttribute('data-cash'))), ['exact', '340', '350', '400', '500'], 'exact, then the next round amounts');
  await press(page, '.quick-cash [data-cash="400"]');
  await waitText(page, /change \$70\.00 MXN/, '.pay-sheet');
  await look(page, 'checks-pay-cash-tip');
  await press(page, '#take-payment');
  await waitText(page, /Change \$70\.00 MXN/, '#change');
  await closeSheet(page);
  // The other two: exact cash, then a card.
  const second = tickets.find((k) => k.total === 40)!;
  const third = tickets.find((k) => k.total === 225)!;
  await press(page, `[data-ticket-id="${second.id}"] .pay`);
  await press(page, '.quick-cash [data-cash="exact"]');
  await press(page, '#take-payment');
  await waitText(page, /Change \$0\.00 MXN/, '#change');
  await closeSheet(page);
  await press(page, `[data-ticket-id="${third.id}"] .pay`);
  await press(page, '.pay-sheet [data-method="card"]');
  await press(page, '#take-payment');
  await page.waitForSelector(`[data-ticket-id="${third.id}"].paid`);

  const report = ((await r.admin.get('/shifts/current')).body as { report: { tips: number; expected_cash: number; by_method: { cash: { amount: number; tip: number } } } }).report;
  t.same([report.tips, report.by_method.cash.tip, report.expected_cash], [30, 30, 500 + 300 + 30 + 40], 'the cash tip in the shift report to the cent, and in the drawer');

  // The card check reopened (the guests want to pay it otherwise): Marisol asks, Lupita approves on her tablet.
  await press(page, `[data-ticket-id="${third.id}"] .reopen-button`);
  await page.type('#reopen-reason', 'pays in cash instead');
  await press(page, '#reopen-ticket');
  await page.waitForSelector('.manager-approval');
  await page.type('#manager-name', 'Lupita');
  for (const digit of '1357') await press(page, `.manager-approval [data-key="${digit}"]`);
  await look(page, 'checks-reopen-approval');
  await press(page, '.manager-approval .enter');
  await page.waitForSelector(`[data-ticket-id="${third.id}"].cancelled`);
  t.match((await r.admin.get(`/tickets/${third.id}`)).body, { status_name: 'cancelled', paid: 0, refunds: [{ amount: 225, reason: 'reopened: pays in cash instead' }] }, 'refunded and cancelled in one step');

  await press(page, `[data-ticket-id="${first.id}"] .receipt-button`);
  t.match(await waitText(page, /Thank you/, '#receipt'), /Arrachera[\s\S]*\+ Medio[\s\S]*Guacamole \(1\/3\)\s+40\.00[\s\S]*Tip\s+30\.00/, 'the receipt: the option, the share, the tip');
  await look(page, 'checks-receipt');

  // S2 by Lightning: the invoice as text, a copy button, a lightning: link for a wallet on this phone.
  await page.goto(`${pos.url}/pos#/bill/${s2}`);
  await press(page, '#issue-bill');
  await press(page, '.ticket-card .pay');
  await press(page, '.pay-sheet [data-method="lightning"]');
  await press(page, '#show-invoice');
  const invoice = await (await page.waitForSelector('#invoice-qr'))!.evaluate((img) => img.getAttribute('data-invoice')!);
  t.equal(await page.$eval('#invoice-text', (e) => e.textContent), invoice, 'the invoice as text');
  t.equal(await page.$eval('#wallet-link', (e) => e.getAttribute('href')), `lightning:${invoice}`);
  await page.browserContext().overridePermissions(pos.url, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
  await press(page, '#copy-invoice');
  await waitText(page, /Copied/, '#copy-invoice');
  t.equal(await page.evaluate(() => navigator.clipboard.readText()), invoice, 'copied as it is');
  await look(page, 'checks-lightning');
  t.comment(`screenshots in ${SHOTS}`);
  t.same(problems, [], 'every screen: targets of 44 px at least, nothing wider than a phone');
});
