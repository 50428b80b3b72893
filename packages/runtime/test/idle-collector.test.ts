import t from 'tap';
import { collectOnceStarted, collectWhenIdle, fullCollection } from '../src/index.js';

const CHECK_MS = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `ok` holds (timers on a loaded machine fire late, never early). */
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 500 && !ok(); i++) await sleep(10);
};

/** A process whose CPU use the test decides: while `working`, every check finds a whole core used. */
function fakeProcess() {
  let cpu = 0;
  let collections = 0;
  let working = false;
  const stop = collectWhenIdle({
    quietMs: 3 * CHECK_MS,
    checkEveryMs: CHECK_MS,
    cpuMicros: () => (working ? (cpu += CHECK_MS * 1000) : cpu),
    collect: () => void collections++,
  });
  return {
    work: (on: boolean) => void (working = on),
    collections: () => collections,
    stop,
  };
}

t.test('a quiet process collects once after its start-up, and not again while it stays quiet', async (t) => {
  const p = fakeProcess();
  t.teardown(p.stop);
  await sleep(CHECK_MS * 2);
  t.equal(p.collections(), 0, 'not before the quiet period has passed');
  await until(() => p.collections() > 0);
  t.equal(p.collections(), 1, 'once the process has been quiet for the whole period');
  await sleep(CHECK_MS * 8);
  t.equal(p.collections(), 1, 'nothing new to give back: no further collection');
});

t.test('busy again, then quiet: one more collection; busy throughout: none', async (t) => {
  const p = fakeProcess();
  t.teardown(p.stop);
  await until(() => p.collections() > 0);
  t.equal(p.collections(), 1);
  // Busy at every check for a while: the quiet period starts over each time.
  p.work(true);
  await sleep(CHECK_MS * 8);
  t.equal(p.collections(), 1, 'no collection while the process works');
  p.work(false);
  await until(() => p.collections() > 1);
  t.equal(p.collections(), 2, 'the rush is over: its memory is given back once');
  await sleep(CHECK_MS * 6);
  t.equal(p.collections(), 2);
});

t.test('the full collection is V8\'s own, callable without --expose-gc', async (t) => {
  const gc = fullCollection();
  t.type(gc, 'function');
  let garbage: Array<{ i: number }> | null = Array.from({ length: 200_000 }, (_, i) => ({ i }));
  const before = process.memoryUsage().heapUsed;
  garbage = null;
  gc();
  t.equal(garbage, null);
  t.ok(process.memoryUsage().heapUsed < before, 'the heap shrank: the garbage was collected');
});

t.test('the start-up\'s garbage is collected once, as soon as the start-up is done, and never again', async (t) => {
  let started = false;
  let collections = 0;
  const times: number[] = [];
  const stop = collectOnceStarted(() => started, { checkEveryMs: CHECK_MS, collect: () => void collections++, collected: (ms) => void times.push(ms) });
  t.teardown(stop);
  await sleep(CHECK_MS * 4);
  t.equal(collections, 0, 'not while the start-up works');
  started = true;
  await until(() => collections > 0);
  t.equal(collections, 1);
  t.equal(times.length, 1, 'its time is told');
  await sleep(CHECK_MS * 6);
  t.equal(collections, 1, 'once only');

  const never = collectOnceStarted(() => true, { checkEveryMs: CHECK_MS, collect: () => void collections++ });
  never();
  await sleep(CHECK_MS * 4);
  t.equal(collections, 1, 'stopped before the start-up was done: no collection');
});
