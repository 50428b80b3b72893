export { LocalClock, WEEKDAYS, type Place } from './clock.js';
export * from './report.js';
export { ReportFold, RunningReport } from './fold.js';
export { ALL_REPORTS, findReport, reportNames } from './reports/index.js';
export { percentile, LATE_AFTER_MINUTES } from './reports/kitchen.js';
export { replayLog, readLog, type ReplayOutcome, type ReplayProgress } from './replay.js';
export { toCsv, toJson, toTable, columns } from './output/text.js';
export { toHtml } from './output/html.js';
export { parseCli, render, runCli, UsageError, USAGE, FORMATS, type CliOptions, type Format } from './cli.js';
