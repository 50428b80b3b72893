import t from 'tap';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import puppeteer from 'puppeteer-core';
import { Client } from '../src/http-client.js';
import { repoRoot, startStandalone } from '../src/standalone-process.js';

const run = promisify(execFile);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT = process.env.ANALYTICS_SCREENSHOT ?? join(tmpdir(), 'comanda-analytics-report.png');
// A month generated (at a quarter of a busy restaurant's orders), replayed three times, a standalone started and
// Chromium: more than tap's default 120 s on a busy machine.
t.setTimeout(600_000);
const REPORTS = ['sales', 'product-mix', 'waiters', 'payments', 'tables', 'kitchen', 'cancellations', 'discounts', 'audit'];

t.test('a generated month: the CLI replay equals the live HTTP reports, and its HTML renders in Chromium', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-analytics-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', COMANDA_DATA_DIR: dataDir, COMANDA_TIMEZONE: 'America/Mexico_City', COMANDA_ADMIN_PIN: '1234', LOG_LEVEL: 'warn' };
  const cli = (script: string, args: string[]) => run(process.execPath, [join(repoRoot, 'packages/analytics/dist', script), ...args], { env, maxBuffer: 64 * 1024 * 1024 });

  const demo = await cli('demo-main.js', ['--days', '30', '--scale', '0.25', '--start', '2026-10-01', '--seed', '3']);
  t.match(demo.stdout, /demo-data: \d+ events of 30 days from 2026-10-01 \(seed 3\)/);
  t.match((await cli('demo-main.js', ['--days', '1']).catch((e: { stderr: string; code: number }) => e)), { code: 1, stderr: /not empty/ }, 'only into an empty log');

  // A first start on a month of history (read models, reports, the kitchen relay's first run) on a busy machine.
  const pos = await startStandalone(env, { startTimeoutMs: 150_000 });
  t.teardown(() => pos.stop());
  const manager = new Client(pos.url);
  await manager.login('admin', '1234');

  // Replayed after the login's own events, so both sides include the same log.
  const sameAsCli = async (client: Client) => {
    const replay = await cli('main.js', ['--format', 'json']);
    t.match(replay.stderr, /replayed [\d,]+ events/, 'plain progress lines when not on a terminal');
    const fromCli = JSON.parse(replay.stdout) as { reports: Array<{ report: string; position: string }> };
    t.same(fromCli.reports.map((r) => r.report), REPORTS);
    for (const report of fromCli.reports) {
      let live = await client.get(`/reports/${report.report}`);
      // The reports fold the log after the API listens (readiness does not wait for them): 503 until then.
      for (let i = 0; i < 600 && (live.body as { position: string }).position !== report.position; i++) {
        await new Promise((r) => setTimeout(r, 100));
        live = await client.get(`/reports/${report.report}`);
      }
      t.equal(live.status, 200);
      t.same(live.body, report, `${report.report}: the HTTP report equals the CLI's`);
    }
    return fromCli;
  };
  const fromCli = await sameAsCli(manager);
  const sales = fromCli.reports[0] as unknown as { sections: { totals: Array<{ orders: number; net: number }>; by_day: unknown[] } };
  t.ok(sales.sections.totals[0]!.orders > 500, 'a month of services');
  t.ok(sales.sections.by_day.length >= 30, 'every day has sales (a dinner may end after midnight, on the 31st)');
  const range = await manager.get('/reports/sales?from=2026-10-06&to=2026-10-07');
  t.same((range.body as { sections: { by_day: Array<{ day: string }> } }).sections.by_day.map((d) => d.day), ['2026-10-06', '2026-10-07']);
  const again = await cli('main.js', ['--format', 'csv', '--to', '2026-10-11']);
  t.equal((await cli('main.js', ['--format', 'csv', '--to', '2026-10-11'])).stdout, again.stdout, 'the same log gives byte-identical CSV');

  // A restart restores the reports from their checkpoint in the data dir and folds only what the
  // log gained since (the new login's events): the same figures as a replay from position 0.
  t.equal(await pos.stop(), 0);
  t.ok(existsSync(join(dataDir, 'reports.checkpoint.json')), 'the reports were saved in the data dir');
  const restarted = await startStandalone(env, { startTimeoutMs: 150_000 });
  t.teardown(() => restarted.stop());
  const afterRestart = new Client(restarted.url);
  await afterRestart.login('admin', '1234');
  await sameAsCli(afterRestart);

  const html = join(dataDir, 'reports.html');
  await cli('main.js', ['--format', 'html', '--out', html]);
  t.ok(readFileSync(html, 'utf8').length > 150_000, 'one file, the charting library inside');
  if (!existsSync(CHROMIUM)) {
    // A page a person uses is tested in a real browser or not at all: a missing one fails, as a missing PostgreSQL does.
    t.fail(`HTML not rendered: no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)`);
    return;
  }
  const profile = mkdtempSync(join(tmpdir(), 'comanda-chromium-'));
  t.teardown(() => rmSync(profile, { recursive: true, force: true }));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', `--user-data-dir=${profile}`],
  });
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 900 });
  const problems: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warn') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (err) => problems.push(`pageerror: ${String(err)}`));
  page.on('request', (req) => { if (!/^(file|data):/.test(req.url())) problems.push(`network: ${req.url()}`); });
  await page.goto(`file://${html}`, { waitUntil: 'load' });
  await page.waitForSelector('body[data-charts]');
  t.ok(Number(await page.$eval('body', (b) => b.dataset.charts)) >= 10, 'every report drew its charts');
  // Scrolled to the first charts, then the screenshot's own pixels are counted: not a blank page.
  const png = await page.screenshot({ encoding: 'base64' });
  writeFileSync(SCREENSHOT, Buffer.from(png, 'base64'));
  t.comment(`screenshot: ${SCREENSHOT}`);
  const colours = await page.evaluate(async (data) => {
    const img = new Image();
    img.src = `data:image/png;base64,${data}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0);
    const px = ctx.getImageData(0, 0, img.width, img.height).data;
    let inked = 0;
    const seen = new Set<number>();
    for (let i = 0; i < px.length; i += 4) {
      if (px[i]! < 240 || px[i + 1]! < 240 || px[i + 2]! < 240) inked++;
      seen.add((px[i]! << 16) | (px[i + 1]! << 8) | px[i + 2]!);
    }
    return { inked: inked / (px.length / 4), distinct: seen.size };
  }, png);
  t.ok(colours.inked > 0.03, `the screenshot is not blank (${(colours.inked * 100).toFixed(1)} % inked)`);
  t.ok(colours.distinct > 20, `charts in colour (${colours.distinct} colours)`);
  // A bar of the first chart is drawn in the chart's blue.
  t.ok(await page.$eval('#chart-0', (c) => {
    const ctx = (c as HTMLCanvasElement).getContext('2d')!;
    const d = ctx.getImageData(0, 0, (c as HTMLCanvasElement).width, (c as HTMLCanvasElement).height).data;
    for (let i = 0; i < d.length; i += 4) if (d[i] === 0x2f && d[i + 1] === 0x6f && d[i + 2] === 0xb0) return true;
    return false;
  }), 'the sales chart has bars');
  t.same(problems, [], 'no console errors, nothing fetched from the network');
});
