import t from 'tap';
import type { Page } from 'puppeteer-core';
import { Client } from '../src/http-client.js';
import { DESKTOP, LANDSCAPE, PORTRAIT, press, shoot, signIn, tablet, waiterAtTable } from '../src/pos-browser.js';
import { billBeforeTheCut, posRestaurant } from '../src/pos-setup.js';
import { emptyStage } from '../src/pos-stage.js';

const TILES = ['menu', '86', 'devices', 'reports', 'staff', 'printers', 'hours', 'floor-plan', 'settings', 'bills'];

/**
 * Issue 60, the manager's day (first part): a standalone on an empty restaurant (only its first
 * admin, no demo menu), the admin on /pos opens every screen of the back office, empty and then
 * once the restaurant is set up and a bill issued, at 1280×800, 1920×1080 and 390×844: none scrolls
 * sideways and every target takes a finger (screenshots in POS_SCREENSHOTS); then the manager 86es
 * a dish: a waiter's open order greys it without a reload and the API refuses it with a 409.
 */
t.test('a manager opens every back-office screen from an empty restaurant at three sizes, then 86es a dish', async (t) => {
  const stage = await emptyStage(t);
  if (!stage) return;
  const { pos, chromium, log, problems } = stage;
  const admin = new Client(pos.url);
  await admin.login('admin', '1234');
  t.equal((await admin.get('/dishes')).status, 204, 'the restaurant starts with no menu');
  const sizes = { landscape: LANDSCAPE, desktop: DESKTOP, portrait: PORTRAIT };
  const everyScreen = async (page: Page, when: string) => {
    for (const tile of TILES) {
      await press(page, '#nav-office');
      await press(page, `#office-${tile}`);
      await page.waitForSelector('#office-back');
      await new Promise((r) => setTimeout(r, 300));
      problems.push(...(await shoot(page, `manager-day-${when}-${tile}`, sizes)));
    }
  };

  const manager = await tablet(chromium.browser, pos.url, log, 'admin', 'manager');
  await signIn(manager, 'admin', '1234');
  await press(manager, '#nav-office');
  problems.push(...(await shoot(manager, 'manager-day-office', sizes)));
  await everyScreen(manager, 'empty');

  const r = await posRestaurant(pos.url);
  await billBeforeTheCut(pos.url, r, r.tables.S1!, r.menu.mole);
  await manager.reload();
  await manager.waitForSelector('header.top');
  await everyScreen(manager, 'set-up');

  // The manager 86es the guacamole: the waiter's open order greys it without a reload; the API refuses it.
  const guac = `[data-dish-id="${r.menu.guacamole}"]`;
  const marisol = await waiterAtTable(chromium.browser, pos.url, log, r.tables.S2!, guac);
  await press(manager, '#nav-office');
  await press(manager, '#office-86');
  await press(manager, `[data-stock-dish="${r.menu.guacamole}"] [data-action="86"]`);
  await manager.waitForSelector(`[data-stock-dish="${r.menu.guacamole}"].sold-out`);
  await marisol.waitForSelector(`${guac}.sold-out`, { timeout: 10_000 });
  const waiter = new Client(pos.url);
  await waiter.login('marisol', '2580');
  const me = (await waiter.get('/auth/me')).body as { id: string };
  const refused = await waiter.post('/orders/with-dishes', { order: { user_id: me.id, table_id: r.tables.S3, waiter: 'Marisol' }, dishes: [{ dish_id: r.menu.guacamole, quantity: 1 }] });
  t.equal(refused.status, 409, `the API refuses the 86'd dish: ${JSON.stringify(refused.body)}`);
  t.same(problems, [], 'every screen fits every size, nothing sideways, targets ≥ 44 px');
});
