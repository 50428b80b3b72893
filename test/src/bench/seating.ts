import { join } from 'node:path';
import { loadConfig } from '@comanda/config';
import { startComanda } from '@comanda/standalone';
import type { BenchResult } from './webhooks.js';

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

/**
 * Seating at a table (two streams: the floor's reservation, then the order) against take-away orders
 * (the order alone), each followed by deleting the order (which frees the table), 50 in flight, through
 * the whole standalone API (SQLite log, read-your-writes), measured in the same run.
 */
export async function seatingVsTakeAway(dir: string): Promise<BenchResult> {
  const running = await startComanda(loadConfig({ COMANDA_DATA_DIR: join(dir, 'seating'), LOG_LEVEL: 'silent', PORT: '0', COMANDA_ADMIN_PIN: '1234' }));
  try {
    const login = await running.app.inject({ method: 'POST', url: '/auth/login', payload: { name: 'admin', pin: '1234' } });
    const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      running.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
    const me = (await call('GET', '/auth/me')).json() as { id: string };
    const space = (await call('POST', '/spaces', { name: 'Salón' })).json() as { id: string };
    const inFlight = 50;
    const tables: string[] = [];
    for (let i = 0; i < inFlight; i++) tables.push(((await call('POST', '/tables', { name: `T${i}`, status: 'available', space_id: space.id, order_id: null })).json() as { id: string }).id);

    let errors = 0;
    /** Milliseconds each POST /orders of the last run took (seated or take-away). */
    let placing: number[] = [];
    const cycles = async (n: number, tableOf: (worker: number) => string | null) => {
      let left = n;
      placing = [];
      const start = process.hrtime.bigint();
      await Promise.all(Array.from({ length: inFlight }, async (_, worker) => {
        while (left-- > 0) {
          const asked = process.hrtime.bigint();
          const placed = await call('POST', '/orders', { user_id: me.id, table_id: tableOf(worker), waiter: 'Ana', status: 'pending', total: 0 });
          placing.push(Number(process.hrtime.bigint() - asked) / 1e6);
          if (placed.statusCode !== 201) {
            errors++;
            continue;
          }
          if ((await call('DELETE', `/orders/${(placed.json() as { id: string }).id}`)).statusCode !== 200) errors++;
        }
      }));
      return n / seconds(start);
    };
    const n = 3000;
    await cycles(300, () => null); // warm-up
    const p99 = () => placing.sort((a, b) => a - b)[Math.floor(placing.length * 0.99)]!;
    const takeAway = await cycles(n, () => null);
    const takeAwayP99 = p99();
    const seating = await cycles(n, (worker) => tables[worker]!);
    const seatingP99 = p99();
    return {
      measure: 'seating at a table vs take-away orders (place + delete, 50 in flight, whole API)',
      value: `seating ${Math.round(seating)}/s, take-away ${Math.round(takeAway)}/s (seating at ${(seating / takeAway).toFixed(2)}× take-away); ` +
        `POST /orders p99 ${seatingP99.toFixed(1)} ms seated, ${takeAwayP99.toFixed(1)} ms take-away${errors ? `, ${errors} failed requests` : ', no failed request'}`,
      target: 'seating ≥ 0.5× take-away, p99 < 100 ms, no 5xx',
      ok: seating >= 0.5 * takeAway && seatingP99 < 100 && errors === 0,
    };
  } finally {
    await running.close();
  }
}
