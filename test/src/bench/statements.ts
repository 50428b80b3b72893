import pg from 'pg';
import { natsServerAvailable } from '@comanda/bus';
import { postgresAvailable } from '@comanda/postgres';
import { startDistributed } from '../distributed-stack.js';
import { Client } from '../http-client.js';
import { postgresCpuSeconds, processTreeCpuSeconds } from './postgres-cpu.js';

/**
 * Issue 62: what one write costs the distributed shape in PostgreSQL statements, counted by
 * `pg_stat_statements` across every process (API replicas, projector, reactor, relay), in units any
 * machine can check. Two replicas, `CONNECTIONS` clients; each cycle places an order at a table, adds
 * two dishes (with a station), fires it, and then either deletes the order or bills it and takes a
 * card payment. Counted from a reset after a warm-up to the moment the projector and the reactor have
 * caught up, so the statements the write causes later (projections, reactions, notifications) count.
 */

const CONNECTIONS = 10;

export interface StatementFigures {
  mix: string;
  writes: number;
  statements: number;
  perWrite: number;
  /** The most frequent statements, each with its calls per write. */
  top: Array<{ calls: number; perWrite: number; query: string }>;
  /** CPU milliseconds per write of PostgreSQL alone, and of every process of the shape (API replicas, projector and its reactor, wallet bridge, NATS, PostgreSQL). */
  postgresCpuPerWriteMs: number;
  allCpuPerWriteMs: number;
}

type Cycle = (client: Client, table: string) => Promise<number>;

export async function statementsPerWrite(cycles = Number(process.env.BENCH_STATEMENT_CYCLES ?? 100)): Promise<StatementFigures[] | string> {
  if (!postgresAvailable() || !natsServerAvailable()) return 'PostgreSQL or nats-server is not installed';
  const options = process.env.COMANDA_TEST_POSTGRES_OPTIONS;
  process.env.COMANDA_TEST_POSTGRES_OPTIONS = `${options ?? ''} -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all`;
  const stack = await startDistributed(2);
  if (options === undefined) delete process.env.COMANDA_TEST_POSTGRES_OPTIONS;
  else process.env.COMANDA_TEST_POSTGRES_OPTIONS = options;
  const db = new pg.Client({ connectionString: stack.postgres.url });
  await db.connect();
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const admin = new Client(stack.urls[0]!);
    await admin.login('admin', '1234');
    const menu = await setUp(admin);
    const clients = await Promise.all(Array.from({ length: CONNECTIONS }, async (_, i) => {
      const c = new Client(stack.urls[i % stack.urls.length]!);
      await c.login('admin', '1234');
      return c;
    }));
    const served = async (c: Client, table: string | null) => {
      const orderId = await ordered(c, table, menu.dish);
      expect(await c.post(`/orders/${orderId}/fire`, {}), 200, 'fire');
      return orderId;
    };
    const deleted: Cycle = async (c, table) => {
      const orderId = await served(c, table);
      expect(await c.delete(`/orders/${orderId}`), 200, 'delete');
      return 5;
    };
    // A paid order keeps its table until it is closed: these orders are take-away.
    const paid: Cycle = async (c) => {
      const orderId = await served(c, null);
      const issued = await c.post(`/orders/${orderId}/tickets`, { split: 'none' });
      expect(issued, 201, 'issue the bill');
      let tickets = (issued.body as { tickets?: Array<{ id: string; total: number }> }).tickets;
      for (let i = 0; !tickets?.length && i < 100; i++) {
        await new Promise((r) => setTimeout(r, 50));
        tickets = (await c.get(`/orders/${orderId}/tickets`)).body as Array<{ id: string; total: number }> | undefined;
      }
      const ticket = tickets![0]!;
      expect(await c.post(`/tickets/${ticket.id}/payments`, { method: 'credit_card', amount: ticket.total }), 201, 'pay');
      return 6;
    };
    const figures: StatementFigures[] = [];
    for (const [mix, cycle] of [['place, two dishes, fire, delete', deleted], ['place, two dishes, fire, bill, card payment', paid]] as const) {
      await run(clients, menu.tables, 10, cycle); // warm-up: prepared statements, caches, snapshots
      await caughtUp(db);
      await db.query('SELECT pg_stat_statements_reset()');
      const pgBefore = postgresCpuSeconds(stack.postgres.dataDir);
      const pids = [...stack.apis, stack.projector, stack.walletBridge, stack.nats].map((p) => p.child!.pid!);
      const servicesBefore = processTreeCpuSeconds(pids);
      const writes = await run(clients, menu.tables, cycles, cycle);
      await caughtUp(db);
      const pgCpu = postgresCpuSeconds(stack.postgres.dataDir) - pgBefore;
      const services = processTreeCpuSeconds(pids) - servicesBefore;
      const rows = (await db.query<{ calls: string; query: string }>(
        // One row per text: the same statement is counted apart per role, database and top-level or nested.
        `SELECT sum(calls)::text AS calls, query FROM pg_stat_statements
          WHERE query NOT ILIKE '%pg_stat_statements%' AND query NOT ILIKE '%AS behind%' GROUP BY query ORDER BY sum(calls) DESC`,
      )).rows;
      const statements = rows.reduce((n, r) => n + Number(r.calls), 0);
      figures.push({
        mix, writes, statements, perWrite: statements / writes,
        top: rows.slice(0, 12).map((r) => ({ calls: Number(r.calls), perWrite: Number(r.calls) / writes, query: r.query.replace(/\s+/g, ' ').slice(0, 160) })),
        postgresCpuPerWriteMs: (pgCpu * 1000) / writes,
        allCpuPerWriteMs: ((services + pgCpu) * 1000) / writes,
      });
    }
    return figures;
  } finally {
    await db.end();
    await stack.close();
  }
}

/** A 202 (recorded, not yet readable at the bound: a loaded machine) counts as done. */
function expect(res: { status: number; body: unknown }, status: number, what: string): void {
  if (res.status !== status && res.status !== 202) throw new Error(`${what} answered ${res.status} ${JSON.stringify(res.body)}`);
}

async function setUp(admin: Client): Promise<{ dish: string; tables: string[] }> {
  const tag = Math.random().toString(36).slice(2, 8);
  const created = async (path: string, body: unknown) => {
    const res = await admin.post(path, body);
    expect(res, 201, `POST ${path}`);
    return res;
  };
  const station = ((await created('/stations', { name: `Grill ${tag}`, default: true })).body as { id: string }).id;
  const category = ((await created('/categories', { name: `Bench ${tag}` })).body as { id: string }).id;
  const dish = (await created('/dishes', { name: `Bench dish ${tag}`, price: 10, category_id: category, station_id: station })).headers.get('location')!.split('/').pop()!;
  const space = ((await created('/spaces', { name: `Bench ${tag}` })).body as { id: string }).id;
  const tables: string[] = [];
  for (let t = 0; t < CONNECTIONS; t++) tables.push(((await created('/tables', { name: `S${tag}${t}`, status: 'available', space_id: space, order_id: null })).body as { id: string }).id);
  return { dish, tables };
}

async function ordered(c: Client, table: string | null, dish: string): Promise<string> {
  const me = ((await c.get('/auth/me')).body as { id: string }).id;
  let placed = await c.post('/orders', { user_id: me, table_id: table, waiter: 'Bench' });
  // After a 202 the table may be freed a moment later.
  for (let i = 0; placed.status === 409 && i < 100; i++) {
    await new Promise((r) => setTimeout(r, 50));
    placed = await c.post('/orders', { user_id: me, table_id: table, waiter: 'Bench' });
  }
  expect(placed, 201, 'place at a table');
  const orderId = (placed.body as { id?: string; location?: string }).id ?? (placed.body as { location: string }).location.split('/').pop()!;
  expect(await c.post(`/orders/${orderId}/dishes`, [{ dish_id: dish }]), 201, 'first dish');
  expect(await c.post(`/orders/${orderId}/dishes`, [{ dish_id: dish }]), 201, 'second dish');
  return orderId;
}

/** `n` cycles, one per free table at a time over the clients; answers the writes made. */
async function run(clients: Client[], tables: string[], n: number, cycle: Cycle): Promise<number> {
  const free = [...tables];
  let next = 0;
  let writes = 0;
  await Promise.all(clients.map(async (c) => {
    while (next++ < n) {
      const table = free.pop()!;
      const made = await cycle(c, table); // not `writes += await …`: that reads `writes` before the wait
      writes += made;
      free.push(table);
    }
  }));
  return writes;
}

/** Until every checkpoint stands at the log's head (the projector and the reactor have done their part). */
async function caughtUp(db: pg.Client): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const { rows } = await db.query<{ behind: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM comanda_checkpoints WHERE position::numeric < (SELECT max(position) FROM comanda_events)) AS behind`,
    ).catch(() => ({ rows: [{ behind: false }] }));
    if (!rows[0]!.behind) return;
  }
}
