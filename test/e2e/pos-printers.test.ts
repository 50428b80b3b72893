import t from 'tap';
import { Client } from '../src/http-client.js';
import { DESKTOP, LANDSCAPE, PORTRAIT, openOffice, press, shoot, signIn, tablet, waitText } from '../src/pos-browser.js';
import { posStage } from '../src/pos-stage.js';
import { PrinterSimulator } from '../src/printer-simulator.js';

// One standalone and one browser for the file; a kitchen screen gone 3 s is gone for its printer.
const FALLBACK_SECONDS = 3;
const stage = await posStage(t, { COMANDA_KITCHEN_PAPER_FALLBACK_SECONDS: String(FALLBACK_SECONDS), COMANDA_PRINT_RETRY_MAX_SECONDS: '1' });

/**
 * Issue 61 on screen: Lupita adds the bar's printer from the back office (address, paper, code page,
 * station), prints a test page on it, then the printer goes off: the next page waits in the queue with
 * its tries and the printer's error, and prints by itself once the printer is back; then it runs out of
 * paper: the next page waits saying "out of paper" and prints once the roll is changed. Last, she gives it
 * the terrace's tablet: a bill asked for there prints on it.
 */
t.test('a manager adds a printer, prints a test page, and sees a job wait while the printer is off', async (t) => {
  if (!stage) return;
  const { pos, r, chromium, log, problems } = stage;
  const paper = new PrinterSimulator('cp858');
  const port = await paper.start();
  t.teardown(() => paper.stop());

  const lupita = await tablet(chromium.browser, pos.url, log, 'lupita', 'manager');
  await signIn(lupita, 'Lupita', '1357');
  await openOffice(lupita, 'printers');
  await waitText(lupita, /No printer yet/, 'main');
  await press(lupita, '#add-printer');
  await lupita.type('#printer-name', 'Barra');
  await lupita.type('#printer-host', '127.0.0.1');
  await lupita.$eval('#printer-port', (e, v) => { (e as HTMLInputElement).value = v; e.dispatchEvent(new Event('input', { bubbles: true })); }, String(port));
  await lupita.select('#printer-station', r.stations.bar);
  await lupita.select('#printer-mode', 'both');
  problems.push(...(await shoot(lupita, 'printer-add', { landscape: LANDSCAPE, portrait: PORTRAIT })));
  await press(lupita, '#printer-sheet .save');
  await lupita.waitForSelector('#printer-sheet', { hidden: true });
  await waitText(lupita, /Barra[\s\S]*127\.0\.0\.1:\d+ · 80 mm · cp858/, '.printer');
  const added = ((await r.admin.get('/printers')).body as Array<{ name: string; station_id: string; station_mode: string; code_page: string }>);
  t.match(added, [{ name: 'Barra', station_id: r.stations.bar, station_mode: 'both', code_page: 'cp858' }], 'the API has it as set on screen');

  await press(lupita, '[data-printer="Barra"] .test');
  const [page] = await paper.waitForJobs(1);
  t.ok(page!.text.some((l) => /Barra/.test(l)), 'the test page names the printer');
  t.equal(page!.cuts, 1, 'and is cut');

  // The printer goes off: the next page waits, with its tries and the error.
  await paper.stop();
  await press(lupita, '[data-printer="Barra"] .test');
  await waitText(lupita, /ECONNREFUSED/, '#print-queue', 20_000);
  problems.push(...(await shoot(lupita, 'printers', { landscape: LANDSCAPE, portrait: PORTRAIT, desktop: DESKTOP })));
  await paper.start(port);
  await paper.waitForJobs(2, 60_000);
  await waitText(lupita, /Nothing waiting/, '#print-queue', 20_000);
  t.equal(paper.jobs.length, 2, 'the waiting page printed once, by itself');

  // Out of paper: the printer takes the connection but says so when asked; the page waits, named as such.
  paper.paperOut = true;
  await press(lupita, '[data-printer="Barra"] .test');
  await waitText(lupita, /out of paper/, '#print-queue', 20_000);
  problems.push(...(await shoot(lupita, 'printers-out-of-paper', { landscape: LANDSCAPE })));
  t.equal(paper.jobs.length, 2, 'nothing printed without paper');
  t.ok(paper.unprinted === 0 && paper.statusQueries > 0, 'asked before sending: no job went to a printer without paper');
  paper.paperOut = false;
  await paper.waitForJobs(3, 60_000);
  await waitText(lupita, /Nothing waiting/, '#print-queue', 20_000);
  t.equal(paper.jobs.length, 3, 'paper back: the page printed once');

  // The terrace's tablet gets this printer for its bills: Lupita picks it by the name it signed in with.
  const terrace = await tablet(chromium.browser, pos.url, log, 'marisol');
  await terrace.evaluate(() => localStorage.setItem('comanda.device', 'Terraza 1'));
  await terrace.reload();
  await signIn(terrace, 'Marisol', '2580');
  await lupita.bringToFront();
  await press(lupita, '[data-printer="Barra"] .change');
  // At the foot of the sheet: scrolled to, as a finger would.
  await lupita.$eval('#printer-devices', (e) => e.scrollIntoView({ block: 'center' }));
  await press(lupita, '#printer-devices [data-device="Terraza 1"]');
  problems.push(...(await shoot(lupita, 'printer-devices', { landscape: LANDSCAPE, portrait: PORTRAIT })));
  await press(lupita, '#printer-sheet .save');
  await lupita.waitForSelector('#printer-sheet', { hidden: true });
  await waitText(lupita, /bills of Terraza 1/, '[data-printer="Barra"]');
  const marisol = new Client(pos.url);
  await marisol.login('Marisol', '2580');
  const waiterId = ((await marisol.get('/auth/me')).body as { id: string }).id;
  const orderId = ((await marisol.post('/orders', { user_id: waiterId, table_id: r.tables.T1, waiter: 'Marisol' })).body as { id: string }).id;
  t.equal((await marisol.post(`/orders/${orderId}/dishes`, [{ dish_id: r.menu.cerveza }])).status, 201);
  const billId = ((await marisol.post(`/orders/${orderId}/tickets`, { split: 'none' })).body as { ids: string[] }).ids[0]!;
  const printed = await terrace.evaluate(async (id) => (await fetch(`/tickets/${id}/print`, { method: 'POST' })).json() as Promise<{ message: string }>, billId);
  t.equal(printed.message, 'Bill queued for Barra', 'the bill asked for on the terrace\'s tablet goes to its printer (there is no till printer)');
  const bill = (await paper.waitForJobs(4))[3]!;
  t.ok(bill.text.some((l) => /Cerveza/.test(l)) && bill.text.some((l) => /TOTAL/.test(l)), 'the bill on its paper');
  // Issue 63: a bill still to pay ends with its guest link as a QR, at the address the tablet uses, and as text.
  const { path } = (await marisol.get(`/tickets/${billId}/guest-link`)).body as { path: string };
  t.same(bill.qr, [`${pos.url}${path}`], 'the QR on the paper opens the bill\'s guest page');
  t.match(bill.text.map((l) => l.trim()).join(''), `${pos.url}${path}`, 'and the link is printed under it (wrapped over two lines)');
  // The bill's receipt page on the POS: the link at its end, and its QR to scan.
  await terrace.goto(`${pos.url}/pos#/receipt/${billId}`);
  const qr = await terrace.waitForSelector('#receipt-guest-qr');
  t.equal(await qr!.evaluate((e) => e.getAttribute('data-link')), `${pos.url}${path}`, 'the receipt page shows the bill\'s guest QR');
  t.match((await terrace.$eval('#receipt', (e) => e.textContent ?? '')).replaceAll('\n', ''), `${pos.url}${path}`, 'and its link as text');
  t.same(problems, [], 'every screen fits and every target is at least 44 px');
});

/**
 * The station's screen (issue 61): the line's kitchen screen is closed longer than the fallback time,
 * three orders are fired (the last while the printer is out of paper); reopened, it says what was
 * printed while it was away and shows the ticket still waiting with its error, until dismissed.
 */
t.test('a kitchen screen back after its printer took over says so, and shows what waits for the printer', async (t) => {
  if (!stage) return;
  const { pos, r, chromium, log, problems } = stage;
  const paper = new PrinterSimulator('cp858');
  const port = await paper.start();
  t.teardown(() => paper.stop());
  t.equal((await r.admin.post('/printers', { name: 'Cocina', host: '127.0.0.1', port, paper_width: 80, code_page: 'cp858', station_id: r.stations.kitchen, station_mode: 'screen' })).status, 201);
  let kds = await tablet(chromium.browser, pos.url, log, 'kds', 'kitchen-screen');
  const station = `${pos.url}/kitchen?station=${r.stations.kitchen}`;
  await kds.goto(station);
  await signIn(kds, 'Chef', '3690', '#station');
  await kds.waitForSelector('#empty');

  const marisol = new Client(pos.url);
  await marisol.login('Marisol', '2580');
  const waiterId = ((await marisol.get('/auth/me')).body as { id: string }).id;
  const fire = async () => {
    const orderId = ((await marisol.post('/orders', { user_id: waiterId, table_id: null, waiter: 'Marisol' })).body as { id: string }).id;
    t.equal((await marisol.post(`/orders/${orderId}/dishes`, [{ dish_id: r.menu.mole }])).status, 201);
    t.equal((await marisol.post(`/orders/${orderId}/fire`)).status, 200);
  };
  // The screen goes away (closed on the tablet): past the fallback time its printer takes over.
  await kds.close();
  await new Promise((resolve) => setTimeout(resolve, FALLBACK_SECONDS * 1000 + 500));
  await fire();
  await fire();
  await paper.waitForJobs(2);
  paper.paperOut = true;
  await fire();

  kds = await chromium.browser.browserContexts().at(-1)!.newPage();
  await kds.setViewport(LANDSCAPE);
  await kds.goto(station);
  await waitText(kds, /Printed while this screen was away: 2 tickets, \d\d:\d\d/, '#paper-away', 20_000);
  const waiting = await waitText(kds, /1 waiting for Cocina[\s\S]*out of paper/, '#paper-queue', 20_000);
  t.match(waiting, /Mole|Cocina · \d+ s/, `the ticket waiting, its age and the printer's error: ${waiting}`);
  problems.push(...(await shoot(kds, 'kds-paper-away', { landscape: LANDSCAPE })));

  paper.paperOut = false;
  await paper.waitForJobs(3);
  await kds.waitForSelector('#paper-queue', { hidden: true, timeout: 20_000 });
  await waitText(kds, /Printed while this screen was away: 3 tickets, \d\d:\d\d/, '#paper-away', 20_000);
  t.equal(paper.jobs.length, 3, 'three tickets on paper, each once');
  t.ok(paper.jobs.every((j) => j.text.some((l) => /Cocina/.test(l))), 'the kitchen\'s tickets');
  await press(kds, '#paper-away-dismiss');
  await kds.waitForSelector('#paper-away', { hidden: true });
  await kds.reload();
  await kds.waitForSelector('#station');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  t.equal(await kds.$('#paper-away'), null, 'dismissed: not shown again on this tablet');
  t.same(problems, [], 'every screen fits and every target is at least 44 px');
});
