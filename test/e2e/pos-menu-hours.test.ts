import t from 'tap';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { SHOTS, openOffice, press, signIn, tablet, waitText, waiterAtTable } from '../src/pos-browser.js';
import { posStage } from '../src/pos-stage.js';

/**
 * Hours and happy hour (issue 60), in Debian's Chromium against a real standalone (restaurant time
 * UTC, so the windows are set around the real clock): the manager gives the soup hours that start in
 * two hours and the beer a happy-hour price now, on the menu editor; the waiter's open order screen,
 * never reloaded, greys the soup with when it is served and shows the beer's happy-hour price and the
 * level's name within a poll; the beer ordered takes that price and says so.
 */
const hhmm = (hours: number) => `${String(((hours % 24) + 24) % 24).padStart(2, '0')}:00`;

/** A time field set as a finger would leave it (Preact listens to input events). */
const setTime = (page: Page, selector: string, value: string) =>
  page.$eval(selector, (e, v) => { (e as HTMLInputElement).value = v; e.dispatchEvent(new Event('input', { bubbles: true })); }, value);

/** The open sheet's one window every day, from–to. */
async function everyDay(page: Page, sheet: string, from: string, to: string) {
  await press(page, `${sheet} .add-window`);
  for (const day of ['sat', 'sun']) await press(page, `${sheet} [data-window="0"] [data-day="${day}"]`);
  await setTime(page, `${sheet} [data-window="0"] .hours-from`, from);
  await setTime(page, `${sheet} [data-window="0"] .hours-to`, to);
}

const stage = await posStage(t, { COMANDA_TIMEZONE: 'UTC' });
if (stage) {
  const { pos, r, chromium, log, problems, look } = stage;
  const sopa = `[data-dish-id="${r.menu.sopa}"]`;
  const cerveza = `[data-dish-id="${r.menu.cerveza}"]`;

  t.test("the manager sets a dish's hours and a happy hour: the waiter's open order greys the dish and shows the price", async (t) => {
    const marisol = await waiterAtTable(chromium.browser, pos.url, log, r.tables.S1!, sopa);
    t.match(await marisol.$eval(cerveza, (e) => (e as HTMLElement).innerText), /55\.00/, 'the beer at its menu price');

    const lupita = await tablet(chromium.browser, pos.url, log, 'lupita');
    await signIn(lupita, 'Lupita', '1357');
    await openOffice(lupita, 'menu');
    await press(lupita, '#menu-tab-hours');
    const hour = new Date().getUTCHours();
    // The soup: served every day from two hours from now, for an hour (past midnight when late).
    await press(lupita, `[data-row-id="${r.menu.sopa}"]`);
    await everyDay(lupita, '#hours-sheet', hhmm(hour + 2), hhmm(hour + 3));
    await look(lupita, 'menu-hours-sheet');
    await press(lupita, '#hours-sheet .save');
    await lupita.waitForSelector('#hours-sheet', { hidden: true });
    await waitText(lupita, new RegExp(`served every day ${hhmm(hour + 2)}–${hhmm(hour + 3)}`), `[data-row-id="${r.menu.sopa}"]`);
    const from = Date.now();
    // Two managers: another sets the soup's hours while her sheet is open; her save is 412, the menu read again.
    await press(lupita, `[data-row-id="${r.menu.sopa}"]`);
    await lupita.waitForSelector('#hours-sheet [data-window="0"]');
    const other = [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: hhmm(hour + 2), to: hhmm(hour + 4) }];
    t.equal((await r.admin.put(`/dishes/${r.menu.sopa}/availability`, { windows: other })).status, 200, 'the other manager');
    await press(lupita, '#hours-sheet .remove-window');
    await press(lupita, '#hours-sheet .save');
    await waitText(lupita, /Changed by someone else — reloaded/, '#menu-stale');
    await waitText(lupita, new RegExp(`served every day ${hhmm(hour + 2)}–${hhmm(hour + 4)}`), `[data-row-id="${r.menu.sopa}"]`);

    // Happy hour: an hour ago to two hours from now, the beer at 39.
    await press(lupita, '#add-price-level');
    await lupita.type('#price-level-name', 'Happy hour');
    for (const day of ['sat', 'sun']) await press(lupita, `#price-level-sheet [data-window="0"] [data-day="${day}"]`);
    await setTime(lupita, '#price-level-sheet [data-window="0"] .hours-from', hhmm(hour - 1));
    await setTime(lupita, '#price-level-sheet [data-window="0"] .hours-to', hhmm(hour + 2));
    await lupita.type(`[data-level-dish="${r.menu.cerveza}"] input`, '39');
    await look(lupita, 'menu-price-level-sheet');
    await press(lupita, '#price-level-sheet .save');
    await lupita.waitForSelector('#price-level-sheet', { hidden: true });
    await waitText(lupita, /Happy hour[\s\S]*every day[\s\S]*1 dish/, '.menu-editor');
    await look(lupita, 'menu-hours-tab');

    // The waiter's screen, never reloaded: the next poll greys the soup and prices the beer.
    await marisol.waitForSelector(`${sopa}.sold-out`, { timeout: 10_000 });
    t.ok(Date.now() - from < 15_000, `greyed ${Date.now() - from} ms after the hours were set, without a reload`);
    t.match(await marisol.$eval(sopa, (e) => (e as HTMLElement).innerText), new RegExp(`from (\\w+ )?${hhmm(hour + 2)}`), 'says when it is served');
    t.match(await waitText(marisol, /39\.00[\s\S]*Happy hour/, cerveza), /39\.00[\s\S]*Happy hour/, 'the beer at its happy-hour price, named');
    await press(marisol, sopa);
    await waitText(marisol, /Sopa de lima is not served now \(served every day/, '.order [role="alert"]');
    t.equal((await marisol.$$('.ticket-pane .line')).length, 0, 'the tap sent nothing');
    await press(marisol, cerveza);
    await waitText(marisol, /Cerveza[\s\S]*Happy hour[\s\S]*39\.00/, '.ticket-pane .line');
    await waitText(marisol, /39\.00/, '#order-total');
    await look(marisol, 'menu-hours-waiter');

    const lines = (await r.admin.get('/orders?all=true')).body as Array<{ id: string }>;
    const dishes = (await r.admin.get(`/orders/${lines[0]!.id}/dishes`)).body as Array<{ price_at_order: number; price_level?: string }>;
    t.match(dishes, [{ price_at_order: 39, price_level: 'Happy hour' }], 'the line took the level\'s price and names it');
    const audit = (await r.admin.get('/audit?kind=price_level')).body as { entries: Array<{ staff: string; detail: string }> };
    t.match(audit.entries.map((e) => [e.staff, e.detail]), [['Lupita', /^Happy hour \(every day .*\): Cerveza 39\.00$/]], 'the price change recorded with who made it');
    // Paid and served: the manager's product mix shows what happy hour sold against the regular price.
    const orderId = lines[0]!.id;
    t.equal((await r.admin.post('/shifts/open', { cash_float: 100 })).status, 201);
    const [bill] = ((await r.admin.post(`/orders/${orderId}/tickets`, { split: 'none' })).body as { ids: string[] }).ids;
    t.equal((await r.admin.post(`/tickets/${bill}/payments`, { method: 'cash', amount: 39 })).status, 201);
    const o = (await r.admin.get(`/orders/${orderId}`)).body as { user_id: string; table_id: string; waiter: string };
    for (const status of ['preparing', 'ready', 'completed']) t.equal((await r.admin.put(`/orders/${orderId}`, { user_id: o.user_id, table_id: o.table_id, waiter: o.waiter, status })).status, 200, status);
    await openOffice(lupita, 'reports');
    const row = await waitText(lupita, /Happy hour/, '#mix-by-price-level tbody tr');
    t.match(row, /Happy hour\s+1\s+\$39\.00[\s\S]*\$55\.00[\s\S]*\$16\.00/, 'one beer at 39.00, 55.00 at the regular price, 16.00 below it');
    await (await lupita.$('#mix-by-price-level'))!.screenshot({ path: join(SHOTS, 'menu-hours-report-levels.png') });
    t.same(problems, [], 'the screens fit both sizes, every target at least 44 px');
  });
}
