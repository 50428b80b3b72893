import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type Position, sqliteLogHead, sqliteLogMix } from '@comanda/event-store';
import type { ReportFold } from './fold.js';
import type { GroupDone, GroupJob } from './fold-group.js';
import type { ReportDefinition } from './report.js';
import type { ReplayOutcome, ReplayProgress } from './replay.js';
import { findReport } from './reports/index.js';
import { takeOver } from './state-codec.js';

/** At most this many threads: 8 reports fall in fewer natural groups, and the search below is k^8. */
const MAX_THREADS = 4;

/**
 * Reports in at most `groups` groups, so that the busiest thread has the least to read: a group
 * reads the union of its reports' event types once (reports sharing the order book's events belong
 * together), and a type weighs what `weight` says (the log's recent mix: events and bytes). Every
 * assignment is tried (at most 4^8); ties go to the least total reading, then the first found.
 */
export function partition(
  definitions: ReadonlyArray<ReportDefinition<unknown>>,
  groups: number,
  weight: (type: string) => number = () => 1,
): Array<Array<ReportDefinition<unknown>>> {
  const k = Math.max(1, Math.min(groups, MAX_THREADS, definitions.length));
  if (definitions.length === 0) return [];
  const types = [...new Set(definitions.flatMap((d) => d.handles))];
  const w = types.map(weight);
  // Which of `types` each report reads.
  const masks = definitions.map((d) => types.map((t) => d.handles.includes(t)));
  const assign = new Array<number>(definitions.length).fill(0);
  let best: { max: number; total: number; assign: number[] } | null = null;
  const evaluate = () => {
    const loads = Array.from({ length: k }, (_, g) => types.reduce((sum, _t, i) => (masks.some((m, r) => assign[r] === g && m[i]) ? sum + w[i]! : sum), 0));
    const max = Math.max(...loads);
    const total = loads.reduce((a, b) => a + b, 0);
    if (!best || max < best.max || (max === best.max && total < best.total)) best = { max, total, assign: [...assign] };
  };
  // Report 0 always in group 0, report r in a group at most one past the highest used: each split once.
  const search = (r: number, used: number) => {
    if (r === definitions.length) return evaluate();
    for (let g = 0; g <= Math.min(used + 1, k - 1); g++) {
      assign[r] = g;
      search(r + 1, Math.max(used, g));
    }
  };
  search(0, -1);
  const chosen = best!.assign;
  return Array.from({ length: k }, (_, g) => definitions.filter((_d, r) => chosen[r] === g)).filter((g) => g.length > 0);
}

export type RunGroup = (job: GroupJob, onProgress: (position: Position) => void) => Promise<GroupDone>;

const WORKER = new URL('./replay-worker.js', import.meta.url);

/**
 * Whether these reports can be replayed on threads: each is a report this build knows by name and
 * version (a thread rebuilds them by name), and the thread's compiled module exists (it does not when
 * the sources run untranspiled, as under the tests, which then replay on one thread).
 */
export function canReplayInParallel(definitions: ReadonlyArray<ReportDefinition<unknown>>): boolean {
  return existsSync(fileURLToPath(WORKER)) && definitions.every((d) => findReport(d.name) === d);
}

/** A group on a thread of its own (`replay-worker.ts`). */
export const inWorker: RunGroup = (job, onProgress) =>
  new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: job });
    let done: GroupDone | undefined;
    worker.on('message', (m: { progress?: string; done?: GroupDone }) => {
      if (m.progress !== undefined) onProgress(BigInt(m.progress));
      if (m.done) done = m.done;
    });
    worker.on('error', reject);
    worker.on('exit', (code) => (done && code === 0 ? resolve(done) : reject(new Error(`a replay thread exited with ${code} before it finished`))));
  });

/**
 * Replays a SQLite log file up to its head at the start into `fold`, its reports split over threads
 * (as many as the machine has cores, at most MAX_THREADS and one per report): each thread reads the file on its own
 * connection, only the events its reports read, and hands back their states, which are read into
 * `fold`'s reports. A restaurant's laptop has 2 cores or more, and a replay is CPU-bound.
 */
export async function replayInParallel(
  file: string,
  fold: ReportFold,
  options: { threads?: number; onProgress?: (p: ReplayProgress) => void; runGroup?: RunGroup } = {},
): Promise<ReplayOutcome> {
  const started = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
  const head = sqliteLogHead(file);
  if (head === null) return { events: 0, seconds: seconds(), eventsPerSecond: 0 };
  const mix = sqliteLogMix(file);
  // A row costs its data's parse plus a fixed part (SQLite's stepping, the other columns): ~200 bytes' worth.
  const weight = (type: string) => { const m = mix.get(type); return m ? m.events * 200 + m.bytes : 1; };
  const groups = partition(fold.reports.map((r) => r.definition), options.threads ?? availableParallelism(), weight);
  const reached = groups.map(() => 0n);
  const results = await Promise.all(groups.map((group, i) =>
    (options.runGroup ?? inWorker)({ file, upTo: head.toString(), reports: group.map((d) => d.name), timeZone: fold.reports[0]!.clock.timeZone }, (position) => {
      reached[i] = position;
      const slowest = reached.reduce((a, b) => (b < a ? b : a));
      options.onProgress?.({ events: Number(slowest), position: slowest, head, seconds: seconds() });
    })));
  for (const { states } of results) {
    for (const r of fold.reports) if (states[r.definition.name] !== undefined) takeOver(states[r.definition.name]!, r.state as Record<string, unknown>);
  }
  for (const r of fold.reports) r.position = head;
  fold.position = head;
  // Positions of the SQLite log are contiguous from 1: the head is the number of events replayed.
  fold.events = Number(head);
  const took = seconds();
  return { events: fold.events, seconds: took, eventsPerSecond: took > 0 ? Math.round(fold.events / took) : fold.events };
}
