import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LoadFigures, RUN_SECONDS, type Server, f0, load, login, median, medianOf, startProcess } from './load.js';
import { writeRestaurantHistory } from './restaurant-history.js';
import type { BenchResult } from './webhooks.js';

const today = () => new Date().toISOString().slice(0, 10);

/** Unmeasured load on each path before its rounds (`BENCH_WARMUP_SECONDS`). */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);

/** The standalone (`npm start`'s entry) on a data dir, at the default log level unless told. */
export const startProduct = (dataDir: string, logFile: string, env: Record<string, string> = {}, nodeArgs: string[] = []) =>
  startProcess('services/standalone/dist/main.js', [], { COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', COMANDA_TIMEZONE: 'UTC', ...env }, logFile, nodeArgs);

/**
 * What the product answered for a path, byte for byte: its body and every header it chose (Node's own
 * framing headers — date, length, keep-alive — are written by the bare server's Node alike), and the
 * headers of its 304 to a client holding the ETag. The bare server is given the same, so the two send
 * the same bytes and the comparison is what the product does to decide them.
 */
export interface Answer { url: string; body: string; etag: string | null; headers: Record<string, string>; notModified: Record<string, string> }

const FRAMING = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
const chosenHeaders = (res: Response) => {
  const chosen: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!FRAMING.has(name)) chosen[name] = value;
  });
  return chosen;
};

export async function answersOf(product: Server, paths: string[], cookie: string): Promise<Answer[]> {
  return Promise.all(paths.map(async (url) => {
    const res = await fetch(product.url + url, { headers: { cookie } });
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
    const etag = res.headers.get('etag');
    const body = await res.text();
    const revalidated = etag ? await fetch(product.url + url, { headers: { cookie, 'if-none-match': etag } }) : null;
    if (revalidated && revalidated.status !== 304) throw new Error(`GET ${url} with its ETag answered ${revalidated.status}`);
    return { url, body, etag, headers: chosenHeaders(res), notModified: revalidated ? chosenHeaders(revalidated) : {} };
  }));
}

export async function startBare(dir: string, answers: Answer[], name: string): Promise<Server> {
  const file = join(dir, `${name}.answers.json`);
  writeFileSync(file, JSON.stringify(answers));
  return startProcess('test/dist/bench/bare-server.js', [file], {}, join(dir, `${name}.bare.log`));
}

/**
 * One path at one connection count: each server's median figures, and the medians of the ratios of
 * each round's pair (a pair ran back to back, so its ratio is what the alternation protects: the
 * medians of the two sides apart may come from different rounds).
 */
export interface Comparison { url: string; bytes: number; connections: number; product: LoadFigures; bare: LoadFigures; ratio: number; cpuRatio: number }

/**
 * Alternating rounds of each comparison (`BENCH_ROUNDS`, default 7) of `BENCH_ROUND_SECONDS` each
 * (default 1.5): the figures are their medians. Short rounds, many of them: this machine's speed
 * swings within seconds (docs/benchmarks.md), and a pair of rounds run back to back is what sees the
 * same machine.
 */
const ROUNDS = Math.max(1, Math.floor(Number(process.env.BENCH_ROUNDS ?? 7)) || 1);
const ROUND_SECONDS = Math.max(0.5, Number(process.env.BENCH_ROUND_SECONDS ?? 1.5) || 1.5);

/**
 * Each path loaded on the product and on the bare server in turn (product, bare, product, bare…),
 * `rounds` times at each connection count, with the same request (the same session cookie); the
 * figures are the medians of the rounds, the ratios the medians of each round's pair.
 */
export async function compare(
  product: Server, bare: Server, answers: Answer[], connectionCounts: number[], rounds: number, headersOf: (a: Answer) => Record<string, string> = () => ({}),
): Promise<Comparison[]> {
  const out: Comparison[] = [];
  // Both servers run each path unmeasured first: a restaurant's server answers all day, so the figure
  // that matters is the JIT's steady state (the product's first seconds on a path cost more CPU per
  // request: more code to optimise than the bare server's).
  // Both get the same request, the tablet's session cookie included (a bare server reads it too).
  for (const answer of answers) {
    const cookie = await login(product.url);
    await load(product, [{ path: answer.url }], connectionCounts[0]!, { cookie, ...headersOf(answer) }, WARMUP_SECONDS);
    await load(bare, [{ path: answer.url }], connectionCounts[0]!, { cookie, ...headersOf(answer) }, WARMUP_SECONDS);
  }
  for (const connections of connectionCounts) {
    for (const answer of answers) {
      const p: LoadFigures[] = [];
      const b: LoadFigures[] = [];
      for (let r = 0; r < rounds; r++) {
        const cookie = await login(product.url);
        p.push(await load(product, [{ path: answer.url }], connections, { cookie, ...headersOf(answer) }, ROUND_SECONDS));
        b.push(await load(bare, [{ path: answer.url }], connections, { cookie, ...headersOf(answer) }, ROUND_SECONDS));
      }
      out.push({
        url: answer.url, bytes: Buffer.byteLength(answer.body), connections, product: medianOf(p), bare: medianOf(b),
        ratio: median(p.map((x, i) => x.requestsPerSecond / b[i]!.requestsPerSecond)),
        cpuRatio: median(p.map((x, i) => b[i]!.cpuMicros / x.cpuMicros)),
      });
    }
  }
  return out;
}

const ratio = (c: Comparison) => c.ratio;
const line = (c: Comparison) =>
  `${f0(c.product.requestsPerSecond)} req/s (p99 ${c.product.p99} ms) vs bare Fastify ${f0(c.bare.requestsPerSecond)} req/s: ${ratio(c).toFixed(2)}×; ` +
  `CPU per request ${f0(c.product.cpuMicros)} µs vs ${f0(c.bare.cpuMicros)} µs (${c.cpuRatio.toFixed(2)}×)` +
  (c.product.failures ? `, ${c.product.failures} failed requests` : '');

export interface ReadBench { results: BenchResult[]; product: Server }

/**
 * Every read a tablet or the owner makes, 200 dishes, 100 tables and 1,000 orders (4 days), each GET
 * beside a bare Fastify server sending the byte-identical body, 10 and 50 connections; then a
 * tablet's revalidation (`If-None-Match` with the ETag it holds) beside the bare server answering 304.
 */
export async function readsBesideBareFastify(dir: string, product: Server, ids: { userId: string; tableId: string }): Promise<BenchResult[]> {
  const day = today();
  const paths = [
    '/', '/tables', '/dishes', '/orders', '/orders?all=true', '/orders/status/pending', `/orders/total-sales/${day}`,
    `/orders/user/${ids.userId}`, `/orders/table/${ids.tableId}`, `/orders/date-range?start_date=${day}&end_date=${day}`,
  ];
  const answers = await answersOf(product, paths, await login(product.url));
  const bare = await startBare(dir, answers, 'reads');
  try {
    const figures = await compare(product, bare, answers, [10, 50], ROUNDS);
    const results = figures.map((c) => ({
      measure: `GET ${c.url} (${f0(c.bytes)} bytes, ${c.connections} connections, 1,000 orders)`,
      value: line(c),
      // The greeting is no list: reported (its ratio to bare Fastify is retired as a target).
      target: c.url === '/' ? 'reported' : '≥ 0.5× bare Fastify',
      ok: (c.url === '/' || ratio(c) >= 0.5) && c.product.failures === 0,
    }));
    const polled = answers.filter((a) => a.etag && (a.url === '/tables' || a.url === '/orders/status/pending'));
    for (const c of await compare(product, bare, polled, [10, 50], ROUNDS, (a) => ({ 'if-none-match': a.etag! }))) {
      results.push({
        measure: `GET ${c.url} revalidated (If-None-Match → 304, ${c.connections} connections, 1,000 orders)`,
        value: line(c),
        target: '≥ 0.8× bare Fastify answering 304',
        ok: ratio(c) >= 0.8 && c.product.failures === 0,
      });
    }
    return results;
  } finally {
    await bare.stop();
  }
}

/** Some ids the order queries need: a waiter with orders and a table with orders. */
export async function someIds(product: Server): Promise<{ userId: string; tableId: string }> {
  const cookie = await login(product.url);
  const orders = await (await fetch(`${product.url}/orders`, { headers: { cookie } })).json() as Array<{ user_id: string; table_id: string | null }>;
  const seated = orders.find((o) => o.table_id) ?? orders[0]!;
  return { userId: seated.user_id, tableId: seated.table_id ?? '' };
}

/** How long a process is left without a request before its idle RSS is read. */
const IDLE_SECONDS = 45;

/** RSS once the process has been left alone: V8 manages its own heap, and this is what it keeps. */
async function idleRss(product: Server): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  return product.rssMiB();
}

/**
 * The history-size curve: the same restaurant with 1k, 10k and 100k orders in its log, each read
 * whose answer is small measured beside bare Fastify; RSS after start and under load.
 */
export async function historyCurve(dir: string, sizes: number[]): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  /** total-sales at each size: the product's req/s and its ratio to bare Fastify in the same rounds. */
  const salesAt = new Map<number, { rps: number; ratio: number }>();
  for (const orders of sizes) {
    const dataDir = join(dir, `history-${orders}`);
    await writeRestaurantHistory(dataDir, { dishes: 200, tables: 100, orders });
    const product = await startProduct(dataDir, join(dir, `history-${orders}.log`));
    try {
      const afterStart = product.rssMiB();
      const ids = await someIds(product);
      const day = today();
      const paths = ['/orders', `/orders/total-sales/${day}`, '/orders/status/pending', `/orders/user/${ids.userId}`, `/orders/date-range?start_date=${day}&end_date=${day}`];
      const answers = await answersOf(product, paths, await login(product.url));
      const bare = await startBare(dir, answers, `history-${orders}`);
      try {
        for (const c of await compare(product, bare, answers, [10], ROUNDS)) {
          if (c.url.startsWith('/orders/total-sales')) salesAt.set(orders, { rps: c.product.requestsPerSecond, ratio: ratio(c) });
          results.push({ measure: `GET ${c.url.replace(day, '{today}').replace(ids.userId, '{userId}')} with ${f0(orders)} orders in the log (${f0(c.bytes)} bytes, 10 connections)`, value: line(c), target: 'reported', ok: c.product.failures === 0 });
        }
      } finally {
        await bare.stop();
      }
      const afterReads = product.rssMiB();
      const rested = await idleRss(product);
      results.push({
        measure: `standalone RSS with ${f0(orders)} orders (${f0(orders / 300)} days) in the log (first start: the read models are built from the log)`,
        value: `${afterStart.toFixed(0)} MiB after start, ${afterReads.toFixed(0)} MiB after the reads, ${rested.toFixed(0)} MiB idle (${IDLE_SECONDS} s without a request)`,
        target: 'reported', ok: true,
      });
    } finally {
      await product.stop();
    }
  }
  const [small, large] = [salesAt.get(Math.min(...sizes)), salesAt.get(Math.max(...sizes))];
  if (small && large) {
    // The sizes are measured minutes apart, and the machine's speed drifts between them: the slowdown
    // is taken against bare Fastify sending the same answer in the same rounds, so it is the history's
    // cost and not the drift.
    const slowdown = small.ratio / large.ratio;
    results.push({
      measure: `total-sales with ${f0(Math.max(...sizes))} orders against ${f0(Math.min(...sizes))} (time per request, each beside bare Fastify in its own rounds)`,
      value: `${slowdown.toFixed(2)}× (${large.ratio.toFixed(2)}× of bare Fastify at ${f0(Math.max(...sizes))} orders, ${small.ratio.toFixed(2)}× at ${f0(Math.min(...sizes))}; ` +
        `raw ${f0(large.rps)} vs ${f0(small.rps)} req/s)`,
      target: '≤ 1.5×',
      ok: slowdown <= 1.5,
    });
  }
  return results;
}

export { RUN_SECONDS };
