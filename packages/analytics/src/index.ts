export { LocalClock, WEEKDAYS, type Place } from './clock.js';
export * from './report.js';
export { ReportFold, RunningReport } from './fold.js';
export { ALL_REPORTS, findReport, reportNames } from './reports/index.js';
export { percentile, LATE_AFTER_MINUTES } from './reports/kitchen.js';
