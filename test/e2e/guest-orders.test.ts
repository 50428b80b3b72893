import t from 'tap';
import { join } from 'node:path';
import { phone } from '../src/guest-phone.js';
import { SHOTS, openOffice, press, signIn, smallTargets, tablet, waitText } from '../src/pos-browser.js';
import { posStage } from '../src/pos-stage.js';

type Line = { dish_id: string; quantity: number; kitchen_status: string };

/**
 * Ordering from the table (issue 63) in Debian's Chromium against a real standalone: a guest at S2
 * opens the table's QR on a phone (Spanish), sees the menu served now (the 86'd guacamole and the
 * arrachera, which needs its doneness chosen, left out) and asks for two soups and a beer; Marisol's floor shows the request within seconds, she accepts it and lands on the order with
 * the lines unfired, and fires them; the phone reads that she confirmed. A second guest (English) asks
 * for a mole; she declines it saying why, and the phone shows the reason. Nothing the guest sent set a price.
 */
t.test('a guest asks for dishes from the table\'s QR; the waiter accepts one request onto the table\'s order and declines another', async (t) => {
  const stage = await posStage(t);
  if (!stage) return;
  const { pos, r, chromium, log } = stage;
  t.equal((await r.admin.put(`/dishes/${r.menu.guacamole}/stock`, { sold_out: true })).status, 200, 'the guacamole is 86\'d');
  const link = (await r.admin.get(`/tables/${r.tables.S2}/guest-link`)).body as { path: string };
  // The manager's table card: the floor plan's sheet of S2 shows its QR, the same link the guests open.
  const lupita = await tablet(chromium.browser, pos.url, log, 'lupita', 'manager');
  await signIn(lupita, 'Lupita', '1357');
  await openOffice(lupita, 'floor-plan');
  await press(lupita, `.plan-table[data-table-id="${r.tables.S2}"]`);
  const qr = await lupita.waitForSelector('#table-sheet #table-qr');
  t.equal(await qr!.evaluate((e) => e.getAttribute('data-link')), `${pos.url}${link.path}`, 'the card\'s QR is the table\'s link');
  await lupita.screenshot({ path: join(SHOTS, 'guest-table-card.png') });
  await lupita.evaluate(() => { window.print = () => undefined; });
  await press(lupita, '#print-table-qr');
  await lupita.emulateMediaType('print');
  t.same(await lupita.$$eval('.table-qr.print-this, header.top', (es) => es.map((e) => getComputedStyle(e).visibility)), ['hidden', 'visible'], 'printed: the card alone');
  await lupita.emulateMediaType(null);

  const marisol = await tablet(chromium.browser, pos.url, log, 'marisol');
  await signIn(marisol, 'Marisol', '2580');
  await marisol.waitForSelector(`[data-table-id="${r.tables.S2}"][data-status="available"]`);

  // The first guest's phone, in Spanish: the menu served now.
  const uno = await phone(chromium.browser, `${pos.url}${link.path}`, 'es-MX', log);
  await waitText(uno, /Mesa S2 · Carta/, 'main');
  const menuText = await uno.$eval('main', (e) => (e as HTMLElement).innerText);
  t.match(menuText, /Bebidas[\s\S]*Agua de horchata\s*leche[\s\S]*Cerveza[\s\S]*Entradas[\s\S]*Sopa de lima/, 'the menu by category, allergens in Spanish');
  t.notMatch(menuText, /Guacamole/, 'the 86\'d guacamole is not offered');
  t.notMatch(menuText, /Arrachera/, 'nor the arrachera, whose doneness the waiter asks');
  await press(uno, `[data-add="${r.menu.sopa}"]`);
  await press(uno, `[data-add="${r.menu.sopa}"]`);
  await press(uno, `[data-add="${r.menu.cerveza}"]`);
  await waitText(uno, /Tu elección: 3/, '.basket');
  await uno.screenshot({ path: join(SHOTS, 'guest-table-menu-es.png') });
  t.same(await smallTargets(uno), [], 'every target on the phone takes a finger');
  await press(uno, '#ask-waiter');
  await waitText(uno, /Enviado a tu mesero/, '#request-status');
  t.equal(((await r.admin.get(`/tables/${r.tables.S2}`)).body as { status: string }).status, 'available', 'nothing ordered yet');

  // Marisol's floor, never reloaded: the request, then Accept opens the order with the lines unfired.
  const card = `.guest-request[data-table-id="${r.tables.S2}"]`;
  t.match(await waitText(marisol, /S2 asks/, card, 10_000), /1 × Cerveza[\s\S]*2 × Sopa de lima/, 'what the guest asked for, on her floor');
  await marisol.screenshot({ path: join(SHOTS, 'guest-table-floor.png') });
  await press(marisol, `${card} .accept`);
  await marisol.waitForSelector('.ticket-pane .line');
  const orderId = marisol.url().split('/').pop()!;
  const lines = (await r.admin.get(`/orders/${orderId}/dishes`)).body as Line[];
  t.same(lines.map((l) => [l.dish_id, l.quantity, l.kitchen_status]), [[r.menu.cerveza, 1, 'pending'], [r.menu.sopa, 2, 'pending']], 'on S2\'s new order, at the menu\'s prices, not yet fired');
  t.match((await r.admin.get(`/orders/${orderId}`)).body, { table_id: r.tables.S2, waiter: 'Marisol', total: 245 }, 'hers: 2 × 95 + 55');
  await press(marisol, '#fire-all');
  await marisol.waitForFunction(() => !document.querySelector('#fire-all:not([disabled])'), { timeout: 10_000 });
  await waitText(uno, /Tu mesero lo confirmó/, '#request-status', 10_000);
  await uno.screenshot({ path: join(SHOTS, 'guest-table-accepted-es.png') });

  // A second guest, in English, asks for a mole; Marisol declines it with why, and the phone says so.
  const two = await phone(chromium.browser, `${pos.url}${link.path}`, 'en-US', log);
  await waitText(two, /Table S2 · Menu/, 'main');
  await press(two, `[data-add="${r.menu.mole}"]`);
  await two.screenshot({ path: join(SHOTS, 'guest-table-menu-en.png') });
  await press(two, '#ask-waiter');
  await waitText(two, /Sent to your waiter/, '#request-status');
  await marisol.goto(`${pos.url}/pos#/floor`);
  await waitText(marisol, /S2 asks[\s\S]*1 × Mole poblano/, card, 10_000);
  await press(marisol, `${card} .decline`);
  await marisol.type('#decline-reason', 'No mole left tonight');
  await press(marisol, '#decline-confirm');
  await marisol.waitForSelector(card, { hidden: true });
  await waitText(two, /Your waiter could not take it: No mole left tonight/, '#request-status', 10_000);
  await two.screenshot({ path: join(SHOTS, 'guest-table-declined-en.png') });
  t.equal(((await r.admin.get(`/orders/${orderId}/dishes`)).body as Line[]).length, 2, 'declined: nothing added to S2\'s order');
  t.same(await smallTargets(two), [], 'the English page\'s targets too');
});
