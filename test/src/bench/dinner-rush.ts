import { screen } from './kitchen-latency.js';
import { type Server, login } from './load.js';
import type { BenchResult } from './webhooks.js';

/** How long the rush lasts (`BENCH_RUSH_SECONDS`). */
const RUSH_SECONDS = Math.max(5, Number(process.env.BENCH_RUSH_SECONDS ?? 20) || 20);
const TABLETS = 40;
const POLL_EVERY_MS = 2000;
const SCREENS = 10;
const COMMANDS_PER_SECOND = 10;

const percentile = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : NaN);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A dinner rush on the standalone process: 40 tablets each polling `/tables` and
 * `/orders/status/pending` every 2 s with the ETag they hold (`If-None-Match`), 10 kitchen screens on
 * SSE, and waiters writing 10 commands a second (a take-away order placed, then deleted); each
 * request's latency as its client saw it.
 */
export async function dinnerRush(product: Server): Promise<BenchResult[]> {
  const cookie = await login(product.url);
  const get = (path: string, headers: Record<string, string> = {}) => fetch(product.url + path, { headers: { cookie, ...headers } });
  const send = (method: string, path: string, body?: object) =>
    fetch(product.url + path, { method, headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  const me = (await (await get('/auth/me')).json()) as { id: string };
  const stations = (await (await get('/stations')).json().catch(() => [])) as Array<{ id: string }>;
  const station = stations[0]?.id ?? ((await (await send('POST', '/stations', { name: 'Rush' })).json()) as { id: string }).id;
  const closers = await Promise.all(Array.from({ length: SCREENS }, () => screen(`${product.url}/kitchen/events?station_id=${station}`, cookie, () => {})));

  const polls: number[] = [];
  const writes: number[] = [];
  let notModified = 0;
  let failures = 0;
  const until = now() + RUSH_SECONDS * 1000;
  const tablet = async (index: number) => {
    const tags = new Map<string, string>();
    await sleep((index * POLL_EVERY_MS) / TABLETS);
    while (now() < until) {
      const due = now() + POLL_EVERY_MS;
      for (const path of ['/tables', '/orders/status/pending']) {
        const asked = now();
        const res = await get(path, tags.has(path) ? { 'if-none-match': tags.get(path)! } : {});
        await res.arrayBuffer();
        polls.push(now() - asked);
        if (res.status === 304) notModified++;
        else if (res.status >= 400) failures++;
        const tag = res.headers.get('etag');
        if (tag) tags.set(path, tag);
      }
      await sleep(Math.max(0, due - now()));
    }
  };
  const waiters = async () => {
    // Two commands per cycle: COMMANDS_PER_SECOND / 2 cycles a second, each started on its own beat.
    const every = 2000 / COMMANDS_PER_SECOND;
    const inFlight: Array<Promise<void>> = [];
    for (let beat = now(); beat < until; beat += every) {
      await sleep(Math.max(0, beat - now()));
      inFlight.push((async () => {
        let asked = now();
        const placed = await send('POST', '/orders', { user_id: me.id, table_id: null, waiter: 'Ana', status: 'pending', total: 0 });
        writes.push(now() - asked);
        if (placed.status !== 201) return void failures++;
        const { id } = (await placed.json()) as { id: string };
        asked = now();
        const deleted = await send('DELETE', `/orders/${id}`);
        await deleted.arrayBuffer();
        writes.push(now() - asked);
        if (deleted.status !== 200) failures++;
      })());
    }
    await Promise.all(inFlight);
  };
  try {
    await Promise.all([...Array.from({ length: TABLETS }, (_, i) => tablet(i)), waiters()]);
  } finally {
    for (const close of closers) close();
  }
  const p99 = Math.max(percentile(polls, 99), percentile(writes, 99));
  return [{
    measure: `dinner rush, ${RUSH_SECONDS} s: ${TABLETS} tablets polling /tables and /orders/status/pending every 2 s with If-None-Match, ${SCREENS} kitchen screens on SSE, ${COMMANDS_PER_SECOND} commands/s`,
    value: `polls p50 ${percentile(polls, 50).toFixed(1)} ms, p99 ${percentile(polls, 99).toFixed(1)} ms (${polls.length} requests, ${Math.round((100 * notModified) / Math.max(1, polls.length))} % answered 304); ` +
      `writes p50 ${percentile(writes, 50).toFixed(1)} ms, p99 ${percentile(writes, 99).toFixed(1)} ms (${writes.length}); RSS ${product.rssMiB().toFixed(0)} MiB` +
      (failures ? `; ${failures} failed requests` : ''),
    target: 'p99 < 50 ms',
    ok: p99 < 50 && failures === 0,
  }];
}
