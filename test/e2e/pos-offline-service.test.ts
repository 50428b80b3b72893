import t from 'tap';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { CHROMIUM, openChromium } from '../src/chromium.js';
import { Client } from '../src/http-client.js';
import { LANDSCAPE, closeSheet, press, shoot, signIn, tablet, seatTable } from '../src/pos-browser.js';
import { billBeforeTheCut, openOrdersOf, paymentsOn, posRestaurant, waiterAtTable } from '../src/pos-setup.js';
import { startStandalone } from '../src/standalone-process.js';

type Complete = { order: { id: string; table_id: string | null; waiter: string }; dishes: Array<{ dish_id: string; kitchen_status: string }> };
type KitchenTicket = { order_id: string; fired_at: string };

const MINUTE = 60_000;
const SHIFT = 'e2e-clock-shift';

/**
 * The page's clock, moved on by the test: Date and Date.now run `shift` ms ahead of the real clock
 * (kept in localStorage, so it holds across reloads and restarts). Timers keep real time: the cut's
 * 30 minutes are what the tablet's clock says, not 30 minutes of the test.
 */
function shiftedClock(key: string) {
  const Real = Date;
  const shift = () => {
    try {
      return Number(localStorage.getItem(key)) || 0;
    } catch {
      return 0;
    }
  };
  globalThis.Date = new Proxy(Real, {
    construct: (target, args) => (args.length === 0 ? new target(Real.now() + shift()) : Reflect.construct(target, args)),
    get: (target, prop, receiver) => (prop === 'now' ? () => Real.now() + shift() : Reflect.get(target, prop, receiver)),
  });
}
const advance = (page: Page, ms: number) => page.evaluate((key, by) => localStorage.setItem(key, String((Number(localStorage.getItem(key)) || 0) + by)), SHIFT, ms);

/**
 * Tablet A: Chromium on a profile of its own that outlives the browser, as a tablet's storage
 * outlives a restart (IndexedDB, the service worker, the cookies), in its default context.
 */
async function launchTablet(profile: string, url: string, log: string[], offline: boolean): Promise<{ browser: Browser; page: Page }> {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', `--user-data-dir=${profile}`],
  });
  const page = (await browser.pages())[0] ?? await browser.newPage();
  await page.evaluateOnNewDocument(shiftedClock, SHIFT);
  await page.setViewport(LANDSCAPE);
  page.on('console', (m) => log.push(`A console ${m.type()}: ${m.text()}`));
  page.on('pageerror', (err) => log.push(`A pageerror: ${err}`));
  page.on('response', (res) => log.push(`A ${res.status()} ${res.request().method()} ${res.url()}`));
  page.on('requestfailed', (req) => log.push(`A failed ${req.method()} ${req.url()}: ${req.failure()?.errorText}`));
  if (offline) await page.setOfflineMode(true);
  await page.goto(`${url}/pos`);
  return { browser, page };
}

const waitingOf = (page: Page) => page.$eval('#offline-banner', (e) => Number((e as HTMLElement).dataset.waiting));
/**
 * A wait on tablet A that names, when it times out, what the screen showed and the last requests of
 * the API (the CI prints only the failure's first lines).
 */
async function waitOnA(page: Page, log: string[], what: () => boolean): Promise<void> {
  await page.waitForFunction(what).catch(async (error: Error) => {
    const shown = await page.evaluate(() => `${location.hash}: ${document.querySelector('main')?.textContent?.replace(/\s+/g, ' ').slice(0, 300)}`).catch((e: Error) => e.message);
    throw new Error(`${error.message}; tablet A showed ${shown}; its last API requests: ${log.filter((l) => /^A .*(\/orders|\/auth)/.test(l)).slice(-10).join(' | ')}`);
  });
}
const banner = (page: Page) => page.$eval('#offline-banner', (e) => e.textContent ?? '');

/** Seats a table on the floor, adds dishes one tap each, fires them: the order's id (from the screen). */
async function takeOrder(page: Page, table: string, dishes: string[]): Promise<string> {
  await press(page, '.top .nav');
  await seatTable(page, `[data-table-id="${table}"][data-status="available"]`);
  await page.waitForFunction(() => location.hash.startsWith('#/order/'));
  for (const [i, dish] of dishes.entries()) {
    await press(page, `[data-dish-id="${dish}"]`);
    await page.waitForFunction((n) => document.querySelectorAll('.ticket-pane .line').length === n, {}, i + 1);
  }
  await press(page, '#fire-all');
  await page.waitForFunction((n) => document.querySelectorAll('.ticket-pane .line.ks-sent').length === n, {}, dishes.length);
  return (await page.evaluate(() => location.hash)).split('/').pop()!;
}

/**
 * A service through a 30-minute cut (the tablet's clock moved on), with a reload and a browser
 * restart in the middle: tablet A (offline) takes three orders and fires them, seats a table tablet B
 * (online, in Chromium too) took meanwhile, adds a dish the manager has sold out ("86", issue 60),
 * and takes cash. Its access token has expired by the end of the cut. Back online: the session is
 * renewed, every write applied once, the kitchen gets the three fires in the order they were made,
 * and the two refusals are shown on A with what happened and what to do. Then a session ended on the
 * server during a cut: the PIN is asked again and the write kept meanwhile is sent after it.
 */
t.test('offline service: 30 minutes, a reload, a restart, two tablets, a sold-out dish, fires in order', async (t) => {
  if (!existsSync(CHROMIUM)) {
    t.fail(`no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-pos-offline-service-'));
  const profile = mkdtempSync(join(tmpdir(), 'comanda-tablet-a-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  t.teardown(() => rmSync(profile, { recursive: true, force: true }));
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234' });
  t.teardown(() => pos.stop());
  const r = await posRestaurant(pos.url);
  const log: string[] = [];
  t.teardown(() => { if (t.passing() === false) console.error(log.filter((l) => !/ 304 GET|ERR_INTERNET_DISCONNECTED|\/assets\//.test(l)).slice(-250).join('\n')); });

  // Before the cut: a bill for S3, the till open; tablet A visited once (the app kept, the bill read).
  const { marisol, billed, bill } = await billBeforeTheCut(pos.url, r, r.tables.S3!, r.menu.agua!);
  let a = await launchTablet(profile, pos.url, log, false);
  t.teardown(() => a.browser.close());
  await signIn(a.page, 'Marisol', '2580');
  await a.page.waitForFunction(() => navigator.serviceWorker.controller !== null, { timeout: 15_000 });
  await a.page.evaluate((id) => { location.hash = `#/bill/${id}`; }, billed);
  await a.page.waitForSelector(`[data-ticket-id="${bill.id}"]`);

  // The cut. First order, at the tablet's 0:00.
  await a.page.setOfflineMode(true);
  const cutAt = await a.page.evaluate(() => Date.now());
  const o1 = await takeOrder(a.page, r.tables.S1!, [r.menu.mole!]);
  const since = /since (\d\d:\d\d)/.exec(await banner(a.page))?.[1];
  t.ok(since, `the banner says since when writes wait (${since})`);

  // 0:10, a reload: second order.
  await advance(a.page, 10 * MINUTE);
  await a.page.reload();
  await a.page.waitForSelector('header.top', { timeout: 15_000 });
  const o2 = await takeOrder(a.page, r.tables.S4!, [r.menu.sopa!]);
  t.equal(await waitingOf(a.page), 6, 'six writes kept: two seats, two dishes, two fires');

  // Meanwhile, online: tablet B seats S2; the manager 86es the guacamole (it stays on the menu, sold out).
  const b = await openChromium();
  t.teardown(b.close);
  const tabletB = await tablet(b.browser, pos.url, log, 'B');
  await signIn(tabletB, 'Tomás', '1470');
  await seatTable(tabletB, `[data-table-id="${r.tables.S2}"][data-status="available"]`);
  await tabletB.waitForFunction(() => location.hash.startsWith('#/order/'));
  t.equal((await r.admin.put(`/dishes/${r.menu.guacamole}/stock`, { sold_out: true })).status, 200, 'the guacamole is sold out');

  // 0:20, the tablet restarts, still with no network: the app, the session and the outbox are there.
  await advance(a.page, 10 * MINUTE);
  await a.browser.close();
  a = await launchTablet(profile, pos.url, log, true);
  await a.page.waitForSelector(`[data-table-id="${r.tables.S1}"][data-status="occupied"]`, { timeout: 20_000 });
  t.match(await banner(a.page), new RegExp(`6 changes kept on this tablet since ${since}`), 'after the restart: the six writes, since the cut began');

  // Third order, with the guacamole the tablet still offers; S2, which B took, looks free here.
  const o3 = await takeOrder(a.page, r.tables.S5!, [r.menu.mole!, r.menu.guacamole!]);
  await press(a.page, '.top .nav');
  await seatTable(a.page, `[data-table-id="${r.tables.S2}"][data-status="available"]`);
  await a.page.waitForFunction(() => location.hash.startsWith('#/order/'));
  // Cash on S3's bill.
  await a.page.evaluate((id) => { location.hash = `#/bill/${id}`; }, billed);
  await press(a.page, `[data-ticket-id="${bill.id}"] .pay`);
  await press(a.page, '[data-method="cash"]');
  await press(a.page, '#take-payment');
  await a.page.waitForSelector('#change');
  await closeSheet(a.page);
  await press(a.page, '.top .nav');
  await a.page.waitForSelector(`[data-table-id="${r.tables.S5}"][data-status="occupied"]`);

  // 0:30: the access token has long expired (the browser drops its cookie); the refresh token is kept.
  await advance(a.page, 10 * MINUTE);
  t.ok(await a.page.evaluate((at) => Date.now() - at, cutAt) >= 30 * MINUTE, "30 minutes on the tablet's clock");
  t.equal(await waitingOf(a.page), 12, 'twelve writes kept: four seats, four dishes, three fires, the cash');
  t.match(await banner(a.page), new RegExp(`No connection to the POS — 12 changes kept on this tablet since ${since}`), 'the banner: how many and since when');
  // The floor shows its tables first and each one's total once the kept open orders are read back
  // from the tablet (a moment later on a busy machine): wait for the five totals, then compare them.
  await a.page.waitForFunction(() => [...document.querySelectorAll('[data-table-id] .tile-total')]
    .filter((e) => /^S[1-5]/.test(e.closest('[data-table-id]')!.textContent!)).length >= 5, { timeout: 10_000 }).catch(() => undefined);
  const totals = await a.page.$$eval('[data-table-id] .tile-total', (ts) => ts.map((e) => `${e.closest('[data-table-id]')!.textContent!.slice(0, 2)} ${e.textContent}`));
  t.same(totals.filter((x) => /^S[1-5]/.test(x)).sort(), ['S1 $185.00 MXN', 'S2 $0.00 MXN', 'S3 $70.00 MXN', 'S4 $95.00 MXN', 'S5 $305.00 MXN'], "the floor's totals count the dishes added offline");
  t.same(await shoot(a.page, 'offline-service-floor'), [], 'the offline floor fits both sizes');
  const cdp = await a.page.createCDPSession();
  const cookies = (await cdp.send('Network.getCookies', { urls: [pos.url] })).cookies.map((c) => c.name);
  t.ok(cookies.includes('refreshToken'), 'the session outlived the restart');
  await cdp.send('Network.deleteCookies', { name: 'accessToken', url: pos.url });

  // Back online.
  const back = log.length;
  await a.page.setOfflineMode(false);
  await a.page.waitForFunction(() => document.querySelectorAll('#refusals .refusal').length === 2, { timeout: 45_000 });
  await a.page.waitForFunction(() => !document.querySelector('#offline-banner'), { timeout: 30_000 });
  t.ok(log.slice(back).some((l) => /^A 200 POST .*\/auth\/refresh$/.test(l)), 'the expired access token was renewed, no PIN asked');
  const refused = await a.page.$eval('#refusals', (e) => (e as HTMLElement).innerText);
  t.match(refused, /Seating a new order[\s\S]*seat the guests at another table/, "the seat of S2 refused, with what to do");
  t.match(refused, /Table S2 already has an active order/, 'what happened');
  t.match(refused, /Adding 1 × Guacamole, done \d\d:\d\d: Guacamole is sold out[\s\S]*offer something else/, 'the sold-out guacamole named, with what to do');
  t.same(await shoot(a.page, 'offline-service-refusals'), [], 'the refusals fit both sizes');
  await a.page.reload();
  await a.page.waitForSelector('#refusals .refusal');
  t.match(await a.page.$eval('#refusals', (e) => (e as HTMLElement).innerText), /Adding 1 × Guacamole/, 'a reload later, the refusal still names the dish');

  // Through the API: each write once, the kitchen's tickets in the order the fires were made.
  const dishesOf = async (id: string) => ((await marisol.get(`/orders/${id}/complete`)).body as Complete).dishes.map((l) => [l.dish_id, l.kitchen_status]);
  t.same(await dishesOf(o1), [[r.menu.mole, 'sent']], 'first order: a mole, fired once');
  t.same(await dishesOf(o2), [[r.menu.sopa, 'sent']], 'second order: a soup, fired once');
  t.same(await dishesOf(o3), [[r.menu.mole, 'sent']], 'third order: the mole fired, no guacamole');
  const chef = new Client(pos.url);
  await chef.login('Chef', '3690');
  const tickets = (await chef.get(`/kitchen/tickets?station_id=${r.stations.kitchen}`)).body as KitchenTicket[];
  t.same(tickets.map((k) => k.order_id), [o1, o2, o3], 'the kitchen got the three fires, in order');
  t.ok(tickets.every((k, i) => i === 0 || k.fired_at >= tickets[i - 1]!.fired_at), 'fired one after the other');
  t.equal(await waiterAtTable(marisol, r.tables.S2!), 'Tomás', "S2 stays Tomás's");
  t.same(await paymentsOn(marisol, billed), [['cash', bill.due]], 'the cash taken offline, once');
  t.same(await openOrdersOf(marisol, 'Marisol'), [billed, o1, o2, o3].sort(), "Marisol's open orders: S3's and the three taken offline, no other");

  // Another cut; a beer for S1 kept. Meanwhile the session is ended on the server (revoked, as a
  // sign-out elsewhere does) and the access token expires: back online, the PIN is asked again and
  // the beer, kept meanwhile, is sent once the waiter has signed in.
  // (An order is kept on the tablet once it has been opened there: S1's is opened before the cut.)
  await a.page.evaluate((id) => { location.hash = `#/order/${id}`; }, o1);
  await waitOnA(a.page, log, () => document.querySelectorAll('.ticket-pane .line').length === 1);
  await a.page.setOfflineMode(true);
  // The waiter taps once the banner says the network is away (it pushes the screen down: the beer's
  // row then sits under the order's action bar until scrolled, as the fresh-clone CI, slower, found).
  await a.page.waitForSelector('#offline-banner');
  await press(a.page, `[data-dish-id="${r.menu.cerveza}"]`);
  await waitOnA(a.page, log, () => document.querySelectorAll('.ticket-pane .line').length === 2);
  const session = (await cdp.send('Network.getCookies', { urls: [pos.url] })).cookies.find((c) => c.name === 'refreshToken')!;
  t.equal((await fetch(`${pos.url}/auth/logout`, { method: 'POST', headers: { cookie: `refreshToken=${session.value}` } })).status, 200, "the tablet's session ended on the server");
  await cdp.send('Network.deleteCookies', { name: 'accessToken', url: pos.url });
  await a.page.setOfflineMode(false);
  await a.page.waitForSelector('#login-name', { timeout: 30_000 });
  // The PIN pad shows at a poll's refused refresh; the outbox learns it at its own write's, a moment
  // later (0.5 s here): until then the banner says it is sending.
  await a.page.waitForFunction(() => /sent when you sign in/.test(document.querySelector('#offline-banner')?.textContent ?? ''), { timeout: 10_000 }).catch(() => undefined);
  t.match(await banner(a.page), /1 change kept on this tablet since \d\d:\d\d: sent when you sign in/, 'the PIN pad, the beer still kept');
  t.same(await dishesOf(o1), [[r.menu.mole, 'sent']], 'not sent without a session');
  t.same(await shoot(a.page, 'offline-service-pin'), [], 'the PIN pad with the writes kept fits both sizes');
  await signIn(a.page, 'Marisol', '2580');
  await a.page.waitForFunction(() => !document.querySelector('#offline-banner'), { timeout: 30_000 });
  t.same(await dishesOf(o1), [[r.menu.mole, 'sent'], [r.menu.cerveza, 'pending']], 'signed in again: the beer sent, once');
});
