import t from 'tap';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../src/http-client.js';
import { CHROMIUM, openChromium } from '../src/chromium.js';
import { demoMonth, openTickets } from '../src/kitchen-history.js';
import { startStandalone } from '../src/standalone-process.js';

const SHOTS = process.env.KITCHEN_SCREENSHOTS ?? tmpdir();
const OPEN = 2_000;
// A month generated, 2,000 tickets written, a first start over it all and Chromium on a shared machine.
t.setTimeout(300_000);

/**
 * The kitchen display after a month: `demo-data --days 30` (which bumps and closes tickets as a kitchen
 * does) plus 2,000 genuinely open tickets on one station. Asserted loosely so the test does not flake
 * (first paint < 5 s, a ticket fired through the API on screen < 2 s); the tight figures are
 * `npm run bench`'s. Screenshots of the full board, the expo screen and portrait are written to SHOTS.
 */
t.test('a month of history and 2,000 open tickets: first paint, a fired ticket, a bump and its undo, recall, expo, portrait', async (t) => {
  if (!existsSync(CHROMIUM)) {
    t.fail(`no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-kds-month-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  await demoMonth(dataDir);
  const station = await openTickets(dataDir, OPEN);
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', COMANDA_KITCHEN_AUTO_BUMP_MINUTES: '30' }, { startTimeoutMs: 150_000 });
  t.teardown(() => pos.stop());
  const admin = new Client(pos.url);
  await admin.login('admin', '1234');
  const stations = (await admin.get('/stations')).body as Array<{ id: string; name: string }>;
  const other = stations.find((s) => s.id !== station)!.id;
  t.equal(Number((await admin.get(`/kitchen/tickets?station_id=${station}&limit=1`)).headers.get('x-total-count')), OPEN, 'the month left nothing else open: the demo bumps and closes');
  t.equal(Number((await admin.get(`/kitchen/tickets?station_id=${other}&limit=1`)).headers.get('x-total-count')), 0);

  const chromium = await openChromium();
  t.teardown(chromium.close);
  const { page } = chromium;
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(String(err)));
  // A 401 before the login (the page asks who is there) and a missing favicon are expected; script errors and 5xx are not.
  page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text()); });
  page.on('response', (res) => { if (res.status() >= 500) problems.push(`${res.status()} ${res.url()}`); });

  // First paint of the full board, from the login tap.
  await page.goto(`${pos.url}/kitchen?station=${station}`);
  await page.waitForSelector('#login-name');
  await page.type('#login-name', 'admin');
  for (const digit of '1234') await page.click(`.keypad [data-key="${digit}"]`);
  let t0 = Date.now();
  await page.click('.keypad .enter');
  await page.waitForSelector('body[data-painted]', { timeout: 30_000 });
  const firstPaint = Date.now() - t0;
  t.equal(await page.$$eval('article.ticket', (cards) => cards.length), OPEN, 'every open ticket is on the board');
  // How fast is the bench's to say (kitchen display first paint < 2 s): a test on a shared machine
  // reports the time it saw.
  t.comment(`first paint: ${OPEN} open tickets after a month, ${firstPaint} ms from the login tap`);
  t.match(await page.$eval('article.ticket', (c) => c.textContent), /2 × /, 'two identical plain lines shown once as "2 ×"');
  t.match(await page.$eval('#allday', (e) => e.textContent), /\d{3,}/, 'all-day counts per dish');
  t.equal(await page.$eval('#counts', (e) => e.textContent), `${OPEN} open`);
  await page.screenshot({ path: join(SHOTS, 'comanda-kitchen-full-board.png') });

  // The sound turned on: a new ticket chimes (counted on the button).
  await page.click('#sound');
  t.equal(await page.$eval('#sound', (b) => b.getAttribute('aria-pressed')), 'true');
  t.equal(await page.$eval('body', (b) => b.dataset.awake), 'true', 'the screen is kept awake (Wake Lock API)');

  // A ticket fired through the API appears; its header tap bumps it; undo brings it back.
  const dishes = (await admin.get('/dishes')).body as Array<{ id: string; category_id: string }>;
  const categories = (await admin.get('/categories')).body as Array<{ id: string; station_id: string | null }>;
  const dish = dishes.find((d) => categories.find((c) => c.id === d.category_id)?.station_id === station)!;
  const me = (await admin.get('/auth/me')).body as { id: string };
  const orderId = ((await admin.post('/orders', { user_id: me.id, table_id: null, waiter: 'Admin' })).body as { id: string }).id;
  await admin.post(`/orders/${orderId}/dishes`, [{ dish_id: dish.id, notes: 'prueba en vivo' }]);
  t0 = Date.now();
  const fired = (await admin.post(`/orders/${orderId}/fire`)).body as { tickets: Array<{ id: string }> };
  const ticket = fired.tickets[0]!.id;
  await page.waitForSelector(`article[data-ticket-id="${ticket}"]`, { timeout: 10_000 });
  const appeared = Date.now() - t0;
  t.comment(`fire → on screen: ${appeared} ms (the bench's target: p99 < 100 ms)`);
  t.equal(await page.$$eval('article.ticket', (cards) => cards.length), OPEN + 1);
  t.equal(await page.$eval('#sound', (b) => b.dataset.played), '1', 'the new ticket chimed once');

  // Cards far down the board are laid out only once near the screen (content-visibility): scrolled
  // there first and given a frame, so the tap lands where the card finally is.
  const tap = async (selector: string) => {
    await page.$eval(selector, (e) => e.scrollIntoView({ block: 'center' }));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.click(selector);
  };
  const gone = async (selector: string, ms = 10_000) => {
    const until = Date.now() + ms;
    while (await page.$(selector)) {
      if (Date.now() > until) throw new Error(`${selector} still on the page after ${ms} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  t0 = Date.now();
  await tap(`article[data-ticket-id="${ticket}"] .ticket-header`);
  await gone(`article[data-ticket-id="${ticket}"]`);
  const bump = Date.now() - t0;
  t.comment(`bump tap → off the board: ${bump} ms`);
  await page.waitForSelector('#undo');
  t.match(await page.$eval('#undo-text', (e) => e.textContent), /Bumped Take-away/);
  await page.click('#undo-button');
  await page.waitForSelector(`article[data-ticket-id="${ticket}"]`);
  t.pass('undo recalls the bumped ticket');

  // Recall: the list offers the last bumped tickets.
  await tap(`article[data-ticket-id="${ticket}"] .ticket-header`);
  await gone(`article[data-ticket-id="${ticket}"]`);
  await page.click('#recall');
  await page.waitForSelector(`#recall-list [data-ticket-id="${ticket}"]`);
  // A bump confirmed while the list is open joins it (another screen bumps one now; the list used to
  // stay as it was when opened, so a bump the server confirmed just after the tap was missing).
  const another = ((await admin.get(`/kitchen/tickets?station_id=${station}&limit=1`)).body as Array<{ id: string }>)[0]!.id;
  t.equal((await admin.post(`/kitchen/tickets/${another}/bump`)).status, 200);
  await page.waitForSelector(`#recall-list [data-ticket-id="${another}"]`, { timeout: 10_000 });
  t.pass('a bump confirmed while the recall list is open joins it');
  await page.screenshot({ path: join(SHOTS, 'comanda-kitchen-recall.png') });
  t.equal((await admin.post(`/kitchen/tickets/${another}/recall`)).status, 200);
  await page.waitForFunction((id) => !document.querySelector(`#recall-list [data-ticket-id="${id}"]`), { timeout: 10_000 }, another);
  await page.click(`#recall-list [data-ticket-id="${ticket}"]`);
  await page.waitForSelector(`article[data-ticket-id="${ticket}"]`);
  t.pass('recalled from the list');

  // Its line done: every line ready, the auto-bump countdown shows.
  await tap(`article[data-ticket-id="${ticket}"] .line`);
  await page.waitForFunction((id) => /auto-bump 29:\d\d/.test(document.querySelector(`[data-ticket-id="${id}"] .hint`)?.textContent ?? ''), { timeout: 5_000 }, ticket);
  t.pass('a ready ticket counts down to its auto-bump');

  // The order is cancelled: the ticket is closed and leaves the board.
  await admin.put(`/orders/${orderId}`, { user_id: me.id, table_id: null, waiter: 'Admin', status: 'cancelled' });
  await gone(`article[data-ticket-id="${ticket}"]`);
  t.pass('a ticket whose order is cancelled leaves the board');

  // Expo: every line of the oldest order cooked (through the API, as the grill's screen would): that
  // order is highlighted for the runners; tapped when served, its ticket is bumped and it leaves.
  const oldest = ((await admin.get(`/kitchen/tickets?station_id=${station}&limit=1`)).body as Array<{ id: string; order_id: string; lines: Array<{ line_id: string }> }>)[0]!;
  for (const l of oldest.lines) t.equal((await admin.post(`/kitchen/tickets/${oldest.id}/lines/${l.line_id}/done`)).status, 200);
  await page.select('#station', 'expo');
  await page.waitForFunction((n) => document.querySelectorAll('#tickets.expo article.order').length === n, { timeout: 30_000 }, OPEN);
  t.pass('expo: one card per order');
  const ready = `article.order.ready[data-order-id="${oldest.order_id}"]`;
  await page.waitForSelector(ready);
  t.equal(await page.$$eval('article.order.ready', (cards) => cards.length), 1, 'only the order whose every line is done is highlighted');
  t.match(await page.$eval(ready, (c) => c.textContent), /READY/);
  await page.screenshot({ path: join(SHOTS, 'comanda-kitchen-expo.png') });
  await tap(`${ready} .ticket-header`);
  await gone(`article.order[data-order-id="${oldest.order_id}"]`);
  t.match((await admin.get(`/kitchen/tickets?station_id=${station}&status=done&limit=1`)).body, [{ id: oldest.id, status: 'done' }], 'served: its ticket bumped');

  await page.select('#station', station);
  await page.waitForFunction((n) => document.querySelectorAll('#tickets:not(.expo) article.ticket').length === n, { timeout: 30_000 }, OPEN - 1);
  await page.setViewport({ width: 800, height: 1280 });
  const bar = await page.$eval('#bar', (b) => ({ height: b.getBoundingClientRect().height, tops: [...b.children].filter((c) => (c as HTMLElement).offsetParent !== null).map((c) => Math.round(c.getBoundingClientRect().top + c.getBoundingClientRect().height / 2)) }));
  t.ok(bar.height <= 80, `portrait: the bar stays one line (${bar.height} px)`);
  t.ok(bar.tops.every((y) => Math.abs(y - bar.tops[0]!) <= 4), 'portrait: every control on one row');
  await page.screenshot({ path: join(SHOTS, 'comanda-kitchen-portrait.png') });
  t.same(problems, [], 'no errors in the page');
});
