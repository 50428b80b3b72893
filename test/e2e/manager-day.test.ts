import t from 'tap';
import type { Page } from 'puppeteer-core';
import { Client } from '../src/http-client.js';
import { DESKTOP, LANDSCAPE, PORTRAIT, press, shoot, signIn, tablet } from '../src/pos-browser.js';
import { billBeforeTheCut, posRestaurant } from '../src/pos-setup.js';
import { emptyStage } from '../src/pos-stage.js';

const TILES = ['menu', '86', 'devices', 'reports', 'staff', 'printers', 'hours', 'floor-plan', 'settings', 'bills'];

/**
 * Issue 60, the manager's day (first part): a standalone on an empty restaurant (only its first
 * admin, no demo menu), the admin on /pos opens every screen of the back office, empty and then
 * once the restaurant is set up and a bill issued, at 1280×800, 1920×1080 and 390×844: none scrolls
 * sideways and every target takes a finger. Screenshots in POS_SCREENSHOTS.
 */
t.test('a manager opens every back-office screen from an empty restaurant at three sizes', async (t) => {
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
  t.same(problems, [], 'every screen fits every size, nothing sideways, targets ≥ 44 px');
});
