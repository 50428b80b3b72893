import t from 'tap';
import { openOffice, press, signIn, tablet, waitText } from '../src/pos-browser.js';
import { posStage } from '../src/pos-stage.js';

/**
 * The back office when the restaurant's Wi-Fi drops (issue 60): its writes go straight to the network
 * (no outbox), so a manager must be told plainly that nothing was confirmed, keep what was typed, and
 * save it once the network is back — once. Before, a save said "Failed to fetch" and a dish tapped
 * offline opened nothing.
 */
const stage = await posStage(t);
if (stage) {
  const { pos, r, chromium, log, look } = stage;
  t.test('the menu editor and settings offline: told so, nothing lost, saved once back', async (t) => {
    const lupita = await tablet(chromium.browser, pos.url, log, 'lupita');
    await signIn(lupita, 'Lupita', '1357');
    await openOffice(lupita, 'menu');
    const agua = `.menu-row[data-row-id="${r.menu.agua}"]`;
    await lupita.waitForSelector(agua);

    await lupita.setOfflineMode(true);
    await press(lupita, agua);
    await waitText(lupita, /No connection to the POS\. Try again once it is back/, '.menu-editor [role="alert"]');
    await lupita.setOfflineMode(false);
    await press(lupita, agua);
    await lupita.waitForSelector('#dish-sheet #dish-price');
    await lupita.$eval('#dish-price', (e) => ((e as HTMLInputElement).value = ''));
    await lupita.type('#dish-price', '38');
    await lupita.setOfflineMode(true);
    await press(lupita, '#dish-sheet .save');
    await waitText(lupita, /No connection to the POS\. Try again once it is back \(nothing is done twice\)/, '#dish-sheet [role="alert"]');
    t.equal(await lupita.$eval('#dish-price', (e) => (e as HTMLInputElement).value), '38', 'what she typed is still there');
    await look(lupita, 'office-offline-save');
    t.equal(((await r.admin.get(`/dishes/${r.menu.agua}`)).body as { price: number }).price, 35, 'nothing saved');

    await lupita.setOfflineMode(false);
    await press(lupita, '#dish-sheet .save');
    await lupita.waitForSelector('#dish-sheet', { hidden: true });
    t.equal(((await r.admin.get(`/dishes/${r.menu.agua}`)).body as { price: number }).price, 38, 'saved once back');

    // Settings: the same words, the form kept.
    await press(lupita, '#office-back');
    await press(lupita, '#office-settings');
    await lupita.waitForSelector('#setting-waiter_discount_max_percent');
    await press(lupita, '#setting-waiter_discount_max_percent', { clickCount: 3 });
    await lupita.type('#setting-waiter_discount_max_percent', '5');
    await lupita.setOfflineMode(true);
    await press(lupita, '#save-settings');
    await waitText(lupita, /No connection to the POS/, '.settings');
    t.equal(await lupita.$eval('#setting-waiter_discount_max_percent', (e) => (e as HTMLInputElement).value), '5', 'the limit typed is kept');
    await lupita.setOfflineMode(false);
    await press(lupita, '#save-settings');
    await waitText(lupita, /Saved/, '.settings');
    t.equal(((await r.admin.get('/settings')).body as { waiter_discount_max_percent: number }).waiter_discount_max_percent, 5, 'saved once back');
  });
}
