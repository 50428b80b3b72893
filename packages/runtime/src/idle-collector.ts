import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { keepNextTickShape } from './next-tick-shape.js';

export interface IdleCollectorOptions {
  /** How long the process must stay quiet before it collects (default 30 s). */
  quietMs?: number;
  /** How often the CPU the process used is looked at (default 10 s). */
  checkEveryMs?: number;
  /** Share of one core above which a check counts as busy (default 2 %: an idle standalone uses ~0.7 %). */
  busyShare?: number;
  /** The full collection to run (default V8's, exposed at run time). */
  collect?: () => void;
  /** CPU time the process has used, in µs (default `process.cpuUsage`). */
  cpuMicros?: () => number;
  /** Called after each collection with the time it took (for a log line). */
  collected?: (ms: number) => void;
}

/** V8's `gc`, once exposed (one context for the process, however many collectors ask). */
let exposedGc: (() => void) | undefined;

/**
 * V8's own full collection, made callable without `--expose-gc` on the command line: the flag is set
 * at run time and a fresh context gets the `gc` function it adds (the isolate's, collecting the whole heap).
 * Each collection first takes a fresh `process.nextTick` entry to keep (`keepNextTickShape`): a full
 * collection made while none is queued would otherwise cost every later entry ~0.2 µs.
 */
export function fullCollection(): () => void {
  const gc = (exposedGc ??= exposeGc());
  return () => {
    keepNextTickShape();
    gc();
  };
}

function exposeGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/**
 * Gives memory back once the process has gone quiet: one full collection after `quietMs` in which
 * every check found the process nearly idle, then none until it has been busy again.
 *
 * Why: V8 returns the heap a burst of work grew (building the read models on a first start, a
 * service's reads) only after a full collection, and its memory reducer is armed only by one: a
 * process that served a rush with young-generation collections alone kept ~200 MiB resident through
 * the quiet afternoon that followed, ~75 MiB of it garbage (measured: 199 → 127 MiB after one
 * collection, which took ~40 ms). A quiet process has no request waiting on the pause.
 */
export function collectWhenIdle(options: IdleCollectorOptions = {}): () => void {
  const quietMs = options.quietMs ?? 30_000;
  const checkEveryMs = options.checkEveryMs ?? 10_000;
  const busyShare = options.busyShare ?? 0.02;
  const cpuMicros = options.cpuMicros ?? cpuNow;
  const collect = options.collect ?? fullCollection();
  // The start-up's own work (opening stores, catching up) is worth giving back too.
  let busySinceCollection = true;
  let quietFor = 0;
  let lastCpu = cpuMicros();
  const timer = setInterval(() => {
    const cpu = cpuMicros();
    const share = (cpu - lastCpu) / 1000 / checkEveryMs;
    lastCpu = cpu;
    if (share > busyShare) {
      busySinceCollection = true;
      quietFor = 0;
      return;
    }
    quietFor += checkEveryMs;
    if (!busySinceCollection || quietFor < quietMs) return;
    const started = performance.now();
    collect();
    options.collected?.(performance.now() - started);
    busySinceCollection = false;
    // The collection's own CPU must not count as the next check's business.
    lastCpu = cpuMicros();
  }, checkEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}

export interface StartCollectorOptions {
  /** How often `started` is asked (default 100 ms). */
  checkEveryMs?: number;
  /** The full collection to run (default V8's, exposed at run time). */
  collect?: () => void;
  /** Called after the collection with the time it took (for a log line). */
  collected?: (ms: number) => void;
}

/**
 * One full collection as soon as the start-up's work is done (`started()`, asked every `checkEveryMs`),
 * then none: the idle collector above takes over.
 *
 * Why: a first start builds the read models from the log and the reports fold it, which leaves tens of
 * MB of garbage in the old generation. Until V8's next full collection (seconds to tens of seconds under
 * load: the old generation fills slowly) young collections kept promoting what requests had just made:
 * `--trace-gc-nvp` under `GET /` showed ~275 kB promoted per young collection and 2–2.5 ms pauses every
 * ~45 ms, the heap growing by ~1.5 MB a collection, until the first full one; from then on ~3.4 kB and
 * 0.7–1 ms. Our reading (not traced): a young collection keeps whatever an old object points to, dead or
 * not, so old garbage that pointed into the young generation kept what it pointed to alive, and what was
 * promoted that way did the same for the next. One collection here (~40–60 ms, once, as the process
 * becomes ready) clears it before the service's traffic builds on it.
 */
export function collectOnceStarted(started: () => boolean, options: StartCollectorOptions = {}): () => void {
  const collect = options.collect ?? fullCollection();
  const timer = setInterval(() => {
    if (!started()) return;
    clearInterval(timer);
    const at = performance.now();
    collect();
    options.collected?.(performance.now() - at);
  }, options.checkEveryMs ?? 100);
  timer.unref();
  return () => clearInterval(timer);
}
