import { natsServerAvailable } from '@comanda/bus';
import { PostgresEventStore } from '@comanda/event-store/postgres';
import { openPool, postgresAvailable } from '@comanda/postgres';
import { startDistributed } from '../distributed-stack.js';
import { Client } from '../http-client.js';
import { type ShapeFigures, measure, withPostgresShare } from './http-shapes.js';
import { writeHistoryInto } from './restaurant-history.js';

/** How long the projector may take to build the read models of the largest history. */
const CATCH_UP_MS = 30 * 60_000;

/**
 * Waits until every part of the projector has worked through the history: the read models (GET
 * /orders counts every order) and every checkpoint (projections, relays, the reactor's process
 * managers) at the log's head. Until then the reactor is still reacting to a year of orders, and what
 * is measured is that catch-up, not the shape.
 */
async function caughtUp(url: string, postgresUrl: string, orders: number): Promise<number> {
  const admin = new Client(url);
  await admin.login('admin', '1234');
  const pool = openPool(postgresUrl, { max: 1 });
  const start = Date.now();
  try {
    for (;;) {
      const res = await admin.get('/orders?limit=1');
      const listed = Number(res.headers.get('x-total-count') ?? 0) >= orders;
      const head = BigInt((await pool.query('SELECT coalesce(max(position), 0)::text AS head FROM comanda_events')).rows[0].head);
      // The log followers' checkpoints (the wallet bridge's reconciler counts something else).
      const checkpoints = (await pool.query("SELECT position FROM comanda_checkpoints WHERE name IN ('projector', 'relay', 'kitchen-relay', 'reactor')")).rows.map((r: { position: string }) => r.position);
      if (listed && checkpoints.length === 4 && checkpoints.every((p: string) => BigInt(p) >= head)) return (Date.now() - start) / 1000;
      if (res.status === 401) await admin.login('admin', '1234');
      if (Date.now() - start > CATCH_UP_MS) throw new Error(`the projector is still behind ${orders} orders after ${CATCH_UP_MS / 60_000} min`);
      await new Promise((r) => setTimeout(r, 2_000));
    }
  } finally {
    await pool.end();
  }
}

/**
 * The distributed shape (two API replicas on PostgreSQL + NATS) over a history of each size, written
 * through the product's deciders into PostgreSQL before the processes start; the same writes and
 * reads measured on each, with PostgreSQL's share of the CPU.
 */
export async function distributedOverHistory(sizes: number[]): Promise<Array<{ orders: number; catchUpS: number; figures: ShapeFigures }> | string> {
  if (!postgresAvailable() || !natsServerAvailable()) return 'PostgreSQL or nats-server is not installed';
  const out: Array<{ orders: number; catchUpS: number; figures: ShapeFigures }> = [];
  for (const orders of sizes) {
    const stack = await startDistributed(2, {
      startTimeoutMs: CATCH_UP_MS,
      beforeServices: async (postgres) => {
        const store = new PostgresEventStore(postgres.url, { poolSize: 16 });
        try {
          await writeHistoryInto(store, { dishes: 200, tables: 100, orders }, Date.now(), 64);
        } finally {
          await store.close();
        }
      },
    });
    try {
      const catchUpS = await caughtUp(stack.urls[0]!, stack.postgres.url, orders);
      out.push({ orders, catchUpS, figures: await withPostgresShare(stack.postgres.dataDir, () => measure(stack.urls)) });
    } finally {
      await stack.close();
    }
  }
  return out;
}
