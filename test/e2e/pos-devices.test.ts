import t from 'tap';
import type { Page } from 'puppeteer-core';
import { openOffice, press, seatTable, signIn, tablet, waitText } from '../src/pos-browser.js';
import { posStage } from '../src/pos-stage.js';

type Line = { dish_id: string; quantity: number };
type Listed = { id: string; user: string; device: string | null };

const waitingOf = (page: Page) =>
  page.$eval('#offline-banner', (e) => Number((e as HTMLElement).dataset.waiting)).catch(() => 0);

/**
 * Issue 59: a manager signs a tablet out from the back office. The waiter's tablet, named "Tablet 3",
 * has a dish kept in its offline outbox; the manager, on her own tablet, signs Tablet 3 out with a
 * reason; the tablet comes back to the network, is refused, and shows its PIN pad saying a manager
 * signed it out, the dish still kept; the waiter signs in again and the dish is sent, once.
 */
t.test('a manager signs a tablet out: it shows the PIN pad and why, its outbox is kept and sent once after the next sign-in', async (t) => {
  const stage = await posStage(t);
  if (!stage) return;
  const { pos, r, chromium, log, problems, look } = stage;

  // Marisol's tablet is named once, on its sign-in, then seats S2.
  const marisol = await tablet(chromium.browser, pos.url, log, 'marisol');
  await press(marisol, '.device-name summary');
  await marisol.type('#device-name', 'Tablet 3');
  await look(marisol, 'login-device');
  await signIn(marisol, 'Marisol', '2580');
  await seatTable(marisol, `[data-table-id="${r.tables.S2}"]`);
  await marisol.waitForFunction(() => location.hash.startsWith('#/order/'));
  await marisol.waitForSelector('.order .dishes .dish');
  const orderId = marisol.url().split('/').pop()!;

  // The network goes: a mole is kept on the tablet.
  await marisol.setOfflineMode(true);
  await press(marisol, `[data-dish-id="${r.menu.mole}"]`);
  await marisol.waitForFunction(() => Number(document.querySelector<HTMLElement>('#offline-banner')?.dataset.waiting) === 1);

  // Lupita, the manager, on her own tablet: Devices lists Tablet 3 with Marisol; she signs it out.
  const lupita = await tablet(chromium.browser, pos.url, log, 'lupita', 'manager');
  await signIn(lupita, 'Lupita', '1357');
  await openOffice(lupita, 'devices');
  await waitText(lupita, /Tablet 3[\s\S]*Marisol/, 'main');
  const listed = (await r.admin.get('/sessions')).body as Listed[];
  const tablet3 = listed.find((s) => s.device === 'Tablet 3')!;
  t.equal(tablet3.user, 'Marisol', 'the API lists Tablet 3 as Marisol\'s');
  await look(lupita, 'devices');
  await press(lupita, `[data-session-id="${tablet3.id}"] .revoke`);
  await lupita.type('#revoke-reason', 'Tablet left on the bar');
  await look(lupita, 'devices-revoke');
  await press(lupita, '#confirm-revoke');
  await lupita.waitForSelector(`[data-session-id="${tablet3.id}"]`, { hidden: true });

  // Back on the network, Tablet 3 is refused and shows the PIN pad saying why; the mole is still kept.
  await marisol.setOfflineMode(false);
  await waitText(marisol, /signed out by a manager/, '#login-notice', 20_000);
  t.equal(await waitingOf(marisol), 1, 'the mole is still kept on the tablet');
  await look(marisol, 'signed-out');
  const linesOf = async () => ((await r.admin.get(`/orders/${orderId}/dishes`)).body as Line[]).filter((l) => l.dish_id === r.menu.mole);
  t.same(await linesOf(), [], 'nothing sent with the revoked session');

  // Marisol signs in again: the mole goes, once.
  await signIn(marisol, 'Marisol', '2580');
  await marisol.waitForFunction(() => !document.querySelector('#offline-banner'), { timeout: 20_000 });
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  t.same((await linesOf()).map((l) => l.quantity), [1], 'one mole on the order, sent once');

  // The audit trail has the sign-out with who did it and why; Tablet 3 is listed again, a new session.
  const audit = (await r.admin.get('/audit?kind=session_revoked')).body as { entries: Array<{ staff: string; reason: string; detail: string }> };
  t.match(audit.entries, [{ staff: 'Lupita', reason: 'Tablet left on the bar', detail: 'Marisol signed out of Tablet 3' }]);
  const again = ((await r.admin.get('/sessions')).body as Listed[]).filter((s) => s.device === 'Tablet 3');
  t.ok(again.length === 1 && again[0]!.id !== tablet3.id, 'Tablet 3 signed in again, on a new session');
  t.same(problems, [], 'every screen fits both sizes with finger-sized targets');
});
