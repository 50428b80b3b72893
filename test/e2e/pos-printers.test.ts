import t from 'tap';
import { DESKTOP, LANDSCAPE, PORTRAIT, openOffice, press, shoot, signIn, tablet, waitText } from '../src/pos-browser.js';
import { posStage } from '../src/pos-stage.js';
import { PrinterSimulator } from '../src/printer-simulator.js';

/**
 * Issue 61 on screen: Lupita adds the bar's printer from the back office (address, paper, code page,
 * station), prints a test page on it, then the printer goes off: the next page waits in the queue with
 * its tries and the printer's error, and prints by itself once the printer is back; then it runs out of
 * paper: the next page waits saying "out of paper" and prints once the roll is changed.
 */
t.test('a manager adds a printer, prints a test page, and sees a job wait while the printer is off', async (t) => {
  const stage = await posStage(t);
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
  t.same(problems, [], 'every screen fits and every target is at least 44 px');
});
