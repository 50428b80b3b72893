import { natsServerAvailable } from '@comanda/bus';
import { PostgresEventStore } from '@comanda/event-store/postgres';
import { postgresAvailable } from '@comanda/postgres';
import { startDistributed } from '../distributed-stack.js';
import { Client } from '../http-client.js';
import { type ShapeFigures, measure, withPostgresShare } from './http-shapes.js';
import { writeHistoryInto } from './restaurant-history.js';

/** How long the projector may take to build the read models of the largest history. */
const CATCH_UP_MS = 30 * 60_000;

/** Waits until GET /orders counts every order of the history (the read models caught up). */
async function caughtUp(url: string, orders: number): Promise<number> {
  const admin = new Client(url);
  await admin.login('admin', '1234');
  const start = Date.now();
  for (;;) {
    const res = await admin.get('/orders?limit=1');
    if (Number(res.headers.get('x-total-count') ?? 0) >= orders) return (Date.now() - start) / 1000;
    if (Date.now() - start > CATCH_UP_MS) throw new Error(`read models still behind ${orders} orders after ${CATCH_UP_MS / 60_000} min`);
    await new Promise((r) => setTimeout(r, 1_000));
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
      const catchUpS = await caughtUp(stack.urls[0]!, orders);
      out.push({ orders, catchUpS, figures: await withPostgresShare(stack.postgres.dataDir, () => measure(stack.urls)) });
    } finally {
      await stack.close();
    }
  }
  return out;
}
