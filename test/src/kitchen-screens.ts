import type { Browser } from 'puppeteer-core';
import { Client } from './http-client.js';
import { press, signIn, tablet } from './pos-browser.js';
import { traffic } from './traffic-recorder.js';

/**
 * The kitchen's two screens, the line's and the bar's (one tablet each, in one browser context signed
 * in as the cook), and `cookAndBump`: a cook tapping every line of an order's open tickets done on the
 * screen of its station, then the ticket's header to bump it.
 */
export async function kitchenScreens(browser: Browser, url: string, log: string[], stations: { kitchen: string; bar: string }) {
  const kitchen = await tablet(browser, url, log, 'kitchen', 'kitchen-screen');
  await kitchen.goto(`${url}/kitchen?station=${stations.kitchen}`);
  await signIn(kitchen, 'chef', '3690', '#station');
  const barScreen = await kitchen.browserContext().newPage();
  await traffic?.watch(barScreen, 'bar', 'kitchen-screen');
  await barScreen.setViewport({ width: 1280, height: 800 });
  await barScreen.goto(`${url}/kitchen?station=${stations.bar}`);
  await barScreen.waitForSelector('#station');
  const screens = { [stations.kitchen]: kitchen, [stations.bar]: barScreen };
  const chef = new Client(url);
  await chef.login('chef', '3690');
  const cookAndBump = async (orderId: string) => {
    for (const station of [stations.kitchen, stations.bar]) {
      const open = (await chef.get(`/kitchen/tickets?station_id=${station}&status=open&all=true`)).body as Array<{ id: string; order_id: string }>;
      const mine = open.filter((k) => k.order_id === orderId);
      if (mine.length === 0) continue;
      // The screen in front: its taps wait for an animation frame, which a hidden tab never gets.
      const screen = screens[station]!;
      await screen.bringToFront();
      for (const k of mine) {
        const card = `[data-ticket-id="${k.id}"]`;
        await screen.waitForSelector(card);
        while (await screen.$(`${card} .line:not(.done):not(.cancelled)`)) {
          const before = (await screen.$$(`${card} .line.done`)).length;
          await press(screen, `${card} .line:not(.done):not(.cancelled)`);
          await screen.waitForFunction((sel, n) => document.querySelectorAll(sel).length > n, {}, `${card} .line.done`, before);
        }
        await press(screen, `${card} .ticket-header`);
        await screen.waitForFunction((sel) => !document.querySelector(sel), {}, card);
      }
    }
  };
  return { cookAndBump, chef };
}
