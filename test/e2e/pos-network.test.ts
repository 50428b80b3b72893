import t from 'tap';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HTTPRequest } from 'puppeteer-core';
import { CHROMIUM, openChromium } from '../src/chromium.js';
import { Client } from '../src/http-client.js';
import { closeSheet, press, shoot, signIn, tablet, waitText } from '../src/pos-browser.js';
import { posRestaurant } from '../src/pos-setup.js';
import { startStandalone } from '../src/standalone-process.js';

type Payment = { id: string; method: string; amount: number };
type Bill = { id: string; total: number; due: number; payments: Payment[] };

/**
 * The POS on a restaurant's Wi-Fi: a session that outlives its access token and ends when revoked, a
 * payment whose answer is lost on the way back, and a write made while the network is gone. Whatever
 * happens, a payment is taken exactly once.
 */
t.test('the POS on a bad network: sessions refresh and end cleanly, a payment whose answer was lost is taken once', async (t) => {
  if (!existsSync(CHROMIUM)) {
    t.fail(`no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-pos-net-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234' });
  t.teardown(() => pos.stop());
  const r = await posRestaurant(pos.url);
  // A new build reaches the tablets: the page is asked again every time, its hashed assets kept a year.
  const html = await fetch(`${pos.url}/pos`);
  t.equal(html.headers.get('cache-control'), 'no-cache', 'the page is revalidated');
  const script = (await html.text()).match(/src="(\/pos\/assets\/[\w-]+\.js)"/)?.[1];
  t.equal((await fetch(`${pos.url}${script}`)).headers.get('cache-control'), 'public, max-age=31536000, immutable', 'its assets are kept');
  const chromium = await openChromium();
  t.teardown(chromium.close);
  const log: string[] = [];
  t.teardown(() => { if (t.passing() === false) console.error(log.slice(-200).join('\n')); });

  // An order with two even bills, placed by Marisol over HTTP; her tablet takes the payments.
  const waiter = new Client(pos.url);
  await waiter.login('marisol', '2580');
  const me = (await waiter.get('/auth/me')).body as { id: string };
  const orderId = ((await waiter.post('/orders/with-dishes', {
    order: { user_id: me.id, table_id: r.tables.S2, waiter: 'Marisol' }, dishes: [{ dish_id: r.menu.mole, quantity: 2 }],
  })).body as { id: string }).id;
  t.equal((await r.admin.post('/shifts/open', { cash_float: 100 })).status, 201, 'the till is open');
  const bills = async () => (await waiter.get(`/orders/${orderId}/tickets`)).body as Bill[];

  const page = await tablet(chromium.browser, pos.url, log, 'marisol');
  await signIn(page, 'Marisol', '2580');
  await page.waitForSelector(`[data-table-id="${r.tables.S2}"]`);
  await press(page, `[data-table-id="${r.tables.S2}"]`);
  await press(page, '#to-bill');
  await press(page, '[data-split="even"]');
  await press(page, '#issue-bill');
  await page.waitForFunction(() => document.querySelectorAll('.ticket-card').length === 2);
  const [first, second] = await bills();
  t.same([first!.total, second!.total], [185, 185], 'split evenly in two on the tablet');
  await press(page, '.top .nav');

  // The access token expires (the browser drops the cookie): the next read refreshes, nobody signs in.
  const refreshes = () => log.filter((l) => /marisol 200 POST \S+\/auth\/refresh$/.test(l)).length;
  await page.deleteCookie({ name: 'accessToken', url: pos.url });
  // (The order, not the till: the till is a manager's screen since issue 59, and Marisol waits tables.)
  await page.evaluate((id) => { location.hash = `#/order/${id}`; }, orderId);
  await page.waitForSelector('.order .dishes .dish');
  t.equal(refreshes(), 1, `one refresh, on the first 401 (${log.filter((l) => /auth\/refresh/.test(l)).join(', ')})`);
  t.notOk(await page.$('#login-name'), 'still signed in after the access token expired');

  // The answer to a cash payment is lost on its way back: the server took it, the tablet never heard.
  await page.evaluate((id) => { location.hash = `#/bill/${id}`; }, orderId);
  await press(page, `[data-ticket-id="${first!.id}"] .pay`);
  // Meanwhile another tablet takes 85 in cash on the same bill: the open sheet asks what is now due.
  t.equal(await page.$eval('#pay-amount', (e) => (e as HTMLInputElement).value), '185');
  t.equal((await waiter.post(`/tickets/${first!.id}/payments`, { method: 'cash', amount: 85 })).status, 201, '85 taken on another tablet');
  await page.waitForFunction(() => (document.querySelector('#pay-amount') as HTMLInputElement | null)?.value === '100', { timeout: 10_000 });
  t.match(await page.$eval('.pay-sheet h3', (e) => e.textContent), /due \$100\.00/, 'the open sheet asks what is now due');
  await page.setRequestInterception(true);
  let cut = 0;
  const keys: string[] = [];
  page.on('request', (request: HTTPRequest) => {
    if (request.isInterceptResolutionHandled()) return;
    if (request.method() === 'POST' && /\/tickets\/[^/]+\/payments$/.test(request.url())) keys.push(request.headers()['idempotency-key'] ?? '');
    if (request.method() === 'POST' && /\/tickets\/[^/]+\/payments$/.test(request.url()) && cut === 0) {
      cut++;
      void (async () => {
        // The request reaches the server (sent from here, with the tablet's cookies), the answer does not.
        const cookies = (await page.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
        const res = await fetch(request.url(), { method: 'POST', headers: { ...request.headers(), cookie: cookies }, body: (await request.fetchPostData()) ?? request.postData() });
        log.push(`forwarded: ${res.status}`);
        await request.abort('connectionreset');
      })();
      return;
    }
    void request.continue();
  });
  await press(page, '#take-payment');
  await waitText(page, /Change \$0\.00 MXN/, '#change');
  await closeSheet(page);
  await page.waitForSelector(`[data-ticket-id="${first!.id}"].paid`);
  t.equal(cut, 1, 'the first answer was cut');
  t.equal(keys.length, 2, 'the tablet sent the payment again');
  t.equal(keys[0], keys[1], 'with the same Idempotency-Key');
  const afterCut = (await bills()).find((b) => b.id === first!.id)!;
  t.same(afterCut.payments.map((p) => [p.method, p.amount]), [['cash', 85], ['cash', 100]], "the other tablet's, and exactly one from this one");

  // The network goes away while the second payment is sent: the banner says so, and it lands once back.
  await press(page, `[data-ticket-id="${second!.id}"] .pay`);
  await page.setOfflineMode(true);
  await press(page, '#take-payment');
  await page.waitForSelector('#offline-banner', { timeout: 10_000 });
  // The banner says "Sending…" until the first attempt fails, then that the network is away.
  t.match(await waitText(page, /No connection[\s\S]*1 change kept on this tablet since \d\d:\d\d/, '#offline-banner'), /No connection/, 'the banner, with the payment waiting');
  await shoot(page, 'offline');
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  await page.setOfflineMode(false);
  await waitText(page, /Change \$0\.00 MXN/, '#change', 20_000);
  await page.waitForFunction(() => !document.querySelector('#offline-banner'));
  await closeSheet(page);
  const afterOffline = (await bills()).find((b) => b.id === second!.id)!;
  t.same(afterOffline.payments.map((p) => [p.method, p.amount]), [['cash', 185]], 'the payment sent while offline is taken once');

  // Signing out goes back to the PIN pad with the name offered on this device; a revoked member is sent there too.
  await press(page, '#sign-out');
  await page.waitForSelector('#login-name');
  t.ok(await page.$('[data-staff-name="Marisol"]'), 'the name is remembered on this device, to pick');
  const tomas = await tablet(chromium.browser, pos.url, log, 'tomas');
  await signIn(tomas, 'Tomás', '1470');
  await tomas.waitForSelector('.tiles');
  const tomasId = ((await r.admin.get('/users')).body as Array<{ id: string; name: string }>).find((u) => u.name === 'Tomás')!.id;
  t.equal((await r.admin.delete(`/users/${tomasId}`)).status, 200, 'the manager removes Tomás');
  await tomas.waitForSelector('#login-name', { timeout: 10_000 });
  t.pass("a removed member's tablet is back at the PIN pad at the next read");
});
