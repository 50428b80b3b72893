import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '@comanda/config';
import { isCalendarDate } from '@comanda/domain';
import { openEventStore } from '@comanda/event-store';
import { ReportFold } from './fold.js';
import { toHtml } from './output/html.js';
import { toCsv, toJson, toTable } from './output/text.js';
import { canReplayInParallel, replayInParallel } from './parallel-replay.js';
import { progressPrinter } from './progress.js';
import { replayLog } from './replay.js';
import type { DayRange, ReportDefinition } from './report.js';
import { ALL_REPORTS, reportNames } from './reports/index.js';

export const FORMATS = ['table', 'json', 'csv', 'html'] as const;
export type Format = (typeof FORMATS)[number];

export interface CliOptions {
  range: DayRange;
  reports: ReadonlyArray<ReportDefinition<unknown>>;
  format: Format;
  out: string | null;
  eventStoreUrl: string | null;
}

export const USAGE = `npm run analytics -- [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--report NAME] [--format table|json|csv|html] [--out FILE] [--eventstore URL]
  Replays the event log (the SQLite file of COMANDA_DATA_DIR, or COMANDA_EVENTSTORE_URL / --eventstore)
  into the reports, days in COMANDA_TIMEZONE. Reports: ${reportNames().join(', ')}.`;

/** A bad argument: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function parseCli(argv: string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        from: { type: 'string' }, to: { type: 'string' }, report: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' }, eventstore: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  for (const key of ['from', 'to'] as const) {
    const v = values[key];
    if (v !== undefined && !isCalendarDate(v)) throw new UsageError(`--${key} must be a date YYYY-MM-DD (got "${v}")`);
  }
  if (values.from && values.to && values.from > values.to) throw new UsageError('--from must not be after --to');
  const format = (values.format ?? 'table') as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')} (got "${values.format}")`);
  let reports = ALL_REPORTS;
  if (values.report !== undefined) {
    const found = ALL_REPORTS.filter((r) => r.name === values.report);
    if (found.length === 0) throw new UsageError(`--report must be one of ${reportNames().join(', ')} (got "${values.report}")`);
    reports = found;
  }
  return {
    range: { ...(values.from ? { from: values.from } : {}), ...(values.to ? { to: values.to } : {}) },
    reports, format, out: values.out ?? null, eventStoreUrl: values.eventstore ?? null,
  };
}

/** Renders folded reports in a format. */
export function render(fold: ReportFold, options: Pick<CliOptions, 'range' | 'format' | 'reports'>, restaurant?: string): string {
  const results = fold.reports.map((r) => r.result(options.range));
  switch (options.format) {
    case 'json': return toJson(results);
    case 'csv': return toCsv(results);
    case 'html': return toHtml(results, options.reports, restaurant);
    case 'table': return toTable(results);
  }
}

/** The command line: replay, then print (or write `--out`). */
export async function runCli(argv: string[], config: Config, output: NodeJS.WritableStream = process.stdout): Promise<void> {
  const options = parseCli(argv);
  const eventStoreUrl = options.eventStoreUrl ?? config.eventStoreUrl;
  // Opened (and so checked: a damaged file stops here with one line) even when threads read it.
  const store = await openEventStore({ ...config, eventStoreUrl });
  try {
    const fold = new ReportFold(options.reports, config.timezone);
    const progress = progressPrinter();
    let last = null as Parameters<typeof progress.update>[0] | null;
    const onProgress = (p: NonNullable<typeof last>) => {
      last = p;
      progress.update(p);
    };
    if (eventStoreUrl === null && canReplayInParallel(options.reports)) await replayInParallel(join(config.dataDir, 'events.db'), fold, { onProgress });
    else await replayLog(store, fold, onProgress);
    progress.finish(last);
    const text = render(fold, options, config.restaurantName);
    if (options.out) {
      writeFileSync(options.out, text);
      process.stderr.write(`wrote ${options.out}\n`);
    } else {
      output.write(text);
    }
  } finally {
    await store.close();
  }
}
