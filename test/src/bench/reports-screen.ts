import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'puppeteer-core';
import { Client } from '../http-client.js';
import { openChromium } from '../chromium.js';
import { press, signIn, tablet } from '../pos-browser.js';
import { repoRoot, startStandalone } from '../standalone-process.js';
import type { BenchResult } from './webhooks.js';

const run = promisify(execFile);
const TZ = 'America/Mexico_City';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** From the hub's Reports tile to the first chart drawn (uPlot's canvas), in ms. */
async function firstChart(page: Page, range?: { from: string; to: string }): Promise<number> {
  await press(page, '#nav-office');
  await page.waitForSelector('#office-reports', { visible: true });
  const t0 = Date.now();
  await press(page, '#office-reports');
  if (range) {
    // The range typed once the screen is there; timed from the tile as the owner waits from it.
    await page.waitForSelector('#range-from');
    for (const [id, value] of [['#range-from', range.from], ['#range-to', range.to]] as const) {
      await page.$eval(id, (e, v) => { (e as HTMLInputElement).value = v; e.dispatchEvent(new Event('change', { bubbles: true })); }, value);
    }
    await page.waitForFunction((from) => document.querySelector<HTMLInputElement>('#range-from')?.value === from
      && (document.querySelector('#sales-by-day tbody')?.children.length ?? 0) > 300, { timeout: 60_000 }, range.from);
  }
  await page.waitForSelector('#chart-by-day canvas', { visible: true, timeout: 60_000 });
  return Date.now() - t0;
}

/**
 * Issue 60: the owner's first chart on a year of history. `npm run demo-data -- --days 365` (a busy
 * restaurant's year, ~765,000 events) into a fresh data dir, the standalone started on it and its
 * reports built; then in Chromium the manager taps Reports (today, the default) and then asks for the
 * whole year, three times each: from the tap to the first chart drawn. Beside it, GET /reports/sales
 * for the year over HTTP, the part of that time the server takes.
 */
export async function reportsScreenOverAYear(dir: string): Promise<BenchResult[]> {
  const dataDir = join(dir, 'year');
  mkdirSync(dataDir);
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', COMANDA_DATA_DIR: dataDir, COMANDA_TIMEZONE: TZ, COMANDA_ADMIN_PIN: '1234', LOG_LEVEL: 'warn' };
  const to = day(Date.now());
  const from = day(Date.now() - 364 * 86_400_000);
  const demo = await run(process.execPath, [join(repoRoot, 'packages/analytics/dist/demo-main.js'), '--days', '365', '--start', from, '--seed', '60'], { env, maxBuffer: 64 * 1024 * 1024 });
  const events = /(\d+) events of 365 days/.exec(demo.stdout)?.[1] ?? '?';
  const pos = await startStandalone(env, { startTimeoutMs: 600_000 });
  const chromium = await openChromium();
  try {
    const admin = new Client(pos.url);
    await admin.login('admin', '1234');
    // The reports fold the log after the API listens: 503 until they have.
    for (let i = 0; i < 6000 && (await admin.get('/reports/sales')).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
    const http: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = Date.now();
      const res = await admin.get(`/reports/sales?from=${from}&to=${to}`);
      if (res.status !== 200) throw new Error(`GET /reports/sales for the year: ${res.status}`);
      http.push(Date.now() - t0);
    }
    const page = await tablet(chromium.browser, pos.url, [], 'owner', 'manager');
    await signIn(page, 'admin', '1234');
    const today: number[] = [];
    const year: number[] = [];
    for (let i = 0; i < 3; i++) {
      today.push(await firstChart(page));
      year.push(await firstChart(page, { from, to }));
    }
    const within = (xs: number[]) => Math.max(...xs) < 2000;
    const fmt = (xs: number[]) => `median ${median(xs)} ms, worst ${Math.max(...xs)} ms`;
    return [
      { measure: `reports screen on a year of history (demo-data --days 365, ${events} events): Reports tapped to the first chart, today`, value: fmt(today), target: '< 2 s', ok: within(today) },
      { measure: 'reports screen on a year of history: the whole year asked for, Reports tapped to the first chart', value: `${fmt(year)} (GET /reports/sales for the year: ${fmt(http)})`, target: '< 2 s', ok: within(year) },
    ];
  } finally {
    await chromium.close();
    await pos.stop();
  }
}
