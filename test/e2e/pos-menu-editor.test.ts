import t from 'tap';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { CHROMIUM, openChromium } from '../src/chromium.js';
import { Client } from '../src/http-client.js';
import { DESKTOP, LANDSCAPE, PORTRAIT, press, seatTable, shoot, signIn, tablet, waitText } from '../src/pos-browser.js';
import { startStandalone } from '../src/standalone-process.js';
import { fill, retype, saveSheet } from '../src/back-office.js';

type Listed = Array<{ id: string; name: string }>;
type Dish = { id: string; name: string; price: number; tax_rate_id: string | null; category_id: string; modifier_group_ids: string[]; allergens: string[]; description: string };
type Group = { id: string; name: string; min_choices: number; max_choices: number; options: Array<{ id: string; name: string; price_delta: number }> };
type Bill = { total: number; taxes: Array<{ name: string; rate: number; amount: number }>; lines: Array<{ dish_id: string; line_total: number }> };

/**
 * Issue 60: the back office's menu editor in Debian's Chromium against a real standalone. A manager
 * starting from an empty menu builds, on screen only, a tax rate of 10.125 %, a category taxed at it
 * (and a second placed after it, as the waiter's menu then lists them), a modifier group with two options (one +1.50), two dishes (one carrying the group), reprices one,
 * and reads the API's refusal when she deletes a category still in use; then a waiter's tablet
 * orders the dish with the +1.50 option and the bill shows its price and tax to the cent.
 */
t.test('a manager builds the menu on the back office; a waiter orders from it and the bill is right to the cent', async (t) => {
  if (!existsSync(CHROMIUM)) return void t.fail(`no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-menu-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', COMANDA_RATES: 'USD=97000.00,MXN=1750000.00', COMANDA_BASE_CURRENCY: 'MXN' });
  t.teardown(() => pos.stop());
  // The restaurant has a table and its staff, and no menu at all: no tax rate, station, category or dish.
  const admin = new Client(pos.url);
  await admin.login('admin', '1234');
  const space = (await admin.post('/spaces', { name: 'Salón' })).body as { id: string };
  const table = (await admin.post('/tables', { name: 'S1', status: 'available', space_id: space.id, order_id: null })).body as { id: string };
  for (const s of [{ name: 'Lupita', pin: '1357', role: 'manager' }, { name: 'Marisol', pin: '2580', role: 'waiter' }]) t.equal((await admin.post('/users', s)).status, 201, `${s.name} hired`);
  t.equal((await admin.get('/dishes')).status, 204, 'the menu starts empty');
  const chromium = await openChromium();
  t.teardown(chromium.close);
  const log: string[] = [];
  t.teardown(() => { if (t.passing() === false) console.error(log.slice(-300).join('\n'), '\nSERVER', pos.output().slice(-3000)); });
  const problems: string[] = [];
  const look = async (page: Page, name: string) => void problems.push(...(await shoot(page, name, { landscape: LANDSCAPE, desktop: DESKTOP, portrait: PORTRAIT })));

  const lupita = await tablet(chromium.browser, pos.url, log, 'lupita', 'manager');
  await signIn(lupita, 'Lupita', '1357');
  await press(lupita, '#nav-office');
  await lupita.waitForSelector('#office-menu');
  await look(lupita, 'office-hub');
  await press(lupita, '#office-menu');
  await waitText(lupita, /No categories yet/, 'main');

  // A tax rate with three decimals.
  await press(lupita, '#menu-tab-rates');
  await press(lupita, '#add-tax-rate');
  await fill(lupita, '#tax-rate-name', 'IVA reducido');
  await fill(lupita, '#tax-rate-rate', '10.125');
  await waitText(lupita, /10\.125 %/, '#tax-rate-sheet');
  await saveSheet(lupita, '#tax-rate-sheet');
  await waitText(lupita, /IVA reducido\s*10\.125 %/, '.menu-rows');
  const [rate] = (await admin.get('/tax-rates')).body as Array<{ id: string; rate: number }>;
  t.equal(rate?.rate, 10.125, 'the API keeps 10.125 %');

  // A category taxed at it.
  await press(lupita, '#menu-tab-dishes');
  await press(lupita, '#add-category');
  await fill(lupita, '#category-name', 'Tacos');
  await lupita.waitForSelector('#category-tax-rate');
  await lupita.select('#category-tax-rate', rate!.id);
  await retype(lupita, '#category-order', '1');
  await saveSheet(lupita, '#category-sheet');
  await waitText(lupita, /Tacos[\s\S]*IVA reducido 10\.125 %/, '.category-head');
  // A second category, placed after the first although its name comes before.
  await press(lupita, '#add-category');
  await fill(lupita, '#category-name', 'Bebidas');
  await retype(lupita, '#category-order', '2');
  await saveSheet(lupita, '#category-sheet');
  await waitText(lupita, /Bebidas[\s\S]*place 2/, '.category-head');
  const chips = (page: Page, scope: string) => page.$$eval(`${scope} .chip`, (cs) => cs.map((c) => (c as HTMLElement).innerText.trim()));
  t.same(await chips(lupita, '.category-chips'), ['Tacos', 'Bebidas'], 'listed by their place, not their names');
  const tacosId = ((await admin.get('/categories')).body as Listed)[0]!.id;
  await press(lupita, `[data-category-id="${tacosId}"]`);

  // A modifier group: Verde at no charge, Guacamole +1.50.
  await press(lupita, '#menu-tab-groups');
  await press(lupita, '#add-group');
  await fill(lupita, '#group-name', 'Salsa');
  await fill(lupita, '.group-option[data-option="0"] .option-name', 'Verde');
  await press(lupita, '#add-option');
  await fill(lupita, '.group-option[data-option="1"] .option-name', 'Guacamole');
  await retype(lupita, '.group-option[data-option="1"] .option-delta', '1.50');
  await waitText(lupita, /\+\$1\.50 MXN/, '#group-sheet');
  await look(lupita, 'menu-group-sheet');
  await saveSheet(lupita, '#group-sheet');
  await waitText(lupita, /Salsa[\s\S]*Verde no charge, Guacamole \+\$1\.50 MXN/, '.menu-rows');
  const [salsa] = (await admin.get('/modifier-groups')).body as Group[];
  t.match(salsa, { name: 'Salsa', min_choices: 0, max_choices: 1, options: [{ name: 'Verde', price_delta: 0 }, { name: 'Guacamole', price_delta: 1.5 }] }, 'the group as the API has it');

  // Two dishes, the first with the group; the second repriced.
  await press(lupita, '#menu-tab-dishes');
  await press(lupita, '#add-dish');
  await fill(lupita, '#dish-name', 'Taco al pastor');
  await fill(lupita, '#dish-price', '25.50');
  await fill(lupita, '#dish-description', 'Pork, pineapple, onion and coriander');
  await press(lupita, `#dish-sheet [data-value="${salsa!.id}"]`);
  await press(lupita, '#dish-sheet [data-value="gluten"]');
  await look(lupita, 'menu-dish-sheet');
  await saveSheet(lupita, '#dish-sheet');
  // The list read again after the save puts the taco's row above "+ Dish": tapped before, the button
  // moves under the finger and the tap opens nothing (seen once in CI).
  await waitText(lupita, /Taco al pastor/, '.menu-rows');
  await press(lupita, '#add-dish');
  await fill(lupita, '#dish-name', 'Agua fresca');
  await fill(lupita, '#dish-price', '18');
  await saveSheet(lupita, '#dish-sheet');
  await waitText(lupita, /Agua fresca\s*\$18\.00 MXN/, '.menu-rows');
  const dishes = () => admin.get('/dishes').then((r) => r.body as Dish[]);
  const agua = (await dishes()).find((d) => d.name === 'Agua fresca')!;
  await press(lupita, `.menu-row[data-row-id="${agua.id}"]`);
  await retype(lupita, '#dish-price', '19.90');
  await saveSheet(lupita, '#dish-sheet');
  await waitText(lupita, /Agua fresca\s*\$19\.90 MXN/, '.menu-rows');
  await look(lupita, 'menu-editor');

  // The category still has dishes: the API refuses its deletion and the sheet says why.
  await press(lupita, '#edit-category');
  await press(lupita, '#category-sheet .delete');
  await press(lupita, '#category-sheet .delete-confirm');
  t.match(await waitText(lupita, /used by/, '#category-sheet [role="alert"]'), /Dish category Tacos is used by 2 dishes: move or delete them first/, "the API's 409 shown on the sheet");
  await press(lupita, '#category-sheet .secondary:not(.delete)');

  const menu = await dishes();
  const taco = menu.find((d) => d.name === 'Taco al pastor')!;
  t.same(menu.map((d) => [d.name, d.price, d.modifier_group_ids, d.allergens, d.tax_rate_id, d.description]).sort(), [
    ['Agua fresca', 19.9, [], [], null, ''], ['Taco al pastor', 25.5, [salsa!.id], ['gluten'], null, 'Pork, pineapple, onion and coriander'],
  ], 'the dishes as the API has them: prices in cents exact, the group on the taco, the rate from the category');

  // A waiter's tablet: the taco with guacamole, and the water.
  const marisol = await tablet(chromium.browser, pos.url, log, 'marisol');
  await signIn(marisol, 'Marisol', '2580');
  t.equal(await marisol.$('#nav-office'), null, 'a waiter has no back office');
  await marisol.evaluate(() => { location.hash = '#/office/menu'; });
  await marisol.waitForSelector('main.floor');
  t.equal(await marisol.$('.menu-editor, .office'), null, 'nor reaches it by its address: the floor shows instead');
  await seatTable(marisol, `[data-table-id="${table.id}"]`);
  await press(marisol, `[data-dish-id="${taco.id}"]`);
  await marisol.waitForSelector('.dish-sheet');
  await waitText(marisol, /Pork, pineapple, onion and coriander/, '.dish-sheet');
  await press(marisol, `[data-option-id="${salsa!.options[1]!.id}"]`);
  await press(marisol, '#add-line');
  await waitText(marisol, /Taco al pastor[\s\S]*Guacamole/, '.ticket-pane');
  await press(marisol, `[data-dish-id="${agua.id}"]`);
  await marisol.waitForFunction(() => document.querySelectorAll('.ticket-pane .line').length === 2);
  t.same(await chips(marisol, '.menu-pane'), ['All', 'Tacos', 'Bebidas'], "the waiter's menu in the manager's order");
  const orderId = marisol.url().split('/').pop()!;
  await press(marisol, '#to-bill');
  await press(marisol, '#issue-bill');
  await marisol.waitForSelector('.ticket-card');
  // Prices include tax (the default): 27.00 + 19.90 = 46.90, of which 46.90 × 10.125 / 110.125 = 4.312… → 4.31.
  const [bill] = (await admin.get(`/orders/${orderId}/tickets`)).body as Bill[];
  t.same(bill!.lines.map((l) => [l.dish_id, l.line_total]).sort(), [[taco.id, 27], [agua.id, 19.9]].sort(), 'the taco at 25.50 + 1.50, the water at its new price');
  t.match(bill, { total: 46.9, taxes: [{ name: 'IVA reducido', rate: 10.125, amount: 4.31 }] }, 'the bill and its tax to the cent, over the API');
  t.match(await waitText(marisol, /IVA reducido/, '.ticket-card dl'), /IVA reducido 10\.125 %\s*\$4\.31 MXN[\s\S]*Total\s*\$46\.90 MXN/, 'the bill on screen says the same');
  await look(marisol, 'menu-bill');
  t.same(problems, [], 'the hub and the editor fit 1280×800, 1920×1080 and 390×844 with finger-sized targets');
});
