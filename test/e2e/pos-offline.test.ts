import t from 'tap';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { CHROMIUM, openChromium } from '../src/chromium.js';
import { Client } from '../src/http-client.js';
import { closeSheet, press, shoot, signIn, tablet, waitText, seatTable } from '../src/pos-browser.js';
import { billBeforeTheCut, openOrdersOf, paymentsOn, posRestaurant, waiterAtTable } from '../src/pos-setup.js';
import { startStandalone } from '../src/standalone-process.js';

type Line = { id: string; dish_id: string; kitchen_status: string };
type Complete = { order: { id: string; table_id: string | null; waiter: string }; dishes: Line[] };

const lines = (page: Page) => page.$$eval('.ticket-pane .line', (ls) => ls.map((l) => l.textContent ?? ''));
const waitingOf = (page: Page) => page.$eval('#offline-banner', (e) => Number((e as HTMLElement).dataset.waiting));

/**
 * A tablet through a network cut: after one visit the POS opens with no network (its service worker),
 * the floor, the menu and a bill come from the tablet, a table is seated, dishes added and fired, and
 * cash taken, with a reload in the middle. Back online the outbox is sent in order, each write once;
 * a table another tablet seated meanwhile is refused and shown to the waiter with what to do.
 */
t.test('offline: writes kept on the tablet through a reload, sent once when back, a refusal shown', async (t) => {
  if (!existsSync(CHROMIUM)) {
    t.fail(`no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-pos-offline-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234' });
  t.teardown(() => pos.stop());
  const r = await posRestaurant(pos.url);
  const sw = await fetch(`${pos.url}/pos/sw.js`);
  t.equal(sw.headers.get('cache-control'), 'no-cache', 'the service worker is asked again at every visit');
  t.equal(sw.headers.get('service-worker-allowed'), '/pos', 'and may look after /pos');
  // The worker installs only if every file it keeps is there (a CSS-only chunk Vite dropped once was listed: no worker, no offline).
  const kept = [...(await sw.text()).matchAll(/"(\/pos\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  t.same((await Promise.all(kept.map(async (f) => [f, (await fetch(`${pos.url}${f}`)).status]))).filter(([, s]) => s !== 200), [], `the ${kept.length} files the worker keeps are all served`);
  const chromium = await openChromium();
  t.teardown(chromium.close);
  const log: string[] = [];
  t.teardown(() => { if (t.passing() === false) console.error(log.slice(-200).join('\n')); });

  // Before the cut: a bill for S3, issued online; the till open.
  const { marisol, billed, bill } = await billBeforeTheCut(pos.url, r, r.tables.S3!, r.menu.sopa!);

  // One visit: signed in, the floor and the bill seen; the service worker has the app.
  const page = await tablet(chromium.browser, pos.url, log, 'marisol');
  await signIn(page, 'Marisol', '2580');
  await page.waitForSelector(`[data-table-id="${r.tables.S1}"]`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, { timeout: 15_000 });
  await page.evaluate((id) => { location.hash = `#/bill/${id}`; }, billed);
  await page.waitForSelector(`[data-ticket-id="${bill.id}"]`);
  await press(page, '.top .nav');
  await page.waitForSelector(`[data-table-id="${r.tables.S1}"]`);
  // Another of Marisol's tables, seated from another device: this tablet never opens it before the cut.
  const me = (await marisol.get('/auth/me')).body as { id: string };
  const elsewhere = ((await marisol.post('/orders/with-dishes', { order: { user_id: me.id, table_id: r.tables.S4, waiter: 'Marisol' }, dishes: [{ dish_id: r.menu.agua, quantity: 3 }] })).body as { id: string }).id;
  await page.waitForSelector(`[data-table-id="${r.tables.S4}"][data-status="occupied"]`);
  await page.waitForFunction((id) => new Promise((done) => {
    const open = indexedDB.open('comanda-pos');
    open.onsuccess = () => { const got = open.result.transaction('reads').objectStore('reads').get(`/orders/${id}/complete`); got.onsuccess = () => done(got.result !== undefined); };
  }), { timeout: 15_000 }, elsewhere);

  // The network goes; the POS is reloaded and opens from the tablet, signed in, the floor as it was.
  await page.setOfflineMode(true);
  await page.reload();
  await page.waitForSelector(`[data-table-id="${r.tables.S1}"][data-status="available"]`, { timeout: 15_000 });
  t.ok(await page.$('header.top'), 'still signed in with no network');
  t.match(await page.$eval('#offline-banner', (e) => e.textContent), /No connection/, 'the banner says the network is away');
  // Her other table opens with no network: the floor kept her open orders as they changed.
  await press(page, `[data-table-id="${r.tables.S4}"]`);
  await waitText(page, /3 ×\s*Agua de horchata/, '.ticket-pane');
  t.pass('an open order never opened on this tablet opens offline');
  await press(page, '.order-head .secondary');
  await page.waitForSelector(`[data-table-id="${r.tables.S1}"][data-status="available"]`);

  // S1 seated, two moles, fired — all kept on the tablet.
  await seatTable(page, `[data-table-id="${r.tables.S1}"]`);
  await page.waitForFunction(() => location.hash.startsWith('#/order/'));
  const s1 = (await page.evaluate(() => location.hash)).split('/').pop()!;
  await press(page, `[data-dish-id="${r.menu.mole}"]`);
  await page.waitForFunction(() => document.querySelectorAll('.ticket-pane .line').length === 1);
  await press(page, `[data-dish-id="${r.menu.mole}"]`);
  // Tapped again: the same line, two of them (issue 59's fast entry), offline as online.
  await page.waitForFunction(() => document.querySelector('.ticket-pane .line .line-qty')?.textContent?.startsWith('2'));
  t.equal((await lines(page)).length, 1, 'one line of two moles');
  await press(page, '#fire-all');
  await page.waitForFunction(() => document.querySelectorAll('.ticket-pane .line.ks-sent').length === 1);
  t.equal(await waitingOf(page), 4, 'four writes kept: the seat, two dishes, the fire');

  // A reload in the middle of the cut: the outbox and what it shows are still there.
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('.ticket-pane .line.ks-sent').length === 1, { timeout: 15_000 });
  t.match((await lines(page)).join('|'), /2 ×[\s\S]*Mole poblano/, 'the two moles, sent, after the reload');
  t.match(await page.$eval('#order-total', (e) => e.textContent), /\$370\.00/, 'priced from the menu kept on the tablet');
  t.match(await page.$eval('#offline-banner', (e) => e.textContent), /4 changes kept on this tablet since \d\d:\d\d/, 'the banner: how many and since when');
  t.same(await shoot(page, 'offline-order'), [], 'the offline order screen fits both sizes');

  // Another tablet (online) seats S2; this one, offline, still sees it free and seats it too.
  const tomas = new Client(pos.url);
  await tomas.login('Tomás', '1470');
  const tomasId = ((await tomas.get('/auth/me')).body as { id: string }).id;
  t.equal((await tomas.post('/orders', { user_id: tomasId, table_id: r.tables.S2, waiter: 'Tomás' })).status, 201, 'Tomás seats S2');
  await press(page, '.top .nav');
  await seatTable(page, `[data-table-id="${r.tables.S2}"][data-status="available"]`);
  await page.waitForFunction((id) => location.hash.startsWith('#/order/') && !location.hash.endsWith(id), {}, s1);
  await press(page, `[data-dish-id="${r.menu.agua}"]`);
  await page.waitForFunction(() => document.querySelectorAll('.ticket-pane .line').length === 1);

  // Cash on S3's bill, offline: change given; a card says it needs the network.
  await page.evaluate((id) => { location.hash = `#/bill/${id}`; }, billed);
  await press(page, `[data-ticket-id="${bill.id}"] .pay`);
  await press(page, '[data-method="card"]');
  t.match(await page.$eval('#needs-network', (e) => e.textContent), /Card needs the network/, 'a card payment says it needs the network');
  t.ok(await page.$eval('#take-payment', (e) => (e as HTMLButtonElement).disabled), 'and cannot be taken');
  await press(page, '[data-method="cash"]');
  await press(page, '#take-payment');
  await waitText(page, /Change \$0\.00/, '#change');
  await closeSheet(page);
  t.equal(await waitingOf(page), 7, 'seven writes kept');

  // Back online: sent in order, once each; the seat of S2 refused, shown with what to do.
  await page.setOfflineMode(false);
  await page.waitForSelector('#refusals', { timeout: 30_000 });
  await page.waitForFunction(() => !document.querySelector('#offline-banner'), { timeout: 30_000 });
  const refused = await page.$eval('#refusals', (e) => e.textContent ?? '');
  t.match(refused, /Seating a new order/, 'the refused seat is named');
  t.match(refused, /seat the guests at another table/, 'with what to do');
  t.match(refused, /Adding 1 × Agua de horchata[\s\S]*Not sent/, 'and the dish on it, not sent');
  t.same(await shoot(page, 'refusals'), [], 'the refusals fit both sizes');

  const s1Now = (await marisol.get(`/orders/${s1}/complete`)).body as Complete;
  t.equal(s1Now.order.table_id, r.tables.S1, 'the order seated offline has the id the tablet gave it');
  t.same(s1Now.dishes.map((l) => [l.dish_id, l.quantity, l.kitchen_status]), [[r.menu.mole, 2, 'sent']], 'two moles on one line, fired once');
  t.equal(await waiterAtTable(marisol, r.tables.S2!), 'Tomás', "S2 is Tomás's");
  t.same(await paymentsOn(marisol, billed), [['cash', bill.due]], 'the cash taken offline, once');
  t.same(await openOrdersOf(marisol, 'Marisol'), [billed, s1, elsewhere].sort(), "Marisol's open orders: S3's, S4's and the one seated offline, no other");

  // Read and dismissed: gone from the tablet.
  await page.$$eval('#refusals .refusal button', (bs) => bs.forEach((b) => (b as HTMLButtonElement).click()));
  await page.waitForSelector('#refusals', { hidden: true });
  t.pass('the refusals are dismissed once read');
});
