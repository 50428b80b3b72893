import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type LoadFigures, type Server, f0, load, login, meanOf, startProcess } from './load.js';
import type { BenchResult } from './webhooks.js';

/**
 * This build beside another build of Comanda (`COMANDA_BENCH_BASELINE`: the root of a checkout with
 * its own `npm ci` and build), both as real standalone processes on the same restaurant entered over
 * HTTP, loaded in turn (baseline, this, baseline, this…). It answers "is a refactor slower?" with the
 * seed's contract only, so any two versions that keep it can be compared.
 */
export async function thisBesideBaseline(dir: string, baselineRoot: string, rounds: number): Promise<BenchResult[]> {
  const entry = 'services/standalone/dist/main.js';
  if (!existsSync(join(baselineRoot, entry))) throw new Error(`COMANDA_BENCH_BASELINE=${baselineRoot} has no built ${entry} (run npm ci and the build there first)`);
  const start = (root: string, name: string) =>
    startProcess(resolve(root, entry), [], { COMANDA_DATA_DIR: join(dir, `versions-${name}`), COMANDA_ADMIN_PIN: '1234', COMANDA_TIMEZONE: 'UTC' }, join(dir, `versions-${name}.log`));
  const baseline = await start(baselineRoot, 'baseline');
  const current = await start('.', 'current');
  try {
    const restaurants = [await enterRestaurant(baseline), await enterRestaurant(current)];
    const measures = workload();
    const figures = measures.map(() => ({ baseline: [] as LoadFigures[], current: [] as LoadFigures[] }));
    for (let r = 0; r < rounds; r++) {
      for (const [i, measure] of measures.entries()) {
        figures[i]!.baseline.push(await measure.run(baseline, restaurants[0]!));
        figures[i]!.current.push(await measure.run(current, restaurants[1]!));
      }
    }
    return measures.map((measure, i) => {
      const [b, c] = [meanOf(figures[i]!.baseline), meanOf(figures[i]!.current)];
      const ratio = c.requestsPerSecond / b.requestsPerSecond;
      return {
        measure: `${measure.name}: this build beside the baseline`,
        value: `${f0(c.requestsPerSecond)} req/s (p99 ${c.p99.toFixed(0)} ms, ${f0(c.cpuMicros)} µs CPU) vs ${f0(b.requestsPerSecond)}/s (p99 ${b.p99.toFixed(0)} ms, ${f0(b.cpuMicros)} µs CPU): ${ratio.toFixed(2)}×` +
          (c.failures + b.failures ? `, failed requests ${c.failures} vs ${b.failures}` : ''),
        // Within the noise of a shared machine: a slower build shows well below this.
        target: '≥ 0.9×',
        ok: ratio >= 0.9 && c.failures === 0,
      };
    });
  } finally {
    await Promise.all([baseline.stop(), current.stop()]);
  }
}

interface Restaurant { cookie: string; userId: string; tableIds: string[]; dishIds: string[]; orderIds: string[] }

/** 20 dishes and 20 tables (lists no version pages), 50 open orders of 3 lines: all through the API. */
async function enterRestaurant(server: Server): Promise<Restaurant> {
  const cookie = await login(server.url);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(server.url + path, { method, headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<unknown>;
  };
  const userId = ((await call('GET', '/auth/me')) as { id: string }).id;
  const space = (await call('POST', '/spaces', { name: 'Salón' })) as { id: string };
  const category = (await call('POST', '/categories', { name: 'Mains' })) as { id: string };
  for (let i = 0; i < 20; i++) {
    await call('POST', '/tables', { name: `T${i}`, status: 'available', space_id: space.id, order_id: null });
    await call('POST', '/dishes', { name: `Dish ${i}`, price: 9.5 + i, category_id: category.id });
  }
  const ids = async (path: string) => ((await call('GET', path)) as Array<{ id: string }>).map((x) => x.id);
  const [tableIds, dishIds] = [await ids('/tables'), await ids('/dishes')];
  const orderIds: string[] = [];
  for (let i = 0; i < 50; i++) {
    const placed = (await call('POST', '/orders', { user_id: userId, table_id: null, waiter: 'Ana', status: 'pending', total: 0 })) as { id: string };
    await call('POST', `/orders/${placed.id}/dishes`, [0, 1, 2].map((j) => ({ dish_id: dishIds[(i + j) % 20] })));
    orderIds.push(placed.id);
  }
  return { cookie, userId, tableIds, dishIds, orderIds };
}

interface Measure { name: string; run(server: Server, restaurant: Restaurant): Promise<LoadFigures> }

const today = () => new Date().toISOString().slice(0, 10);

/** Reads whose answers both versions give alike, and the writes a service makes most. */
function workload(): Measure[] {
  const get = (name: string, path: (r: Restaurant) => string): Measure => ({
    name: `GET ${name} (10 connections)`,
    run: async (server, r) => load(server, [{ path: path(r) }], 10, { cookie: await login(server.url) }),
  });
  return [
    get('/', () => '/'),
    get('/tables (20)', () => '/tables'),
    { name: 'GET /tables (20) revalidated: If-None-Match → 304 (10 connections)', run: revalidated('/tables') },
    get('/dishes (20)', () => '/dishes'),
    get('/orders/{id}', (r) => `/orders/${r.orderIds[0]}`),
    get('/orders/total-sales/{today}', () => `/orders/total-sales/${today()}`),
    { name: 'take-away: POST /orders then DELETE it (10 workers)', run: (server, r) => cycles(server, r, () => null, 0) },
    { name: 'seating: POST /orders at a table then DELETE it (10 workers, a table each)', run: (server, r) => cycles(server, r, (worker) => r.tableIds[worker]!, 0) },
    // Lines come one at a time, as a waiter adds them; orders stay the size a table's order is.
    { name: 'an order taken: POST /orders, 4 × POST /orders/{id}/dishes one line, DELETE (10 workers)', run: (server, r) => cycles(server, r, () => null, 4) },
  ];
}

/** A tablet's poll: the list's ETag sent back, answered 304 while nothing it shows has changed. */
const revalidated = (path: string) => async (server: Server): Promise<LoadFigures> => {
  const cookie = await login(server.url);
  const first = await fetch(server.url + path, { headers: { cookie } });
  await first.arrayBuffer();
  const etag = first.headers.get('etag');
  if (!etag) throw new Error(`GET ${path} answered without an ETag`);
  // autocannon counts a 200 as a success too: the tag must be seen to work, or 200s would be measured.
  const again = await fetch(server.url + path, { headers: { cookie, 'if-none-match': etag } });
  await again.arrayBuffer();
  if (again.status !== 304) throw new Error(`GET ${path} with its ETag answered ${again.status}`);
  return load(server, [{ path }], 10, { cookie, 'if-none-match': etag });
};

/**
 * Place, add `lines` lines one request each, delete: cycles over HTTP for the bench's run time,
 * `workers` at once. Every request counts; the latency is a whole cycle's.
 */
async function cycles(server: Server, r: Restaurant, tableOf: (worker: number) => string | null, lines: number, workers = 10): Promise<LoadFigures> {
  const cookie = await login(server.url);
  const json = { cookie, 'content-type': 'application/json' };
  const seconds = Number(process.env.BENCH_SECONDS ?? 3);
  const end = Date.now() + seconds * 1000;
  const latencies: number[] = [];
  let requests = 0;
  let failures = 0;
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(server.url + path, { method, headers: body ? json : { cookie }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const answer = (await res.json()) as { id?: string };
    requests++;
    if (res.status >= 300) failures++;
    return { status: res.status, id: answer.id };
  };
  const cpuBefore = server.cpuMs();
  await Promise.all(Array.from({ length: workers }, async (_, worker) => {
    while (Date.now() < end) {
      const t0 = performance.now();
      const placed = await send('POST', '/orders', { user_id: r.userId, table_id: tableOf(worker), waiter: 'Ana', status: 'pending', total: 0 });
      if (placed.status !== 201) continue;
      for (let l = 0; l < lines; l++) await send('POST', `/orders/${placed.id}/dishes`, [{ dish_id: r.dishIds[(worker + l) % r.dishIds.length] }]);
      await send('DELETE', `/orders/${placed.id}`);
      latencies.push(performance.now() - t0);
    }
  }));
  latencies.sort((x, y) => x - y);
  return {
    requestsPerSecond: requests / seconds,
    cpuMicros: ((server.cpuMs() - cpuBefore) * 1000) / Math.max(1, requests),
    p50: latencies[Math.floor(latencies.length / 2)] ?? 0,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    failures,
  };
}
