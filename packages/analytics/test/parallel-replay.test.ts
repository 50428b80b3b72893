import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { SqliteEventStore } from '@comanda/event-store';
import { ALL_REPORTS, ReportFold, canReplayInParallel, partition, replayInParallel, replayLog, type ReportDefinition } from '../src/index.js';
import { foldGroup } from '../src/fold-group.js';
import type { RunGroup } from '../src/parallel-replay.js';
import { salesReport } from '../src/reports/sales.js';
import { TZ, restaurantNight } from './restaurant-day.js';

/** The night (or its first `upTo` events) written into a real SQLite log file. */
async function nightLog(upTo = Infinity): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'parallel-replay-')), 'events.db');
  const store = new SqliteEventStore({ filename: file });
  for (const e of restaurantNight().slice(0, upTo)) await store.append(e.stream, [{ id: crypto.randomUUID(), type: e.type, data: e.data, metadata: e.metadata }], 'any');
  await store.close();
  return file;
}

// The threads' own code, run in this thread: the sources have no compiled worker module under the
// tests. What it hands back is cloned as a message between threads is.
const inThisThread: RunGroup = async (job, onProgress) => structuredClone(foldGroup(job, onProgress));
const results = (fold: ReportFold) => fold.reports.map((r) => r.result({}));

t.test('reports reading the same events are folded on one thread; every report is in exactly one group', async (t) => {
  // A service's mix: orders and the kitchen weigh most, the menu and the floor little.
  const heavy = new Set(['OrderPlaced', 'DishesAdded', 'OrderStatusChanged', 'TicketIssued', 'TicketPaid', 'PaymentTaken']);
  const weight = (type: string) => (heavy.has(type) ? 100 : type.startsWith('Kitchen') ? 150 : 1);
  const groups = partition(ALL_REPORTS, 2, weight);
  t.equal(groups.length, 2);
  t.same(groups.flat().map((d) => d.name).sort(), ALL_REPORTS.map((d) => d.name).sort());
  const withMix = groups.find((g) => g.some((d) => d.name === 'product-mix'))!.map((d) => d.name).sort();
  t.ok(['cancellations', 'product-mix', 'sales', 'waiters'].every((name) => withMix.includes(name)), 'the four reports of the order book share a thread');
  t.ok(groups.some((g) => g.some((d) => d.name === 'kitchen') && !g.some((d) => d.name === 'sales')), 'the kitchen\'s events are read on the other');
  t.equal(partition(ALL_REPORTS, 1).length, 1);
  t.equal(partition(ALL_REPORTS, 64, weight).length, 4, 'at most 4 threads');
  t.equal(partition(ALL_REPORTS.slice(0, 2), 64, weight).length, 2, 'at most one thread per report');
  t.same(partition([], 2), []);
});

t.test('a replay on threads gives every report exactly what a replay on one thread gives', async (t) => {
  const file = await nightLog();
  const store = new SqliteEventStore({ filename: file, recentEvents: 0 });
  const one = new ReportFold(ALL_REPORTS, TZ);
  await replayLog(store, one);
  await store.close();
  for (const threads of [1, 2, 3, 7]) {
    const fold = new ReportFold(ALL_REPORTS, TZ);
    const seen: bigint[] = [];
    const outcome = await replayInParallel(file, fold, { threads, runGroup: inThisThread, onProgress: (p) => seen.push(p.position) });
    t.same(results(fold), results(one), `${threads} thread(s)`);
    t.equal(outcome.events, restaurantNight().length);
    t.equal(fold.position, BigInt(restaurantNight().length));
    t.ok(seen.length > 0 && seen.every((p) => p <= BigInt(restaurantNight().length)), 'progress at the slowest thread');
  }
});

t.test('reports replayed on threads fold on from where the threads stopped, their shared order book one again', async (t) => {
  const night = restaurantNight();
  const one = new ReportFold(ALL_REPORTS, TZ);
  one.apply(night);
  // Half the night on threads (two groups: the order book's four reports and the other three), the rest here.
  const half = Math.floor(night.length / 2);
  const fold = new ReportFold(ALL_REPORTS, TZ);
  await replayInParallel(await nightLog(half), fold, { threads: 2, runGroup: inThisThread });
  const books = new Set(fold.reports.map((r) => (r.state as { book?: unknown }).book).filter((b) => b !== undefined));
  t.equal(books.size, 1, 'one book for the four reports that read it');
  fold.apply(night.slice(half));
  t.same(results(fold), results(one));
});

t.test('an empty log replays nothing; reports this build does not know by name run on one thread', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'parallel-replay-')), 'events.db');
  await new SqliteEventStore({ filename: file }).close();
  const fold = new ReportFold(ALL_REPORTS, TZ);
  t.same((await replayInParallel(file, fold, { runGroup: inThisThread })).events, 0);
  const changed: ReportDefinition<unknown> = { ...(salesReport as ReportDefinition<unknown>), version: 99 };
  t.notOk(canReplayInParallel([changed]), 'a thread could not rebuild it by name');
  t.notOk(canReplayInParallel(ALL_REPORTS), 'no compiled thread module beside the sources under the tests');
});

t.test('a thread that fails fails the replay', async (t) => {
  const file = await nightLog();
  const failing: RunGroup = async () => { throw new Error('thread died'); };
  await t.rejects(replayInParallel(file, new ReportFold(ALL_REPORTS, TZ), { runGroup: failing }), /thread died/);
});
