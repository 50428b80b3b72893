import { mkdtempSync, rmSync } from 'node:fs';
import { machineBusySeconds, postgresCpuSeconds } from './postgres-cpu.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsServerAvailable } from '@comanda/bus';
import { postgresAvailable } from '@comanda/postgres';
import { startDistributed } from '../distributed-stack.js';
import { Client } from '../http-client.js';
import { startStandalone } from '../standalone-process.js';

export interface ShapeFigures {
  commandsPerSecond: number;
  getsPerSecond: number;
  /** PostgreSQL's part of the CPU the machine spent during the run (0–1), for the distributed shape. */
  postgresShare?: number;
  /** Writes a table's service makes (place at the table, add a dish, delete), per second; when asked for. */
  tableWritesPerSecond?: number;
}

/** Runs `work` and answers what share of the machine's busy CPU meanwhile went to the cluster. */
export async function withPostgresShare<T>(dataDir: string, work: () => Promise<T>): Promise<T & { postgresShare: number }> {
  const pgBefore = postgresCpuSeconds(dataDir);
  const busyBefore = machineBusySeconds();
  const result = await work();
  // Backends that exited during the run took their time with them: the share is a lower bound.
  return { ...result, postgresShare: (postgresCpuSeconds(dataDir) - pgBefore) / Math.max(0.01, machineBusySeconds() - busyBefore) };
}

const CONCURRENCY = 10;

/**
 * POST /orders then GET /orders/{id}, `CONCURRENCY` at a time, spread round-robin over `urls`; with
 * `tableCycles`, also that many cycles of a table's writes (the place at a table, add a dish,
 * delete), each on a table no other cycle holds meanwhile.
 */
export async function measure(urls: string[], options: { tableCycles?: number } = {}): Promise<ShapeFigures> {
  const first = new Client(urls[0]!);
  await first.login('admin', '1234');
  const clients = urls.map((u) => {
    const c = new Client(u);
    (c as unknown as { cookies: unknown }).cookies = (first as unknown as { cookies: unknown }).cookies;
    return c;
  });
  const me = ((await first.get('/auth/me')).body as { id: string }).id;
  const ids: string[] = [];
  const run = async (n: number, one: (i: number) => Promise<void>) => {
    let next = 0;
    const start = process.hrtime.bigint();
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < n; i = next++) await one(i);
    }));
    return n / (Number(process.hrtime.bigint() - start) / 1e9);
  };
  // The clients share one cookie jar: signing in again (the access token lives a minute) renews it for all.
  let signingIn: Promise<unknown> | null = null;
  const again = async <R extends { status: number }>(send: () => Promise<R>): Promise<R> => {
    const res = await send();
    if (res.status !== 401) return res;
    await (signingIn ??= first.login('admin', '1234').finally(() => (signingIn = null)));
    return send();
  };
  const commandsPerSecond = await run(600, async (i) => {
    const res = await again(() => clients[i % clients.length]!.post('/orders', { user_id: me, table_id: null, waiter: 'Bench', status: 'pending', total: 0 }));
    if (res.status !== 201) throw new Error(`POST /orders answered ${res.status} ${JSON.stringify(res.body)}`);
    ids.push((res.body as { id: string }).id);
  });
  const getsPerSecond = await run(3000, async (i) => {
    const res = await again(() => clients[(i + 1) % clients.length]!.get(`/orders/${ids[i % ids.length]}`));
    if (res.status !== 200) throw new Error(`GET /orders/{id} answered ${res.status}`);
  });
  if (!options.tableCycles) return { commandsPerSecond, getsPerSecond };
  const tag = Math.random().toString(36).slice(2, 8);
  const created = async (path: string, body: unknown) => {
    const res = await again(() => first.post(path, body));
    if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };
  const category = ((await created('/categories', { name: `Bench ${tag}` })).body as { id: string }).id;
  const dish = (await created('/dishes', { name: `Bench dish ${tag}`, price: 10, category_id: category })).headers.get('location')!.split('/').pop()!;
  const space = ((await created('/spaces', { name: `Bench ${tag}` })).body as { id: string }).id;
  const free: string[] = [];
  for (let t = 0; t < CONCURRENCY; t++) free.push(((await created('/tables', { name: `B${tag}${t}`, status: 'available', space_id: space, order_id: null })).body as { id: string }).id);
  const tableCyclesPerSecond = await run(options.tableCycles, async (i) => {
    const table = free.pop()!;
    const c = (k: number) => clients[(i + k) % clients.length]!;
    const placed = await again(() => c(0).post('/orders', { user_id: me, table_id: table, waiter: 'Bench' }));
    if (placed.status !== 201) throw new Error(`POST /orders at a table answered ${placed.status} ${JSON.stringify(placed.body)}`);
    const orderId = (placed.body as { id: string }).id;
    const added = await again(() => c(1).post(`/orders/${orderId}/dishes`, [{ dish_id: dish }]));
    if (added.status !== 201) throw new Error(`POST /orders/{id}/dishes answered ${added.status}`);
    const deleted = await again(() => c(2).delete(`/orders/${orderId}`));
    if (deleted.status !== 200) throw new Error(`DELETE /orders/{id} answered ${deleted.status}`);
    free.push(table);
  });
  return { commandsPerSecond, getsPerSecond, tableWritesPerSecond: tableCyclesPerSecond * 3 };
}

const ROUNDS = Number(process.env.BENCH_SHAPE_ROUNDS ?? 3);

/** Each figure's median over the rounds (the PostgreSQL share too). */
function medianOf(rounds: ShapeFigures[]): ShapeFigures {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const optional = (xs: Array<number | undefined>) => {
    const known = xs.filter((x): x is number => x !== undefined);
    return known.length === xs.length ? median(known) : undefined;
  };
  const tableWrites = optional(rounds.map((r) => r.tableWritesPerSecond));
  const share = optional(rounds.map((r) => r.postgresShare));
  return {
    commandsPerSecond: median(rounds.map((r) => r.commandsPerSecond)),
    getsPerSecond: median(rounds.map((r) => r.getsPerSecond)),
    ...(tableWrites === undefined ? {} : { tableWritesPerSecond: tableWrites }),
    ...(share === undefined ? {} : { postgresShare: share }),
  };
}

/**
 * The standalone, and the distributed shape on PostgreSQL + NATS through one API replica and through
 * both, side by side: both shapes run at once (the one measured alone is busy), and the three are
 * measured in turn, `BENCH_SHAPE_ROUNDS` times (3), each figure the median of its rounds, so a burst
 * of noise on the shared machine moves one round, not one shape.
 */
export async function standaloneBesideTwoReplicas(): Promise<{ standalone: ShapeFigures; one: ShapeFigures; replicas: ShapeFigures } | string> {
  if (!postgresAvailable() || !natsServerAvailable()) return 'PostgreSQL or nats-server is not installed';
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-bench-standalone-'));
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', LOG_LEVEL: 'error' });
  try {
    const stack = await startDistributed(2);
    try {
      const rounds = { standalone: [] as ShapeFigures[], one: [] as ShapeFigures[], replicas: [] as ShapeFigures[] };
      for (let round = 0; round < ROUNDS; round++) {
        rounds.standalone.push(await measure([pos.url], { tableCycles: 200 }));
        rounds.one.push(await withPostgresShare(stack.postgres.dataDir, () => measure(stack.urls.slice(0, 1), { tableCycles: 200 })));
        rounds.replicas.push(await withPostgresShare(stack.postgres.dataDir, () => measure(stack.urls, { tableCycles: 200 })));
      }
      return { standalone: medianOf(rounds.standalone), one: medianOf(rounds.one), replicas: medianOf(rounds.replicas) };
    } finally {
      await stack.close();
    }
  } finally {
    await pos.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
