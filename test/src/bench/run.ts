import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import { order, orderStream, type OrderLine } from '@comanda/domain';
import { CommandHandler, SqliteEventStore, type NewEvent } from '@comanda/event-store';
import { allProjections } from '@comanda/read-models';
import { MemoryReadStore } from '@comanda/read-store';
import { Projector } from '@comanda/projector';
import { firstCommandAfterRestart } from './first-command.js';
import { seatingVsTakeAway } from './seating.js';
import { kitchenLatency } from './kitchen-latency.js';
import { webhookIntake } from './webhooks.js';
import { standaloneBesideTwoReplicas } from './http-shapes.js';
import { analyticsReplay } from './analytics-replay.js';

/**
 * `npm run bench`: the platform's speed targets, each measured beside a baseline in the same run so
 * the ratios hold whatever the machine. Prints one line per measure; exits non-zero if a target is missed.
 */
const silent = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'comanda-bench-'));
const results: Array<{ measure: string; value: string; target: string; ok: boolean }> = [];
const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;
const event = (type: string, data: unknown): NewEvent => ({ id: randomUUID(), type, data, metadata: { occurredAt: Date.now(), schemaVersion: 1 } });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function appends() {
  const n = 20_000;
  const store = new SqliteEventStore({ filename: join(dir, 'appends.db') });
  const start = process.hrtime.bigint();
  const wave = 512;
  for (let i = 0; i < n; i += wave) {
    await Promise.all(Array.from({ length: wave }, (_, j) => store.append(`order-${i + j}`, [event('OrderPlaced', { n: i + j })], 'no_stream')));
  }
  const rate = n / seconds(start);
  await store.close();

  // Baseline: the same durable appends, one transaction (one fsync) each, as without group commit.
  const db = new Database(join(dir, 'baseline.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE events (position INTEGER PRIMARY KEY, id TEXT UNIQUE, stream TEXT, revision INTEGER, type TEXT, data TEXT, UNIQUE(stream, revision))');
  const insert = db.prepare('INSERT INTO events (id, stream, revision, type, data) VALUES (?, ?, 0, ?, ?)');
  const one = db.transaction((i: number) => insert.run(randomUUID(), `order-${i}`, 'OrderPlaced', JSON.stringify({ n: i })));
  const m = 2000;
  const b = process.hrtime.bigint();
  for (let i = 0; i < m; i++) one(i);
  const baseline = m / seconds(b);
  db.close();
  results.push({ measure: 'standalone appends of single-event commands', value: `${Math.round(rate)}/s (${(rate / baseline).toFixed(1)}× one-fsync-per-append baseline of ${Math.round(baseline)}/s)`, target: '≥ 5,000/s', ok: rate >= 5000 });
}

async function buildLog(events: number) {
  const store = new SqliteEventStore({ filename: join(dir, 'log.db') });
  const commands = new CommandHandler(store);
  let written = 0;
  let o = 0;
  while (written < events) {
    const batch = Array.from({ length: 200 }, () => {
      const orderId = randomUUID();
      const lines: OrderLine[] = Array.from({ length: 3 }, () => ({ lineId: randomUUID(), dishId: randomUUID(), priceCents: 1250, notes: '' }));
      o++;
      return commands.handle(order, orderStream(orderId), { type: 'placeOrder', orderId, userId: randomUUID(), tableId: null, waiter: 'w', at: Date.now(), lines });
    });
    written += (await Promise.all(batch)).reduce((sum, r) => sum + r.events.length, 0);
  }
  await store.close();
  return o;
}

async function replayAndStartup() {
  const total = 100_000;
  await buildLog(total);
  const store = new SqliteEventStore({ filename: join(dir, 'log.db'), recentEvents: 0 });
  const count = Number((await store.headPosition()) ?? 0n);
  const start = process.hrtime.bigint();
  const readStore = new MemoryReadStore();
  const projector = new Projector({ store, readStore, projections: allProjections, logger: silent });
  await projector.start();
  const s = seconds(start);
  const rate = count / s;
  const { heapUsed, rss } = process.memoryUsage();

  // Side by side: reading and parsing the same rows with no projection at all.
  const raw = new Database(join(dir, 'log.db'), { readonly: true });
  const r = process.hrtime.bigint();
  let parsed = 0;
  for (const row of raw.prepare('SELECT data, metadata FROM events').iterate() as Iterable<{ data: string; metadata: string }>) {
    JSON.parse(row.data);
    JSON.parse(row.metadata);
    parsed++;
  }
  const rawRate = parsed / seconds(r);
  raw.close();
  results.push({ measure: `replay of ${count} events into the in-memory read models`, value: `${Math.round(rate)} events/s (${(rate / rawRate).toFixed(2)}× a bare read-and-parse of the log at ${Math.round(rawRate)}/s)`, target: '≥ 50,000 events/s', ok: rate >= 50_000 });
  results.push({ measure: `start-up (open log, rebuild read models) with ${count} events`, value: `${s.toFixed(2)} s`, target: '< 5 s', ok: s < 5 });
  results.push({ measure: 'process memory with the rebuilt read models', value: `heap ${(heapUsed / 2 ** 20).toFixed(0)} MiB, RSS ${(rss / 2 ** 20).toFixed(0)} MiB for ${count} events`, target: 'reported', ok: true });
  await projector.stop();
  await store.close();
}

async function readYourWrites() {
  const store = new SqliteEventStore({ filename: join(dir, 'ryw.db') });
  const readStore = new MemoryReadStore();
  const projector = new Projector({ store, readStore, projections: allProjections, logger: silent });
  await projector.start();
  const commands = new CommandHandler(store);
  const withWait: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const orderId = randomUUID();
    const t0 = process.hrtime.bigint();
    const r = await commands.handle(order, orderStream(orderId), { type: 'placeOrder', orderId, userId: 'u', tableId: null, waiter: 'w', at: Date.now(), lines: [] });
    const t1 = process.hrtime.bigint();
    await projector.waitFor(r.position!, 2000);
    const t2 = process.hrtime.bigint();
    without.push(Number(t1 - t0) / 1e6);
    withWait.push(Number(t2 - t0) / 1e6);
  }
  const added = median(withWait) - median(without);
  results.push({ measure: 'read-your-writes wait added to a command (median)', value: `${added.toFixed(3)} ms (command alone ${median(without).toFixed(3)} ms)`, target: '< 2 ms', ok: added < 2 });
  await projector.stop();
  await store.close();
}

async function shapes() {
  const figures = await standaloneBesideTwoReplicas();
  if (typeof figures === 'string') {
    results.push({ measure: 'two API replicas on PostgreSQL beside standalone', value: `not measured: ${figures}`, target: 'reported', ok: true });
    return;
  }
  const { standalone: s, replicas: r } = figures;
  const f = (x: number) => Math.round(x).toLocaleString('en');
  results.push({ measure: 'POST /orders over HTTP, 16 at a time: two replicas on PostgreSQL + NATS beside standalone', value: `${f(r.commandsPerSecond)}/s vs ${f(s.commandsPerSecond)}/s (${(r.commandsPerSecond / s.commandsPerSecond).toFixed(2)}×)`, target: 'reported', ok: true });
  results.push({ measure: 'GET /orders/{id} over HTTP, 16 at a time: two replicas on PostgreSQL beside standalone', value: `${f(r.getsPerSecond)}/s vs ${f(s.getsPerSecond)}/s (${(r.getsPerSecond / s.getsPerSecond).toFixed(2)}×)`, target: 'reported', ok: true });
}

try {
  await appends();
  await replayAndStartup();
  results.push(await analyticsReplay(dir));
  await readYourWrites();
  results.push(...(await kitchenLatency()));
  results.push(await webhookIntake(dir));
  results.push(await seatingVsTakeAway(dir));
  results.push(...(await firstCommandAfterRestart(dir)));
  await shapes();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'MISS'} ${r.measure}: ${r.value} [target ${r.target}]`);
const missed = results.filter((r) => !r.ok).length;
console.log(`${results.length - missed} passed, ${missed} failed`);
process.exitCode = missed ? 1 : 0;
