import { type Position, readSqliteLog } from '@comanda/event-store';
import { ReportFold } from './fold.js';
import { findReport } from './reports/index.js';
import { handOver } from './state-codec.js';

/** What one thread folds: some reports, from a SQLite log file, up to a position. */
export interface GroupJob { file: string; upTo: string; reports: string[]; timeZone: string }
/** The group's reports' states, each as `handOver` gives it (crossing threads by structured clone). */
export interface GroupDone { states: Record<string, Record<string, unknown>> }

/**
 * One group's fold, as a replay thread (`replay-worker.ts`) runs it: only the event types its
 * reports read are read and parsed. Returns the states as a thread hands them over.
 */
export function foldGroup(job: GroupJob, onPage?: (position: Position) => void): GroupDone {
  const fold = new ReportFold(job.reports.map((name) => findReport(name)!), job.timeZone);
  const types = fold.reports.flatMap((r) => r.definition.handles);
  for (const page of readSqliteLog(job.file, { types, upTo: BigInt(job.upTo) })) {
    fold.apply(page);
    onPage?.(page[page.length - 1]!.position);
  }
  return { states: Object.fromEntries(fold.reports.map((r) => [r.definition.name, handOver(r.state)])) };
}
