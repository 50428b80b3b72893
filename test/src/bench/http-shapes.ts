import { mkdtempSync, rmSync } from 'node:fs';
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
}

const CONCURRENCY = 16;

/** POST /orders then GET /orders/{id}, `CONCURRENCY` at a time, spread round-robin over `urls`. */
async function measure(urls: string[]): Promise<ShapeFigures> {
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
  const commandsPerSecond = await run(600, async (i) => {
    const res = await clients[i % clients.length]!.post('/orders', { user_id: me, table_id: null, waiter: 'Bench', status: 'pending', total: 0 });
    if (res.status !== 201) throw new Error(`POST /orders answered ${res.status}`);
    ids.push((res.body as { id: string }).id);
  });
  const getsPerSecond = await run(3000, async (i) => {
    const res = await clients[(i + 1) % clients.length]!.get(`/orders/${ids[i % ids.length]}`);
    if (res.status !== 200) throw new Error(`GET /orders/{id} answered ${res.status}`);
  });
  return { commandsPerSecond, getsPerSecond };
}

/** Standalone, then two API replicas on PostgreSQL + NATS, measured the same way in the same run. */
export async function standaloneBesideTwoReplicas(): Promise<{ standalone: ShapeFigures; replicas: ShapeFigures } | string> {
  if (!postgresAvailable() || !natsServerAvailable()) return 'PostgreSQL or nats-server is not installed';
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-bench-standalone-'));
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', LOG_LEVEL: 'error' });
  let standalone: ShapeFigures;
  try {
    standalone = await measure([pos.url]);
  } finally {
    await pos.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const stack = await startDistributed(2);
  try {
    return { standalone, replicas: await measure(stack.urls) };
  } finally {
    await stack.close();
  }
}
