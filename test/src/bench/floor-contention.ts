import { startDistributed } from '../distributed-stack.js';
import { Client } from '../http-client.js';
import type { BenchResult } from './webhooks.js';

const TABLES = 50;
const CONNECTIONS = 50;

/**
 * Issue 43's seat-then-delete cycles: `cycles` times an order placed at one of 50 tables and deleted,
 * 50 at a time, alternating the two API replicas of the distributed shape; then, after the process
 * managers' grace period, every table still occupied is checked against its order. Reports the
 * answers by status (503s are seatings that lost the race for the floor stream past the retries) and
 * the tables left occupied without an open order (the stuck-table race).
 */
export async function floorContention(cycles: number): Promise<BenchResult[]> {
  const stack = await startDistributed(2);
  try {
    const admin = new Client(stack.urls[0]!);
    await admin.login('admin', '1234');
    const me = ((await admin.get('/auth/me')).body as { id: string }).id;
    const space = ((await admin.post('/spaces', { name: 'Salon' })).body as { id: string }).id;
    const tables: string[] = [];
    for (let i = 0; i < TABLES; i++) tables.push(((await admin.post('/tables', { name: `S${i}`, status: 'available', space_id: space, order_id: null })).body as { id: string }).id);
    const answers: Record<string, number> = {};
    const count = (what: string) => void (answers[what] = (answers[what] ?? 0) + 1);
    let next = 0;
    const started = Date.now();
    // One session for every connection (sign-ins are throttled per name), signed in again before its
    // one-minute access token runs out; the clients share its cookie jar.
    const session = new Client(stack.urls[0]!);
    await session.login('admin', '1234');
    const jar = (session as unknown as { cookies: Map<string, string> }).cookies;
    const renew = setInterval(() => void session.login('admin', '1234').catch(() => undefined), 40_000);
    const replicas = stack.urls.map((url) => {
      const client = new Client(url);
      (client as unknown as { cookies: Map<string, string> }).cookies = jar;
      return client;
    });
    try {
      await Promise.all(Array.from({ length: CONNECTIONS }, async (_, worker) => {
        for (let i = next++; i < cycles; i = next++) {
          const placed = await replicas[i % 2]!.post('/orders', { user_id: me, table_id: tables[worker % TABLES], waiter: 'Bench', status: 'pending', total: 0 });
          count(`POST ${placed.status}`);
          if (placed.status !== 201) continue;
          count(`DELETE ${(await replicas[(i + 1) % 2]!.delete(`/orders/${(placed.body as { id: string }).id}`)).status}`);
        }
      }));
    } finally {
      clearInterval(renew);
    }
    const seconds = (Date.now() - started) / 1000;
    // The process managers release a seat whose order never came after a 10-s grace period.
    await new Promise((r) => setTimeout(r, 15_000));
    await admin.login('admin', '1234');
    const floor = (await admin.get(`/tables/by-space/${space}`)).body as Array<{ name: string; status: string; order_id: string | null }>;
    let stuck = 0;
    for (const t of floor.filter((x) => x.status === 'occupied')) {
      const o = t.order_id ? await admin.get(`/orders/${t.order_id}`) : null;
      const open = o?.status === 200 && !['completed', 'cancelled'].includes((o.body as { status: string }).status);
      if (!open) stuck++;
    }
    const failed = Object.entries(answers).filter(([k]) => /\s5\d\d$/.test(k)).reduce((s, [, n]) => s + n, 0);
    return [{
      measure: `${cycles} seat-then-delete cycles at ${CONNECTIONS} connections across two API replicas, ${TABLES} tables`,
      value: `${(cycles / seconds).toFixed(0)} cycles/s; answers ${JSON.stringify(answers)}; ${stuck} tables occupied without an open order`,
      target: 'no 5xx, 0 stuck',
      ok: failed === 0 && stuck === 0,
    }];
  } finally {
    await stack.close();
  }
}
