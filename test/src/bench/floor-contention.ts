import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDistributed } from '../distributed-stack.js';
import { Client } from '../http-client.js';
import type { BenchResult } from './webhooks.js';

const TABLES = 50;
const CONNECTIONS = 50;

export interface SeatThenDelete {
  cycles: number;
  seconds: number;
  /** Answers by method and status, e.g. `POST 201`. */
  answers: Record<string, number>;
  /** Answers 500 and above. */
  failed: number;
  /** Tables occupied without an open order once the process managers have had their grace period. */
  stuck: number;
  /** How many times each process was restarted by its supervisor during the run. */
  restarts: string;
}

/**
 * Issue 43's seat-then-delete cycles: `cycles` times an order placed at one of 50 tables and deleted,
 * 50 at a time, alternating the two API replicas of the distributed shape; then, after the process
 * managers' grace period, every table still occupied is checked against its order. Counts the
 * answers by status (503s were seatings that lost the race for the old restaurant-wide floor stream
 * past the retries) and the tables left occupied without an open order (the stuck-table race).
 * The bench runs it (`BENCH_ONLY=floor`), and so does `test/e2e/floor-cycles.test.ts` with fewer cycles.
 */
export async function seatThenDelete(cycles: number): Promise<SeatThenDelete> {
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
    // A request that got no answer at all (a connection refused or reset) is counted, not thrown: the
    // run goes on, and the processes' last words are kept for reading.
    const unanswered: string[] = [];
    const answered = async (method: string, call: () => Promise<{ status: number; body: unknown }>) => {
      try {
        const res = await call();
        count(`${method} ${res.status}`);
        return res;
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        count(`${method} no answer (${cause?.code ?? cause?.message ?? String(error)})`);
        unanswered.push(`${new Date().toISOString()} ${method}: ${cause?.message ?? String(error)}`);
        return null;
      }
    };
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
          const placed = await answered('POST', () => replicas[i % 2]!.post('/orders', { user_id: me, table_id: tables[worker % TABLES], waiter: 'Bench', status: 'pending', total: 0 }));
          if (placed?.status !== 201) continue;
          await answered('DELETE', () => replicas[(i + 1) % 2]!.delete(`/orders/${(placed.body as { id: string }).id}`));
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
    const failed = Object.entries(answers).filter(([k]) => /\s5\d\d$|no answer/.test(k)).reduce((s, [, n]) => s + n, 0);
    const restarts = [stack.projector, ...stack.apis].map((p) => `${p.name} ${p.starts - 1}`).join(', ');
    if (unanswered.length > 0) {
      const file = join(tmpdir(), `comanda-floor-bench-${Date.now()}.log`);
      writeFileSync(file, [...unanswered.slice(0, 50), ...[stack.projector, ...stack.apis].map((p) => `--- ${p.name} (${p.starts} starts)\n${p.output().slice(-20_000)}`)].join('\n'));
      answers[`unanswered, see ${file}`] = unanswered.length;
    }
    return { cycles, seconds, answers, failed, stuck, restarts };
  } finally {
    await stack.close();
  }
}

export async function floorContention(cycles: number): Promise<BenchResult[]> {
  const { seconds, answers, failed, stuck, restarts } = await seatThenDelete(cycles);
  return [{
    measure: `${cycles} seat-then-delete cycles at ${CONNECTIONS} connections across two API replicas, ${TABLES} tables`,
    value: `${(cycles / seconds).toFixed(0)} cycles/s; answers ${JSON.stringify(answers)}; ${stuck} tables occupied without an open order; restarts: ${restarts}`,
    target: 'no 5xx, 0 stuck',
    ok: failed === 0 && stuck === 0,
  }];
}
