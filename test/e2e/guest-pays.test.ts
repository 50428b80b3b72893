import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { openChromium } from '../src/chromium.js';
import { Client } from '../src/http-client.js';
import { closeSheet, press, signIn, smallTargets, tablet, waitText } from '../src/pos-browser.js';
import { phone } from '../src/guest-phone.js';
import { PrinterSimulator } from '../src/printer-simulator.js';
import { payInvoice } from '../src/simulated-wallet.js';
import { startStandalone } from '../src/standalone-process.js';

const SHOTS = process.env.POS_SCREENSHOTS ?? '/tmp/shots-guest';
mkdirSync(SHOTS, { recursive: true });

const ok = <T>(res: { status: number; body: unknown }, ...status: number[]): T => {
  if (status.includes(res.status)) return res.body as T;
  throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
};

/** The standalone (with `env` on top) and its admin signed in; on the menu: Pastor 85.50, Suadero 90.00, Horchata 40.00 MXN. */
async function restaurant(t: Tap.Test, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-guest-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', COMANDA_RATES: 'USD=97000.00,MXN=1750000.00', COMANDA_RECONCILE_EVERY_S: '1', LOG_LEVEL: 'warn', ...env });
  t.teardown(() => pos.stop());
  const pay = (invoice: string) => payInvoice(pos.output(), invoice);
  const admin = new Client(pos.url);
  await admin.login('admin', '1234');
  const me = ok<{ id: string }>(await admin.get('/auth/me'), 200).id;
  const category = ok<{ id: string }>(await admin.post('/categories', { name: 'Tacos' }), 201).id;
  const dish = async (name: string, price: number) => (await admin.post('/dishes', { name, price, category_id: category })).headers.get('location')!.split('/').pop()!;
  const dishes = [await dish('Pastor', 85.5), await dish('Suadero', 90), await dish('Horchata', 40)];
  return { pos, pay, admin, me, dishes };
}

t.test('two guests pay from their phones at /g/{token}: "my items" and an even share with a tip, by Lightning; the POS sees both as a guest\'s', async (t) => {
  const { pos, pay, admin, me, dishes } = await restaurant(t);
  const order = ok<{ id: string }>(await admin.post('/orders/with-dishes', { order: { user_id: me, table_id: null, waiter: 'Ana' }, dishes: dishes.map((dish_id) => ({ dish_id })) }), 201).id;
  const ticket = ok<{ ids: string[] }>(await admin.post(`/orders/${order}/tickets`, { split: 'none' }), 201).ids[0]!; // 215.50 MXN
  const link = ok<{ path: string }>(await admin.get(`/tickets/${ticket}/guest-link`), 200);
  ok(await admin.post('/shifts/open', { cash_float: 500 }), 201);

  const { browser, close } = await openChromium();
  t.teardown(close);
  const log: string[] = [];
  const problems: string[] = [];

  // The waiter's tablet: the bill's Guest QR is the link the guests open.
  // Its own log: a tablet asks who is signed in before the sign-in (a 401 it expects), the guests' pages never.
  const waiterLog: string[] = [];
  t.teardown(() => { if (t.passing() === false) console.error(waiterLog.slice(-100).join('\n')); });
  const waiter = await tablet(browser, pos.url, waiterLog, 'ana');
  await signIn(waiter, 'admin', '1234');
  await waiter.evaluate((id) => { location.hash = `#/bill/${id}`; }, order);
  await press(waiter, `[data-ticket-id="${ticket}"] .guest-qr-button`);
  const qr = await waiter.waitForSelector('#guest-qr');
  t.equal(await qr!.evaluate((e) => e.getAttribute('data-link')), `${pos.url}${link.path}`, 'the QR on the POS is the bill\'s guest link');
  t.ok((await waiter.$eval('#guest-link-sheet .guest-url', (e) => (e as HTMLElement).innerText)).endsWith(link.path), 'and its short link is written under it');
  await waiter.screenshot({ path: join(SHOTS, 'guest-qr-pos.png') });
  await press(waiter, '#guest-link-sheet .secondary');
  // The waiter prints the bill at the till: the paper's QR is the same link.
  const till = new PrinterSimulator('cp437');
  const port = await till.start();
  t.teardown(() => till.stop());
  ok(await admin.post('/printers', { name: 'Till', host: '127.0.0.1', port, paper_width: 80, code_page: 'cp858', till: true }), 201);
  await waiter.evaluate(async (id) => void (await fetch(`/tickets/${id}/print`, { method: 'POST' })), ticket);
  const [paper] = await till.waitForJobs(1);
  t.same(paper!.qr, [`${pos.url}${link.path}`], 'the printed bill\'s QR is the link the guests open');

  // Guest 1 (Spanish): "my items": the pastor, 15 % tip.
  const one = await phone(browser, `${pos.url}${link.path}`, 'es-MX', log);
  await waitText(one, /Tu cuenta[\s\S]*Pastor[\s\S]*Por pagar/);
  await one.screenshot({ path: join(SHOTS, 'guest-bill-es.png') });
  problems.push(...await smallTargets(one));
  await press(one, 'button[data-share="lines"]');
  await press(one, 'li:first-child input[type="checkbox"]');
  await press(one, 'button[data-tip="15"]');
  await one.screenshot({ path: join(SHOTS, 'guest-mine-es.png') });
  await press(one, 'button.primary');
  await waitText(one, /sats[\s\S]*Tipo de cambio fijo/);
  const invoiceOne = await one.$eval('.invoice', (e) => (e as HTMLElement).innerText);
  t.match(await one.$eval('a.primary', (a) => a.getAttribute('href')), /^lightning:lnbcrt/, 'a lightning: link that opens a wallet app');
  await one.screenshot({ path: join(SHOTS, 'guest-invoice-es.png') });

  // Guest 2 (English) looks at "my items" while guest 1's invoice is open: the pastor is being paid, not to be chosen.
  const two = await phone(browser, `${pos.url}${link.path}`, 'en-US', log);
  await waitText(two, /Your bill[\s\S]*Left to pay/);
  await press(two, 'button[data-share="lines"]');
  const taken = (state: string) => two.waitForSelector(`li[data-taken="${state}"] input[type="checkbox"]:disabled`).then((e) => e!.evaluate((i) => (i.closest('li') as HTMLElement).innerText));
  t.match(await taken('paying'), /Pastor[\s\S]*Being paid/, 'a line another guest is paying is marked and cannot be chosen');
  t.equal(await two.$$eval('li:not([data-taken]) input[type="checkbox"]:not(:disabled)', (l) => l.length), 2, 'the others can');
  await two.screenshot({ path: join(SHOTS, 'guest-mine-taken-en.png') });

  t.ok((await pay(invoiceOne)).paymentId, 'the customer wallet pays guest 1');
  await waitText(one, /¡Pagado, gracias!/, 'body', 20_000);
  // The receipt: the restaurant, the line paid, amount, tip, sats, the payment (short) and when; on paper, no buttons.
  const receiptOne = await waitText(one, /Fecha/, '#receipt');
  t.match(receiptOne, /Comanda[\s\S]*Recibo[\s\S]*Pastor[\s\S]*Importe\s*85,50\sMXN[\s\S]*Propina\s*12,83\sMXN[\s\S]*Pagado\s*98,33\sMXN[\s\S]*[\d.]+ sats[\s\S]*Pago\s*[0-9a-f]{10}…[0-9a-f]{6}[\s\S]*Fecha\s*\S+/, 'guest 1\'s receipt');
  t.notMatch(receiptOne, /Suadero|Horchata/, 'only the line paid');
  const hashOne = await one.$eval('#receipt .hash', (e) => e.getAttribute('title'));
  // The receipt has its own address: reloaded, the same receipt.
  t.match(one.url(), new RegExp(`${link.path}#receipt/${hashOne}/lines/2$`), 'the receipt\'s own address');
  await one.reload();
  t.equal(await waitText(one, /Fecha/, '#receipt'), receiptOne, 'reloaded: the same receipt');
  await one.screenshot({ path: join(SHOTS, 'guest-paid-es.png') });
  await one.emulateMediaType('print');
  t.same(await one.$$eval('#receipt button', (b) => b.map((e) => getComputedStyle(e).display)), ['none', 'none'], 'printed: the receipt without its buttons');
  await one.screenshot({ path: join(SHOTS, 'guest-receipt-print-es.png') });
  await one.emulateMediaType(null);

  // Guest 2 chooses "my items" again: the pastor is paid. Then an even share of 3 with a tip of their own:
  // a slip (4750 for 47.50) is refused by the server, which names the cap; then 7.00.
  await press(two, 'button[data-share="all"]');
  await press(two, 'button[data-share="lines"]');
  t.match(await taken('paid'), /Pastor[\s\S]*Paid/, 'a line a guest paid is marked paid and cannot be chosen');
  await press(two, 'button[data-share="even"]');
  await press(two, 'input[type="number"]', { clickCount: 3 });
  await two.keyboard.type('3');
  await press(two, 'button[data-tip="own"]');
  await press(two, '#own-tip');
  await two.keyboard.type('4750');
  await press(two, 'button.primary');
  t.match(await waitText(two, /at most/, '[role="alert"]'), /A tip can be at most the bill's total, MX\$215\.50/, 'a tip above the bill is refused, the cap told in the guest\'s words (the server refuses it too: API guest-pay)');
  await press(two, '#own-tip', { clickCount: 3 });
  await two.keyboard.type('7');
  await two.screenshot({ path: join(SHOTS, 'guest-even-en.png') });
  problems.push(...await smallTargets(two));
  await press(two, 'button.primary');
  await waitText(two, /sats[\s\S]*Rate locked for/);
  await two.screenshot({ path: join(SHOTS, 'guest-invoice-en.png') });
  t.ok((await pay(await two.$eval('.invoice', (e) => (e as HTMLElement).innerText))).paymentId, 'the customer wallet pays guest 2');
  await waitText(two, /Paid, thank you!/, 'body', 20_000);
  t.match(await waitText(two, /Date/, '#receipt'), /Receipt[\s\S]*One of 3 even shares of the bill[\s\S]*Amount\s*\S*71\.84[\s\S]*Tip\s*\S*7\.00[\s\S]*sats/, 'guest 2\'s receipt: their share and tip');
  await two.screenshot({ path: join(SHOTS, 'guest-paid-en.png') });

  const bill = ok<{ due: number; payments: Array<{ amount: number; tip: number; by_guest?: boolean }> }>(await admin.get(`/tickets/${ticket}`), 200);
  t.match(bill.payments, [{ amount: 85.5, tip: 12.83, by_guest: true, payment_hash: hashOne }, { amount: 71.84, tip: 7, by_guest: true }], 'the POS\'s bill: two payments, each a guest\'s (the first the one on guest 1\'s receipt)');
  t.equal(bill.due, 58.16, 'the rest is left for the third guest');
  // The waiter's bill screen, never reloaded: both payments marked as a guest's, the rest due.
  await waiter.waitForFunction((id) => document.querySelectorAll(`[data-ticket-id="${id}"] .payments .by-guest`).length === 2, { timeout: 10_000 }, ticket);
  t.match(await waitText(waiter, /58\.16/, `[data-ticket-id="${ticket}"] .ticket-due`), /58\.16/, 'the POS shows what is left');
  await waiter.screenshot({ path: join(SHOTS, 'guest-paid-pos.png') });
  // The third guest asks for the rest by Lightning on a phone, then pays it in cash at the POS instead:
  // the phone's invoice is withdrawn (the node cannot cancel one); the Z report counts all three.
  const three = await phone(browser, `${pos.url}${link.path}`, 'es-MX', log);
  await waitText(three, /Por pagar/);
  await press(three, 'button[data-share="all"]');
  await press(three, 'button[data-tip="0"]');
  await press(three, 'button.primary');
  await waitText(three, /sats/);
  // On the waiter's tablet: Pay, cash, 60 tendered, 1.84 change.
  await press(waiter, `[data-ticket-id="${ticket}"] .pay`);
  for (const digit of '60') await press(waiter, `.pay-sheet [data-key="${digit}"]`);
  await press(waiter, '#take-payment');
  t.match(await waitText(waiter, /Change/, '#change'), /Change \$1\.84 MXN/, 'the rest in cash at the POS, change for 60');
  await closeSheet(waiter);
  t.match(await waitText(three, /Alguien más/, '#invoice-gone', 10_000), /no pagues esta factura/, 'the phone takes its invoice away');
  await three.screenshot({ path: join(SHOTS, 'guest-withdrawn-es.png') });
  t.equal(ok<{ status_name: string }>(await admin.get(`/tickets/${ticket}`), 200).status_name, 'paid');
  const z = ok<{ report: { sales: number; tips: number; by_method: Record<string, { count: number; amount: number; tip: number }> } }>(await admin.post('/shifts/close', { counted_cash: 558.16 }), 200).report;
  t.match(z, { sales: 215.5, tips: 19.83, by_method: { lightning: { count: 2, amount: 157.34, tip: 19.83 }, cash: { count: 1, amount: 58.16 } } }, 'the Z report counts the guests\' payments and the cash');
  t.same(problems, [], 'every target a finger wide');
  // The browser asks /favicon.ico of its own: the only 404, and the console error it prints; the slip of a
  // tip is told on the page before it is sent.
  const expected = /answer 404 \/favicon.ico|404 \(Not Found\)/;
  const errors = log.filter((l) => /pageerror|console error|answer/.test(l));
  t.same(errors.filter((l) => !expected.test(l)), [], 'no page errors');
  t.same(errors.filter((l) => /^answer/.test(l) && !/favicon/.test(l)), [], 'no answer failed but the favicon');
});

/** An English guest's share with no tip: the invoice asked, the customer wallet pays it, the page says so; the payment's id. */
async function payNoTip(guest: Page, pay: (invoice: string) => Promise<{ paymentId?: string }>) {
  await press(guest, 'button[data-tip="0"]');
  await press(guest, 'button.primary');
  await waitText(guest, /sats[\s\S]*Rate locked for/);
  const paid = await pay(await guest.$eval('.invoice', (e) => (e as HTMLElement).innerText));
  await waitText(guest, /Paid, thank you!/, 'body', 20_000);
  return paid.paymentId;
}

t.test('a table a guest pays at: the floor marks it at once (guest paid, what is left); paid in full, COMANDA_CLOSE_PAID_ORDERS frees it', async (t) => {
  const { pos, pay, admin, me, dishes } = await restaurant(t, { COMANDA_CLOSE_PAID_ORDERS: 'true' });
  const space = ok<{ id: string }>(await admin.post('/spaces', { name: 'Terraza' }), 201).id;
  const table = ok<{ id: string }>(await admin.post('/tables', { name: 'T1', status: 'available', space_id: space, order_id: null }), 201).id;
  const order = ok<{ id: string }>(await admin.post('/orders/with-dishes', { order: { user_id: me, table_id: table, waiter: 'Ana' }, dishes: [{ dish_id: dishes[0] }, { dish_id: dishes[2] }] }), 201).id;
  const ticket = ok<{ ids: string[] }>(await admin.post(`/orders/${order}/tickets`, { split: 'none' }), 201).ids[0]!; // 125.50 MXN
  const link = ok<{ path: string }>(await admin.get(`/tickets/${ticket}/guest-link`), 200);

  const { browser, close } = await openChromium();
  t.teardown(close);
  const log: string[] = [];
  t.teardown(() => { if (t.passing() === false) console.error(log.slice(-100).join('\n')); });
  const waiter = await tablet(browser, pos.url, log, 'ana');
  await signIn(waiter, 'admin', '1234');
  const tile = `[data-table-id="${table}"]`;
  await waiter.waitForSelector(`${tile}[data-status="occupied"]`);
  t.notOk(await waiter.$(`${tile} .guest-paid-badge`), 'no guest has paid yet');

  // A guest pays the pastor from their phone: the waiter's floor, never reloaded, marks the table.
  const guest = await phone(browser, `${pos.url}${link.path}`, 'en-US', log);
  await waitText(guest, /Your bill[\s\S]*Left to pay/);
  await press(guest, 'button[data-share="lines"]');
  await press(guest, 'li:first-child input[type="checkbox"]');
  t.ok(await payNoTip(guest, pay), 'the customer wallet pays the pastor');
  t.match(await waitText(waiter, /Guest paid[\s\S]*40\.00 MXN left/i, tile), /T1/, 'the floor marks the table a guest paid at, and what is left');
  await waiter.screenshot({ path: join(SHOTS, 'guest-paid-floor.png') });

  // The same guest pays the rest: the bill is paid in full and the table freed by itself.
  await press(guest, 'button.back');
  await waitText(guest, /Your bill[\s\S]*Left to pay/);
  await press(guest, 'button[data-share="all"]');
  t.ok(await payNoTip(guest, pay), 'the customer wallet pays the rest');
  await waiter.waitForSelector(`${tile}[data-status="available"]`, { timeout: 10_000 });
  t.notOk(await waiter.$(`${tile} .guest-paid-badge`), 'a free table carries no mark');
  t.equal(ok<{ status: string }>(await admin.get(`/orders/${order}`), 200).status, 'completed', 'the order closed by itself');
  t.equal(ok<{ status: string }>(await admin.get(`/tables/${table}`), 200).status, 'available', 'its table free');
  await waiter.screenshot({ path: join(SHOTS, 'guest-paid-floor-freed.png') });
});
