import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'puppeteer-core';
import { repoRoot } from './standalone-process.js';

const run = promisify(execFile);
export type Row = Record<string, string | number | null>;
export type Report = { report: string; position: string; sections: Record<string, Row[]> };

/** A report's table on the Reports screen as the report's rows: each cell's data-value, the report's own value. */
export const screenRows = (page: Page, id: string) => page.$$eval(`#${id} tbody tr`, (trs) => trs.map((tr) =>
  Object.fromEntries(Array.from(tr.querySelectorAll('td')).map((td) => [td.dataset.col, JSON.parse(td.dataset.value ?? 'null')]))));

/** The report's rows as the screen shows them: ids are kept for the CSV, not shown. */
export const withoutIds = (rows: Row[]) => rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'id' && !k.endsWith('_id'))));

/** `npm run analytics` (its built main) on a standalone's data dir for the days given; answers its stdout. */
export async function analyticsCli(dataDir: string, from: string, to: string, args: string[]): Promise<string> {
  return (await run(process.execPath, [join(repoRoot, 'packages/analytics/dist/main.js'), '--from', from, '--to', to, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', COMANDA_DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, maxBuffer: 16 * 1024 * 1024,
  })).stdout;
}
