import t from 'tap';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '../src/http-client.js';
import { DESKTOP, LANDSCAPE, PORTRAIT, SHOTS, openOffice, press, shoot, signIn, tablet } from '../src/pos-browser.js';
import { posStage } from '../src/pos-stage.js';
import { type Report, analyticsCli, screenRows, withoutIds } from '../src/reports-screen.js';

const ok = <T = { id: string }>(res: { status: number; body: unknown }, status: number, what: string): T => {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as T;
};

/**
 * Issue 60, reports on screen: a small dinner over the API (a discount, a void, cash and a card with
 * a tip, the shift closed), then the manager opens Reports for today in Chromium. Every table on
 * screen equals GET /reports for the day, which equals `npm run analytics` on the same data dir; the
 * CSV button's file is the CLI's CSV block; Print shows one section alone.
 */
t.test('a manager\'s reports for today equal GET /reports and the CLI, to the cent; CSV and print of a section', async (t) => {
  const stage = await posStage(t);
  if (!stage) return;
  const { pos, r, chromium, log, problems, dataDir } = stage;
  const manager = r.admin;
  const marisol = new Client(pos.url);
  await marisol.login('marisol', '2580');
  const me = ok<{ id: string }>(await marisol.get('/auth/me'), 200, 'me');
  ok(await manager.post('/shifts/open', { cash_float: 500 }), 201, 'till');

  // S1: guacamole, two beers, a mole for 3 guests; the waiter's 10 %, a beer voided on the bill, paid cash.
  const order = async (table: string, guests: number, dishes: Array<{ dish_id: string; quantity?: number }>) =>
    ok(await marisol.post('/orders/with-dishes', { order: { user_id: me.id, table_id: table, waiter: 'Marisol', guests }, dishes }), 201, 'order').id;
  const complete = async (id: string, table: string) => {
    for (const status of ['preparing', 'ready', 'completed']) ok(await marisol.put(`/orders/${id}`, { user_id: me.id, table_id: table, waiter: 'Marisol', status }), 200, status);
  };
  const s1 = await order(r.tables.S1!, 3, [{ dish_id: r.menu.guacamole }, { dish_id: r.menu.cerveza, quantity: 2 }, { dish_id: r.menu.mole }]);
  ok(await marisol.post(`/orders/${s1}/discounts`, { kind: 'percent', value: 10, reason: 'regulars' }), 201, '10 %');
  const [bill1] = ok<{ ids: string[] }>(await marisol.post(`/orders/${s1}/tickets`, { split: 'none' }), 201, 'bill 1').ids;
  const issued1 = ok<{ lines: Array<{ id: string; dish_id: string }> }>(await marisol.get(`/tickets/${bill1}`), 200, 'bill 1');
  const beer = issued1.lines.find((l) => l.dish_id === r.menu.cerveza)!;
  ok(await manager.post(`/tickets/${bill1}/voids`, { line_id: beer.id, reason: 'warm beer' }), 201, 'void');
  const due1 = ok<{ due: number }>(await marisol.get(`/tickets/${bill1}`), 200, 'bill 1').due;
  ok(await marisol.post(`/tickets/${bill1}/payments`, { method: 'cash', amount: due1, tendered: 1000 }), 201, 'cash');
  await complete(s1, r.tables.S1!);

  // S2: tacos and two aguas for 2, paid by card with a tip.
  const s2 = await order(r.tables.S2!, 2, [{ dish_id: r.menu.tacos }, { dish_id: r.menu.agua, quantity: 2 }]);
  const [bill2] = ok<{ ids: string[] }>(await marisol.post(`/orders/${s2}/tickets`, { split: 'none' }), 201, 'bill 2').ids;
  const due2 = ok<{ due: number }>(await marisol.get(`/tickets/${bill2}`), 200, 'bill 2').due;
  ok(await marisol.post(`/tickets/${bill2}/payments`, { method: 'credit_card', amount: due2, tip: 25 }), 201, 'card');
  await complete(s2, r.tables.S2!);
  const shiftId = ok<{ id: string }>(await manager.post('/shifts/close', { counted_cash: 500 + due1 }), 200, 'close').id;

  // Today, as the restaurant counts days: the only day of sales in the log.
  const today = String(ok<Report>(await manager.get('/reports/sales'), 200, 'sales').sections.by_day![0]!.day);
  const names = ['sales', 'product-mix', 'waiters', 'payments', 'discounts', 'audit'];
  const http = new Map<string, Report>();
  for (const name of names) http.set(name, ok<Report>(await manager.get(`/reports/${name}?from=${today}&to=${today}`), 200, name));

  // The manager opens Reports: today by default.
  const lupita = await tablet(chromium.browser, pos.url, log, 'lupita', 'manager');
  await signIn(lupita, 'Lupita', '1357');
  await openOffice(lupita, 'reports');
  await lupita.waitForFunction((n) => document.querySelectorAll('.report-section .csv').length === n, {}, names.length);
  await lupita.waitForSelector('#chart-by-day canvas');
  await lupita.waitForSelector('#chart-by-hour canvas');
  t.equal(await lupita.$eval('#range-from', (e) => (e as HTMLInputElement).value), today, 'Today is the restaurant\'s today');
  t.equal(await lupita.$eval('#range-to', (e) => (e as HTMLInputElement).value), today);

  const shown: Array<[string, string, string]> = [
    ['sales-by-day', 'sales', 'by_day'], ['sales-taxes', 'sales', 'tax_by_rate'],
    ['mix-by-dish', 'product-mix', 'by_dish'], ['mix-by-category', 'product-mix', 'by_category'], ['waiters-table', 'waiters', 'by_waiter'],
    ['payments-table', 'payments', 'by_method'], ['discounts-table', 'discounts', 'given'], ['audit-by-kind', 'audit', 'by_kind'], ['audit-table', 'audit', 'entries'],
  ];
  for (const [id, report, section] of shown) {
    t.same(await screenRows(lupita, id), withoutIds(http.get(report)!.sections[section]!), `${id}: the screen shows ${report}.${section} as GET /reports gives it`);
  }
  // Issue 60: each waiter's covers on screen (the hours come from the time clock, nobody punched here).
  t.same(await lupita.$$eval('#waiters-table th', (ths) => ths.slice(-3).map((th) => th.textContent)), ['Covers', 'Hours worked', 'Break hours'], 'covers and hours beside sales and tips');
  t.equal(await lupita.$eval('#waiters-table [data-col="covers"]', (e) => e.textContent), '5', 'Marisol\'s guests: 3 at S1, 2 at S2');
  // At 1280 px the ten columns fit: the table does not scroll sideways (it did, cut at "Hours").
  t.same(await lupita.$eval('#waiters-table', (e) => { const box = e.closest('.report-table-scroll')!; return [innerWidth, box.scrollWidth <= box.clientWidth]; }), [1280, true], 'the waiters table fits a 1280 px tablet');
  await (await lupita.$('#report-waiters'))!.screenshot({ path: join(SHOTS, 'reports-waiters.png') });
  const totals = http.get('sales')!.sections.totals![0]!;
  const figures = await lupita.$$eval('#sales-totals [data-col]', (cells) => Object.fromEntries(cells.map((c) => [(c as HTMLElement).dataset.col, JSON.parse((c as HTMLElement).dataset.value ?? 'null')])));
  t.same(figures, totals, 'the sales totals on screen are GET /reports/sales\'s');
  t.equal(await lupita.$eval('#sales-totals [data-col="net"] dd', (e) => e.textContent), `$${Number(totals.net).toFixed(2)} MXN`, 'money in the currency, to the cent');
  t.equal(await lupita.$$eval('#payments-table tbody tr', (trs) => trs.length), 2, 'cash and card');
  t.match(http.get('audit')!.sections.entries!.filter((e) => e.kind === 'void' || e.kind === 'discount'), [
    { kind: 'discount', staff: 'Marisol', approved_by: null, reason: 'regulars' }, { kind: 'void', approved_by_id: String, reason: 'warm beer' },
  ], 'the discount and the void, with who approved them');

  // The CLI on the same data dir, for the same day, at the same log position: the same figures.
  const cli = (args: string[]) => analyticsCli(dataDir, today, today, args);
  const fromCli = (JSON.parse(await cli(['--format', 'json'])) as { reports: Report[] }).reports;
  for (const name of names) {
    const again = ok<Report>(await manager.get(`/reports/${name}?from=${today}&to=${today}`), 200, name);
    t.same(fromCli.find((x) => x.report === name), again, `${name}: npm run analytics gives what the screen shows`);
  }

  // CSV of the payments section: the file the browser saves is the CLI's own CSV block.
  const downloads = join(dataDir, 'downloads');
  mkdirSync(downloads);
  const cdp = await lupita.createCDPSession();
  await cdp.send('Page.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
  await press(lupita, '#report-payments .csv');
  const file = `payments-payments-${today}-${today}.csv`;
  for (let i = 0; i < 100 && !readdirSync(downloads).includes(file); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const cliCsv = (await cli(['--format', 'csv', '--report', 'payments'])).split('\r\n\r\n')[0];
  t.equal(readFileSync(join(downloads, file), 'utf8'), `${cliCsv}\r\n`, 'the CSV is the CLI\'s by_method block, byte for byte');

  // Print: the payments section alone on paper.
  await lupita.evaluate(() => { window.print = () => undefined; });
  await press(lupita, '#report-payments .print');
  await lupita.emulateMediaType('print');
  const printed = await lupita.$$eval('header.top, .office-back, .reports > *', (all) => all.filter((e) => getComputedStyle(e).display !== 'none').map((e) => e.id || e.className));
  t.same(printed, ['report-days', 'report-payments'], 'on paper: the days and the payments section, nothing else');
  await lupita.evaluate(() => window.scrollTo(0, 0));
  await lupita.screenshot({ path: join(SHOTS, 'reports-print-payments.png') });
  await lupita.emulateMediaType(null);
  await lupita.evaluate(() => window.dispatchEvent(new Event('afterprint')));
  t.equal(await lupita.$('.print-this'), null, 'after printing, the screen is whole again');

  // The day's shift with its Z report, field by field as GET /shifts/{id} gives it, and its reprint.
  const z = ok<{ number: number; report: Record<string, unknown> & { by_method: Record<string, { amount: number }> } }>(await manager.get(`/shifts/${shiftId}`), 200, 'Z');
  t.same(ok<Array<{ id: string }>>(await manager.get(`/shifts?from=${today}&to=${today}`), 200, 'shifts').map((x) => x.id), [shiftId]);
  await press(lupita, `[data-shift-id="${shiftId}"] .z-report`);
  await lupita.waitForSelector('#z-report-sheet #shift-report');
  const fields = await lupita.$$eval('#z-report-sheet [data-field]', (rows) => rows.map((e) => [(e as HTMLElement).dataset.field, e.querySelector('dd')?.textContent]));
  const money = (n: unknown) => `$${Number(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} MXN`;
  t.same(fields, fields.map(([field]) => [field, field === 'covers' ? String(z.report.covers) : money(z.report[field!])]), 'each figure of the Z report as GET /shifts/{id} gives it');
  t.same(fields.map(([f]) => f), ['sales', 'tips', 'refunds', 'net', 'covers', 'open', 'cash_float', 'expected_cash', 'counted_cash', 'difference'], 'every field');
  const methods = await lupita.$$eval('#z-report-sheet [data-method]', (rows) => rows.map((e) => [(e as HTMLElement).dataset.method, e.querySelector('dd')?.textContent?.split(' + ')[0]]));
  t.same(methods, Object.entries(z.report.by_method).map(([m, v]) => [m, money(v.amount)]), 'by method');
  await press(lupita, '#z-reprint');
  await lupita.emulateMediaType('print');
  t.same(await lupita.$$eval('header.top, .office-back, .reports > *', (all) => all.filter((e) => getComputedStyle(e).display !== 'none').map((e) => e.id || e.className)),
    ['report-days', 'sheet-backdrop print-this'], 'the reprint: the Z report alone');
  await lupita.evaluate(() => window.scrollTo(0, 0));
  await lupita.screenshot({ path: join(SHOTS, 'reports-print-z.png') });
  await lupita.emulateMediaType(null);
  await lupita.evaluate(() => window.dispatchEvent(new Event('afterprint')));
  problems.push(...(await shoot(lupita, 'reports-z', { landscape: LANDSCAPE, portrait: PORTRAIT })));
  await press(lupita, '#z-close');

  // Yesterday: no sales then, every section says so; This week runs from Monday to today.
  const dayBefore = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
  await press(lupita, '#range-yesterday');
  await lupita.waitForFunction((d) => document.querySelector<HTMLInputElement>('#range-to')?.value === d, {}, dayBefore(today, 1));
  await lupita.waitForSelector('p#payments-table');
  t.equal(await lupita.$eval('p#payments-table', (e) => e.textContent), 'Nothing in these days.', 'yesterday: no payments');
  await press(lupita, '#range-week');
  const monday = dayBefore(today, (new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7);
  await lupita.waitForFunction((d) => document.querySelector<HTMLInputElement>('#range-from')?.value === d, {}, monday);
  await lupita.waitForSelector('#payments-table tbody tr');
  t.same(await screenRows(lupita, 'payments-table'), withoutIds(ok<Report>(await manager.get(`/reports/payments?from=${monday}&to=${today}`), 200, 'week').sections.by_method!), 'this week: Monday to today');

  await lupita.evaluate(() => window.scrollTo(0, 0));
  problems.push(...(await shoot(lupita, 'reports', { landscape: LANDSCAPE, desktop: DESKTOP, portrait: PORTRAIT })));
  t.same(problems, [], 'the screen fits every size with finger-sized targets');
});
