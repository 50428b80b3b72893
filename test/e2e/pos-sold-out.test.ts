import t from 'tap';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { CHROMIUM, openChromium } from '../src/chromium.js';
import { press, shoot, signIn, tablet, waitText, waiterAtTable } from '../src/pos-browser.js';
import { posRestaurant } from '../src/pos-setup.js';
import { startStandalone } from '../src/standalone-process.js';

/**
 * A dish sold out ("86", issue 60) during service, in Debian's Chromium against a real standalone: the
 * manager 86es the guacamole and counts the soup on the POS's 86 sheet; the waiter's open order screen
 * greys the guacamole within seconds without a reload and a tap on it says so instead of sending; the
 * kitchen display lists it; back on sale, the waiter adds it.
 */
if (!existsSync(CHROMIUM)) {
  t.fail(`no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-sold-out-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234' });
  t.teardown(() => pos.stop());
  const r = await posRestaurant(pos.url);
  const log: string[] = [];
  t.teardown(() => { if (t.passing() === false) console.error(log.slice(-200).join('\n'), '\nSERVER', pos.output().slice(-3000)); });
  const problems: string[] = [];
  const look = async (page: Page, name: string) => problems.push(...(await shoot(page, name)));
  // Three devices, three sessions: each its own browser.
  const [waiterBrowser, managerBrowser, kitchenBrowser] = [await openChromium(), await openChromium(), await openChromium()];
  t.teardown(async () => (await waiterBrowser.close(), await managerBrowser.close(), await kitchenBrowser.close()));
  const guac = `[data-dish-id="${r.menu.guacamole}"]`;
  const sopa = `[data-dish-id="${r.menu.sopa}"]`;

  t.test("the manager 86es a dish: greyed on the waiter's open order within seconds, listed in the kitchen, back on sale", async (t) => {
    const marisol = await waiterAtTable(waiterBrowser.browser, pos.url, log, r.tables.S1!, guac);
    t.equal(await marisol.$('#nav-office'), null, 'a waiter has no back office in the header');
    const lupita = await tablet(managerBrowser.browser, pos.url, log, 'lupita');
    await signIn(lupita, 'Lupita', '1357');
    // The back office's hub, then its 86 tile; the hub's tiles fit both sizes too.
    await press(lupita, '#nav-office');
    await lupita.waitForSelector('#office-86');
    await look(lupita, 'office-hub');
    await press(lupita, '#office-86');
    const from = Date.now();
    await press(lupita, `[data-stock-dish="${r.menu.guacamole}"] [data-action="86"]`);
    await lupita.waitForSelector(`[data-stock-dish="${r.menu.guacamole}"].sold-out`);
    await lupita.type(`[data-stock-dish="${r.menu.sopa}"] input`, '2');
    await press(lupita, `[data-stock-dish="${r.menu.sopa}"] [data-action="count"]`);
    await waitText(lupita, /2 left/, `[data-stock-dish="${r.menu.sopa}"]`);
    await look(lupita, 'sold-out-manager');

    // The waiter's screen, never reloaded: the poll brings the 86 within seconds.
    await marisol.waitForSelector(`${guac}.sold-out`, { timeout: 10_000 });
    t.ok(Date.now() - from < 10_000, `greyed ${Date.now() - from} ms after the 86, without a reload`);
    t.match(await marisol.$eval(guac, (e) => (e as HTMLElement).innerText), /86/, 'marked 86');
    // The count was set after the 86: the poll that greyed the guacamole may have come between the two.
    t.match(await waitText(marisol, /2 left/, sopa), /2 left/, 'the counted soup says how many are left');
    t.equal(await marisol.$eval(guac, (e) => getComputedStyle(e).filter), 'grayscale(1)', 'greyed');
    await press(marisol, guac);
    await waitText(marisol, /Guacamole is sold out/, '.order [role="alert"]');
    t.equal((await marisol.$$('.ticket-pane .line')).length, 0, 'the tap sent nothing');
    await look(marisol, 'sold-out-waiter');

    // Beer served only on other days than today (restaurant time UTC): the kitchen hears when it comes back.
    const today = new Date().getUTCDay();
    const days = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].filter((_, i) => i !== today);
    t.equal((await r.admin.put(`/dishes/${r.menu.cerveza}/availability`, { windows: [{ days, from: '00:00', to: '23:59' }] })).status, 200);
    const chef = await tablet(kitchenBrowser.browser, pos.url, log, 'chef', 'kitchen-screen');
    await chef.goto(`${pos.url}/kitchen?station=${r.stations.kitchen}`);
    await signIn(chef, 'Chef', '3690', '#station');
    await waitText(chef, /86[\s\S]*Guacamole[\s\S]*Sopa de lima · 2 left[\s\S]*Cerveza · from \w{3} 00:00/, '#eighty-six');
    await chef.screenshot({ path: join(process.env.POS_SCREENSHOTS ?? tmpdir(), 'sold-out-kitchen.png') });

    // Two soups ordered: the count reaches zero and the soup is sold out too.
    await press(marisol, sopa);
    await marisol.waitForFunction(() => document.querySelectorAll('.ticket-pane .line').length === 1);
    await press(marisol, sopa);
    await waitText(marisol, /2 ×/, '.ticket-pane');
    await marisol.waitForSelector(`${sopa}.sold-out`, { timeout: 10_000 });
    t.match((await r.admin.get(`/dishes/${r.menu.sopa}`)).body, { sold_out: true, remaining: 0 }, 'two soups ordered, none left');

    await press(lupita, `[data-stock-dish="${r.menu.guacamole}"] [data-action="back"]`);
    await marisol.waitForSelector(`${guac}:not(.sold-out)`, { timeout: 10_000 });
    await press(marisol, guac);
    await marisol.waitForFunction(() => document.querySelectorAll('.ticket-pane .line').length === 2);
    await chef.waitForFunction(() => !/Guacamole/.test(document.querySelector('#eighty-six')?.textContent ?? ''), { timeout: 10_000 });
    const audit = (await r.admin.get('/audit?kind=dish_stock')).body as { entries: Array<{ staff: string; detail: string }> };
    t.same(audit.entries.map((e) => [e.staff, e.detail]), [['Lupita', 'Guacamole sold out'], ['Lupita', 'Sopa de lima 2 left'], ['Lupita', 'Guacamole back on sale']], 'each change recorded with who did it');
    t.same(problems, [], 'the screens fit both sizes');
  });
}
