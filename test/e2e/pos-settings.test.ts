import t from 'tap';
import { Client } from '../src/http-client.js';
import { DESKTOP, LANDSCAPE, PORTRAIT, openOffice, press, shoot, signIn, tablet, tap, waitText } from '../src/pos-browser.js';
import { posStage } from '../src/pos-stage.js';

/**
 * Issue 60's Settings screen in Debian's Chromium against a real standalone: the manager lowers the
 * waiter's discount limit on screen (a save racing another manager's is reloaded, not lost), and on the
 * waiter's own tablet a discount over the new limit asks for a manager while one within it is given.
 */
t.test('a manager lowers the waiter\'s discount limit on the Settings screen; the waiter\'s tablet enforces it at once', async (t) => {
  const stage = await posStage(t);
  if (!stage) return;
  const { pos, r, chromium, log, problems } = stage;
  const look = async (page: Parameters<typeof shoot>[0], name: string) => void problems.push(...(await shoot(page, name, { landscape: LANDSCAPE, desktop: DESKTOP, portrait: PORTRAIT })));

  const lupita = await tablet(chromium.browser, pos.url, log, 'lupita', 'manager');
  await signIn(lupita, 'Lupita', '1357');
  await openOffice(lupita, 'settings');
  await lupita.waitForSelector('#setting-waiter_discount_max_percent');
  t.equal(await lupita.$eval('#setting-waiter_discount_max_percent', (e) => (e as HTMLInputElement).value), '10', 'the environment\'s default, as a new restaurant starts');
  await look(lupita, 'settings');

  // Another manager saves meanwhile (over HTTP): Lupita's save is refused, her screen reloads and says so.
  t.equal((await r.admin.put('/settings', { receipt_footer: '¡Vuelva pronto!' })).status, 200);
  await press(lupita, '#setting-waiter_discount_max_percent', { clickCount: 3 });
  await lupita.type('#setting-waiter_discount_max_percent', '5');
  await press(lupita, '#save-settings');
  await waitText(lupita, /Changed by someone else — reloaded/, '#settings-said');
  t.equal(await lupita.$eval('#setting-receipt_footer', (e) => (e as HTMLInputElement).value), '¡Vuelva pronto!', 'the other manager\'s footer is shown');
  await look(lupita, 'settings-reloaded');

  await press(lupita, '#setting-waiter_discount_max_percent', { clickCount: 3 });
  await lupita.type('#setting-waiter_discount_max_percent', '5');
  await lupita.type('#setting-reason', 'too many discounts last week');
  await press(lupita, '#save-settings');
  await waitText(lupita, /Saved/, '#settings-said');
  const settings = (await r.admin.get('/settings')).body as { waiter_discount_max_percent: number; receipt_footer: string; version: number };
  t.match(settings, { waiter_discount_max_percent: 5, receipt_footer: '¡Vuelva pronto!', version: 2 });
  const audit = (await r.admin.get('/audit?kind=settings_changed')).body as { entries: Array<{ staff: string; reason: string | null; detail: string }> };
  t.match(audit.entries.at(-1), { staff: 'Lupita', reason: 'too many discounts last week', detail: 'waiter_discount_max_percent 10 → 5' });

  // Marisol's order at S1, then her tablet: 7 % is over the new limit (a manager is asked), 5 % is given.
  const waiter = new Client(pos.url);
  await waiter.login('Marisol', '2580');
  const me = ((await waiter.get('/auth/me')).body as { id: string }).id;
  const order = (await waiter.post('/orders/with-dishes', { order: { user_id: me, table_id: r.tables.S1, waiter: 'Marisol' }, dishes: [{ dish_id: r.menu.tacos }] })).body as { id: string };
  const marisol = await tablet(chromium.browser, pos.url, log, 'marisol');
  await signIn(marisol, 'Marisol', '2580');
  await marisol.goto(`${pos.url}/pos#/order/${order.id}`);
  await tap(marisol, 'Discount', '.actions');
  await marisol.waitForSelector('.discount-sheet');
  await marisol.type('#discount-reason', 'cliente de siempre');
  await press(marisol, '.discount-sheet [data-key="7"]');
  await press(marisol, '#give-discount');
  await marisol.waitForSelector('.manager-approval');
  t.pass('7 % is over the limit Lupita set: the manager is asked');
  await look(marisol, 'settings-waiter-refused');
  await tap(marisol, 'Cancel', '.manager-approval');
  await press(marisol, '.discount-sheet [data-key="⌫"]');
  await press(marisol, '.discount-sheet [data-key="5"]');
  await press(marisol, '#give-discount');
  await waitText(marisol, /Discount 5 % — cliente de siempre/, '.ticket-pane');
  t.same(problems, [], 'touch targets of 44 px or more, nothing wider than the screen');
});
