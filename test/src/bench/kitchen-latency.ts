import { natsServerAvailable, startNatsServer } from '@comanda/bus';
import { NatsBus } from '@comanda/bus/nats';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kitchenRestaurant } from '../kitchen-setup.js';
import { Client } from '../http-client.js';
import { startStandalone } from '../standalone-process.js';

const SCREENS = 20;
const FIRINGS = 50;

export interface LatencyResult { measure: string; value: string; target: string; ok: boolean }

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = () => Number(process.hrtime.bigint()) / 1e6;

/** One kitchen screen: an SSE connection, calling `onTicket` with each ticket it receives. */
export async function screen(url: string, cookie: string, onTicket: (ticket: { order_id: string; status: string }) => void) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { cookie }, signal: controller.signal });
  const reader = res.body!.getReader();
  let buffer = '';
  let ready!: () => void;
  const caughtUp = new Promise<void>((r) => (ready = r));
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += new TextDecoder().decode(value);
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (block.startsWith(': caught-up')) ready();
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (data) onTicket(JSON.parse(data.slice(6)));
        }
      }
    } catch {
      // closed at the end of the run
    }
  })();
  await caughtUp;
  return () => controller.abort();
}

/**
 * Fire-to-screen: from the waiter's POST /orders/{id}/fire to the ticket arriving on each of 20
 * connected kitchen screens (standalone process, NATS bus, SSE), beside a bare JetStream
 * publish-to-receive on the same nats-server in the same run.
 */
export async function kitchenLatency(): Promise<LatencyResult[]> {
  if (!natsServerAvailable()) return [{ measure: 'fire-to-screen latency', value: 'not measured: nats-server is not installed', target: 'reported', ok: true }];
  const nats = await startNatsServer();
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-bench-kitchen-'));
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', COMANDA_NATS_URL: nats.url, LOG_LEVEL: 'error' });
  try {
    const r = await kitchenRestaurant(pos.url);
    const chef = new Client(pos.url);
    const login = await chef.login('chef', '3690');
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const waiting = new Map<string, { t0: number; left: number; done: () => void }>();
    const samples: number[] = [];
    const closers = await Promise.all(Array.from({ length: SCREENS }, () => screen(`${pos.url}/kitchen/events?station_id=${r.grill}`, cookie, (ticket) => {
      const w = waiting.get(ticket.order_id);
      if (!w || ticket.status !== 'open') return;
      samples.push(ms() - w.t0);
      if (--w.left === 0) w.done();
    })));
    const me = (await r.waiter.get('/auth/me')).body as { id: string };
    for (let i = 0; i < FIRINGS; i++) {
      const orderId = ((await r.waiter.post('/orders', { user_id: me.id, table_id: null, waiter: 'Marisol' })).body as { id: string }).id;
      await r.waiter.post(`/orders/${orderId}/dishes`, [{ dish_id: r.pastor, notes: 'bench' }]);
      const arrived = new Promise<void>((done) => waiting.set(orderId, { t0: ms(), left: SCREENS, done }));
      await r.waiter.post(`/orders/${orderId}/fire`);
      await arrived;
    }
    for (const close of closers) close();

    // Baseline: bare JetStream publish → consumer receive on the same server, same payload size.
    const bus = await NatsBus.connect(nats.url, 'bench-bare');
    const bare: number[] = [];
    let resolve!: () => void;
    await bus.subscribe<{ t0: number }>('pos.benchbare.>', (m) => {
      bare.push(ms() - m.payload.t0);
      resolve();
    });
    const pad = 'x'.repeat(600);
    for (let i = 0; i < FIRINGS * 4; i++) {
      const got = new Promise<void>((r) => (resolve = r));
      await bus.publish('pos.benchbare.TicketLike', { t0: ms(), pad }, `bare-${i}`);
      await got;
    }
    await bus.close();
    const [p50, p99, b50, b99] = [percentile(samples, 50), percentile(samples, 99), percentile(bare, 50), percentile(bare, 99)];
    return [{
      measure: `fire-to-screen latency, ${SCREENS} screens × ${FIRINGS} firings (HTTP fire → NATS → SSE)`,
      value: `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (bare JetStream publish-to-receive: p50 ${b50.toFixed(2)} ms, p99 ${b99.toFixed(2)} ms; ${(p50 / b50).toFixed(1)}× at p50)`,
      target: 'p99 < 1 s', ok: p99 < 1000,
    }];
  } finally {
    await pos.stop();
    await nats.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
