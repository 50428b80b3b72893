import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { MemoryEventStore, type RecordedEvent } from '@comanda/event-store';
import { ALL_REPORTS, LiveReports, LocalClock, ReportFold, type ReportDefinition } from '../src/index.js';
import { restoreReports, saveReports } from '../src/checkpoint.js';
import { decodeState, encodeState } from '../src/state-codec.js';
import { salesReport } from '../src/reports/sales.js';
import { TZ, restaurantNight } from './restaurant-day.js';

const results = (reports: Iterable<{ definition: { name: string }; result(r: object): unknown }>) =>
  Object.fromEntries([...reports].map((r) => [r.definition.name, r.result({})]));

async function write(store: MemoryEventStore, events: RecordedEvent[]) {
  for (const e of events) await store.append(e.stream, [{ id: crypto.randomUUID(), type: e.type, data: e.data, metadata: e.metadata }], 'any');
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

t.test('a state survives JSON: Maps, classes and nested Maps come back, the clock is the new one', async (t) => {
  class Book { readonly orders = new Map<string, { lines: Map<string, number>; tags: string[] }>(); count = 0; }
  const clock = new LocalClock(TZ);
  const state = { clock, book: new Book(), days: new Map([['2026-03-01', { hourOrders: [0, 2], note: null }]]) };
  state.book.orders.set('o1', { lines: new Map([['l1', 1250]]), tags: ['vip'] });
  state.book.count = 1;
  const text = JSON.stringify(encodeState(state));
  t.notMatch(text, /Madrid/, 'the clock is not saved');
  const fresh = { clock: new LocalClock(TZ), book: new Book(), days: new Map() };
  const book = fresh.book;
  decodeState(JSON.parse(text), fresh);
  t.equal(fresh.book, book, 'the class instance is filled, not replaced');
  t.ok(fresh.book instanceof Book);
  t.same(fresh.book.orders.get('o1')!.lines.get('l1'), 1250);
  t.same(fresh.book.orders.get('o1')!.tags, ['vip']);
  t.equal(fresh.book.count, 1);
  t.same(fresh.days.get('2026-03-01'), { hourOrders: [0, 2], note: null });
  t.not(fresh.clock, clock);
  t.throws(() => encodeState({ x: Number.NaN }), /NaN/);
});

t.test('every report saved half way through a night and restored folds the rest to the same figures', async (t) => {
  const night = restaurantNight();
  const whole = new ReportFold(ALL_REPORTS, TZ);
  whole.apply(night);
  const dir = mkdtempSync(join(tmpdir(), 'reports-checkpoint-'));
  const file = join(dir, 'reports.checkpoint.json');
  for (const split of [1, Math.floor(night.length / 3), Math.floor(night.length / 2), night.length - 1]) {
    const first = new ReportFold(ALL_REPORTS, TZ);
    first.apply(night.slice(0, split));
    for (const r of first.reports) r.position = BigInt(split);
    await saveReports(file, first.reports[0]!.clock, first.reports);
    const restored = restoreReports(file, new LocalClock(TZ), ALL_REPORTS);
    t.equal(restored.length, ALL_REPORTS.length, `all restored at ${split}`);
    t.equal(restored[0]!.position, BigInt(split));
    for (const r of restored) {
      for (const e of night.slice(split)) if (r.definition.handles.includes(e.type)) r.definition.apply(r.state, e);
      r.position = BigInt(night.length);
    }
    t.same(results(restored), results(whole.reports), `restored at ${split} of ${night.length}, then folded`);
  }
});

t.test('nothing is restored from another time zone, an unreadable file or another version of a report', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'reports-checkpoint-'));
  const file = join(dir, 'reports.checkpoint.json');
  const fold = new ReportFold(ALL_REPORTS, TZ);
  fold.apply(restaurantNight());
  for (const r of fold.reports) r.position = 5n;
  await saveReports(file, fold.reports[0]!.clock, fold.reports);
  t.equal((readFileSync(file, 'utf8').match(/"version"/g) ?? []).length, ALL_REPORTS.length);
  t.same(restoreReports(file, new LocalClock('UTC'), ALL_REPORTS), []);
  const salesV2 = { ...(salesReport as ReportDefinition<unknown>), version: salesReport.version + 1 };
  const restored = restoreReports(file, new LocalClock(TZ), ALL_REPORTS.map((d) => (d.name === 'sales' ? salesV2 : d)));
  t.notOk(restored.some((r) => r.definition.name === 'sales'), 'a new version of a report is folded from 0');
  t.equal(restored.length, ALL_REPORTS.length - 1);
  t.same(restoreReports(join(dir, 'absent.json'), new LocalClock(TZ), ALL_REPORTS), []);
  writeFileSync(file, '{"format":1,"timeZone":"Europe/Madrid","reports":{"sales":{"version":1,"position":"x","state":{}}}}');
  t.same(restoreReports(file, new LocalClock(TZ), ALL_REPORTS), [], 'a state this build cannot read is skipped');
  writeFileSync(file, '{"format":1,');
  t.same(restoreReports(file, new LocalClock(TZ), ALL_REPORTS), []);
});

t.test('live reports save once caught up and at stop; a restart folds only what the log gained since', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'reports-checkpoint-'));
  const file = join(dir, 'reports.checkpoint.json');
  const night = restaurantNight();
  const split = night.findIndex((e) => e.stream === 'order-C');
  const store = new MemoryEventStore();
  await write(store, night.slice(0, split));
  const first = new LiveReports(store, ALL_REPORTS, TZ, undefined, { file, everyMs: 60_000 });
  await first.start();
  await until(() => existsSync(file));
  t.ok(existsSync(file), 'saved once caught up');
  t.equal(JSON.parse(readFileSync(file, 'utf8')).reports.sales.position, String(split));
  await first.stop();

  await write(store, night.slice(split));
  // Counts what a restart reads: only the events after the checkpoint.
  const delivered: bigint[] = [];
  const subscribe = store.subscribeToAll.bind(store);
  store.subscribeToAll = (after, handlers) => subscribe(after, { ...handlers, onEvents: (events) => { delivered.push(...events.map((e) => e.position)); return handlers.onEvents(events); } });
  const second = new LiveReports(store, ALL_REPORTS, TZ, undefined, { file, everyMs: 60_000 });
  await second.start();
  t.equal(delivered[0], BigInt(split + 1), 'the restart reads from the checkpoint on');
  const whole = new ReportFold(ALL_REPORTS, TZ);
  whole.apply(night);
  t.same(results(ALL_REPORTS.map((d) => second.get(d.name)!)), results(whole.reports));
  await until(() => JSON.parse(readFileSync(file, 'utf8')).reports.sales.position === String(night.length));
  t.equal(JSON.parse(readFileSync(file, 'utf8')).reports.sales.position, String(night.length), 'saved once caught up');
  await write(store, [{ ...night.find((e) => e.type === 'OrderPlaced')!, stream: 'order-Z' }]);
  await until(() => second.position() === BigInt(night.length + 1));
  await second.stop();
  t.equal(JSON.parse(readFileSync(file, 'utf8')).reports.sales.position, String(night.length + 1), 'saved at stop');
});

t.test('a restart with a changed report: the others serve at once from the checkpoint, it is rebuilt from 0 beside them', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'reports-checkpoint-'));
  const file = join(dir, 'reports.checkpoint.json');
  const night = restaurantNight();
  const store = new MemoryEventStore();
  await write(store, night);
  const first = new LiveReports(store, ALL_REPORTS, TZ, undefined, { file, everyMs: 60_000 });
  await first.start();
  await first.stop();

  // The next build changes sales (a new version); a rebuild from position 0 waits at a gate.
  const v2: ReportDefinition<unknown> = { ...(salesReport as ReportDefinition<unknown>), version: salesReport.version + 1 };
  const definitions = ALL_REPORTS.map((d) => (d.name === 'sales' ? v2 : d));
  let open!: () => void;
  const gate = new Promise<void>((resolve) => { open = resolve; });
  const fromZero: Array<bigint | null> = [];
  const subscribe = store.subscribeToAll.bind(store);
  store.subscribeToAll = (after, handlers) => {
    fromZero.push(after);
    return subscribe(after, { ...handlers, onEvents: async (events) => { if (after === null) await gate; return handlers.onEvents(events); } });
  };
  const second = new LiveReports(store, definitions, TZ, undefined, { file, everyMs: 60_000 });
  await second.start();
  t.equal(second.state, 'live', 'the restored reports serve once caught up from their own position');
  t.same(fromZero, [BigInt(night.length), null], 'they read from the checkpoint on; the changed one is rebuilt from position 0');
  t.equal(second.get('sales'), undefined, 'no version of it serves meanwhile');
  t.ok(second.isRebuilding('sales'));
  t.notOk(second.isRebuilding('waiters'));
  const whole = new ReportFold(ALL_REPORTS, TZ);
  whole.apply(night);
  t.same(results(ALL_REPORTS.filter((d) => d.name !== 'sales').map((d) => second.get(d.name)!)), results(whole.reports.filter((r) => r.definition.name !== 'sales')));
  open();
  await until(() => second.get('sales') !== undefined);
  t.equal(second.get('sales')!.definition.version, v2.version, 'swapped in once caught up');
  t.notOk(second.isRebuilding('sales'));
  t.same(second.get('sales')!.result({}).sections, whole.report('sales')!.result({}).sections);
  await second.stop();
  t.equal(JSON.parse(readFileSync(file, 'utf8')).reports.sales.version, v2.version, 'saved in its new version');
});

t.test('a checkpoint beyond the log (an older log put back) is folded again from position 0', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'reports-checkpoint-'));
  const file = join(dir, 'reports.checkpoint.json');
  const night = restaurantNight();
  const big = new MemoryEventStore();
  await write(big, night);
  const first = new LiveReports(big, ALL_REPORTS, TZ, undefined, { file, everyMs: 60_000 });
  await first.start();
  await first.stop();
  const older = new MemoryEventStore();
  await write(older, night.slice(0, 10));
  const second = new LiveReports(older, ALL_REPORTS, TZ, undefined, { file, everyMs: 60_000 });
  await second.start();
  const expected = new ReportFold(ALL_REPORTS, TZ);
  expected.apply(night.slice(0, 10));
  t.same(results(ALL_REPORTS.map((d) => second.get(d.name)!)), results(expected.reports));
  await second.stop();
});

t.test('a live service saves again on its timer only when the log moved', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'reports-checkpoint-'));
  const file = join(dir, 'reports.checkpoint.json');
  const night = restaurantNight();
  const store = new MemoryEventStore();
  await write(store, night.slice(0, 5));
  const live = new LiveReports(store, ALL_REPORTS, TZ, undefined, { file, everyMs: 20 });
  await live.start();
  await write(store, night.slice(5));
  await until(() => existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).reports.sales.position === String(night.length));
  t.equal(JSON.parse(readFileSync(file, 'utf8')).reports.sales.position, String(night.length));
  await live.stop();
});
