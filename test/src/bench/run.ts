import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sqlite, type Database, type Statement } from '@comanda/sqlite';
import pino from 'pino';
import { order, orderStream, type RecordedLine, atMenuPrice, ownAuthority } from '@comanda/domain';
import { CommandHandler, SqliteEventStore, type NewEvent } from '@comanda/event-store';
import { allProjections } from '@comanda/read-models';
import { MemoryReadStore, SqliteReadStore } from '@comanda/read-store';
import { Projector } from '@comanda/projector';
import { firstCommandAfterRestart } from './first-command.js';
import { startupBySize } from './startup.js';
import { dinnerRush } from './dinner-rush.js';
import { seatingVsTakeAway } from './seating.js';
import { kitchenLatency } from './kitchen-latency.js';
import { kitchenBoard } from './kitchen-board.js';
import { webhookIntake } from './webhooks.js';
import { type ShapeFigures, standaloneBesideTwoReplicas } from './http-shapes.js';
import { distributedOverHistory } from './distributed-history.js';
import { analyticsReplay } from './analytics-replay.js';
import { historyCurve, readsBesideBareFastify, someIds, startProduct } from './reads.js';
import { writeRestaurantHistory } from './restaurant-history.js';
import { rawEventsDatabase, singleLineWrites } from './writes.js';
import { thisBesideBaseline } from './versions.js';
import { appendsBesideEmmett } from './appends-beside-emmett.js';
import { floorContention } from './floor-contention.js';
import { posTraffic } from './pos-traffic.js';
import { statementsPerWrite } from './statements.js';
import { reportsScreenOverAYear } from './reports-screen.js';

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

  // Raw better-sqlite3 with the same schema, the same 512-row transactions and the same durability
  // (WAL, synchronous=FULL): what the store adds is its revision check and a savepoint per append.
  const db = await rawEventsDatabase(join(dir, 'baseline.db'));
  const insert = db.prepare('INSERT INTO events (id, stream, revision, type, data, metadata, recorded_at) VALUES (?, ?, 0, ?, ?, ?, ?)');
  const transaction = db.transaction((from: number) => {
    for (let j = 0; j < wave; j++) insert.run(randomUUID(), `order-${from + j}`, 'OrderPlaced', JSON.stringify({ n: from + j }), JSON.stringify({ occurredAt: Date.now(), schemaVersion: 1 }), Date.now());
  });
  const b = process.hrtime.bigint();
  for (let i = 0; i < n; i += wave) transaction(i);
  const raw = n / seconds(b);
  db.close();
  results.push({ measure: 'standalone appends of single-event commands, 512 at a time (one group commit)', value: `${Math.round(rate)}/s, ${(rate / raw).toFixed(2)}× raw better-sqlite3 at ${Math.round(raw)}/s (same schema, 512-row transactions, synchronous=FULL)`, target: '≥ 5,000/s', ok: rate >= 5000 });
}

async function buildLog(events: number) {
  const store = new SqliteEventStore({ filename: join(dir, 'log.db') });
  const commands = new CommandHandler(store);
  let written = 0;
  let o = 0;
  while (written < events) {
    const batch = Array.from({ length: 200 }, () => {
      const orderId = randomUUID();
      const lines: RecordedLine[] = Array.from({ length: 3 }, () => ({ lineId: randomUUID(), dishId: randomUUID(), priceCents: 1250, notes: '' }));
      o++;
      return commands.handle(order, orderStream(orderId), { type: 'placeOrder', orderId, userId: randomUUID(), tableId: null, waiter: 'w', at: Date.now(), lines: atMenuPrice(lines), authority: ownAuthority(null, 'waiter') });
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
  await projector.stop();

  // The same replay into the SQLite read models (the standalone's default), from an empty file.
  const sqliteModels = new SqliteReadStore({ filename: join(dir, 'replay-read-models.db') });
  const q = process.hrtime.bigint();
  const intoSqlite = new Projector({ store, readStore: sqliteModels, projections: allProjections, logger: silent });
  await intoSqlite.start();
  const sqliteRate = count / seconds(q);
  await intoSqlite.stop();
  await sqliteModels.close();

  // Side by side: reading and parsing the same rows with no projection at all.
  const raw = new Sqlite(join(dir, 'log.db'), { readonly: true });
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
  results.push({ measure: `replay of ${count} events into the SQLite read models (first start after a restore or an upgrade)`, value: `${Math.round(sqliteRate)} events/s (${(sqliteRate / rate).toFixed(2)}× the in-memory replay, same run)`, target: 'reported', ok: true });
  results.push({ measure: 'bench process memory with the in-memory read models rebuilt', value: `heap ${(heapUsed / 2 ** 20).toFixed(0)} MiB, RSS ${(rss / 2 ** 20).toFixed(0)} MiB for ${count} events`, target: 'reported', ok: true });
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
    const r = await commands.handle(order, orderStream(orderId), { type: 'placeOrder', orderId, userId: 'u', tableId: null, waiter: 'w', at: Date.now(), lines: [], authority: ownAuthority('u', 'waiter') });
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

/** The standalone process on a restaurant's history: every GET beside bare Fastify, then writes. */
async function readsAndWrites() {
  const dataDir = join(dir, 'restaurant');
  await writeRestaurantHistory(dataDir, { dishes: 200, tables: 100, orders: 1000 });
  const product = await startProduct(dataDir, join(dir, 'restaurant.log'));
  try {
    results.push(...(await readsBesideBareFastify(dir, product, await someIds(product))));
    results.push(...(await dinnerRush(product)));
    results.push(await singleLineWrites(dir, product));
  } finally {
    await product.stop();
  }
  const sizes = (process.env.BENCH_HISTORY ?? '1000,10000,100000').split(',').map(Number);
  results.push(...(await historyCurve(dir, sizes)));
}

async function shapes() {
  const figures = await standaloneBesideTwoReplicas();
  if (typeof figures === 'string') {
    results.push({ measure: 'two API replicas on PostgreSQL beside standalone', value: `not measured: ${figures}`, target: 'reported', ok: true });
    return;
  }
  const { standalone: s, one: o, replicas: r } = figures;
  const f = (x: number) => Math.round(x).toLocaleString('en');
  const pg = (x: ShapeFigures) => `PostgreSQL ${Math.round((x.postgresShare ?? 0) * 100)} % of the CPU`;
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  for (const [what, key] of [['POST /orders', 'commandsPerSecond'], ['GET /orders/{id}', 'getsPerSecond'], ["a table's writes (place at the table, add a dish, delete)", 'tableWritesPerSecond']] as const) {
    if (r[key] === undefined || o[key] === undefined || s[key] === undefined) continue;
    results.push({
      measure: `${what} over HTTP, 10 at a time: distributed (PostgreSQL + NATS) beside standalone`,
      value: `two replicas ${f(r[key])}/s (${ratio(r[key], s[key])}, ${pg(r)}), one replica ${f(o[key])}/s (${ratio(o[key], s[key])}, ${pg(o)}), standalone ${f(s[key])}/s`,
      target: '≥ 0.25× standalone; two replicas ≥ one', ok: r[key] >= 0.25 * s[key] && r[key] >= o[key],
    });
  }
}

/** Issue 62: PostgreSQL statements and CPU per write of the distributed shape, per mix of writes. */
async function statements() {
  const figures = await statementsPerWrite();
  if (typeof figures === 'string') {
    results.push({ measure: 'PostgreSQL statements per write', value: `not measured: ${figures}`, target: '≤ 6', ok: false });
    return;
  }
  for (const f of figures) {
    results.push({
      measure: `PostgreSQL statements per write, two replicas, 10 clients (${f.mix}; every process, pg_stat_statements)`,
      value: `${f.perWrite.toFixed(1)} (${f.statements.toLocaleString('en')} for ${f.writes} writes); CPU per write ${f.postgresCpuPerWriteMs.toFixed(2)} ms PostgreSQL, ${f.allCpuPerWriteMs.toFixed(2)} ms every process`,
      target: '≤ 6', ok: f.perWrite <= 6,
    });
    if (process.env.BENCH_STATEMENTS_DETAIL) for (const q of f.top) console.log(`  ${f.mix}: ${q.perWrite.toFixed(2)}/write  ${q.query}`);
  }
}

/** Issue 43: the distributed shape's writes and reads as its history grows, within 1.5× from the smallest to the largest. */
async function distributedHistory(sizes: number[]) {
  const runs = await distributedOverHistory(sizes);
  if (typeof runs === 'string') {
    results.push({ measure: 'distributed shape over history', value: `not measured: ${runs}`, target: 'reported', ok: true });
    return;
  }
  const f = (x: number) => Math.round(x).toLocaleString('en');
  const first = runs[0]!;
  for (const r of runs) {
    const post = r.figures.commandsPerSecond / first.figures.commandsPerSecond;
    const get = r.figures.getsPerSecond / first.figures.getsPerSecond;
    results.push({
      measure: `distributed (two replicas, PostgreSQL + NATS) with ${f(r.orders)} orders in the log, 10 at a time (the projector through the history ${f(r.catchUpS)} s after the processes started)`,
      value: `POST /orders ${f(r.figures.commandsPerSecond)}/s (${post.toFixed(2)}× of ${f(first.orders)}), GET /orders/{id} ${f(r.figures.getsPerSecond)}/s (${get.toFixed(2)}×), PostgreSQL ${Math.round((r.figures.postgresShare ?? 0) * 100)} % of the CPU`,
      target: `within 1.5× of ${f(first.orders)} orders`, ok: post >= 1 / 1.5 && get >= 1 / 1.5,
    });
  }
}

/** PostgreSQL appends beside Emmett's event store, 1 / 16 / 64 writers (BENCH_APPEND_WRITERS to change). */
async function pgAppends() {
  const writers = (process.env.BENCH_APPEND_WRITERS ?? '1,16,64').split(',').map(Number);
  const figures = await appendsBesideEmmett(writers);
  if (typeof figures === 'string') {
    results.push({ measure: 'PostgreSQL appends beside Emmett', value: `not measured: ${figures}`, target: '≥ 1.0× at 16 and 64 writers', ok: false });
    return;
  }
  const f = (x: number) => Math.round(x).toLocaleString('en');
  for (const x of figures) {
    const ratio = x.comanda / x.emmett;
    const gated = x.writers >= 16;
    results.push({
      measure: `PostgreSQL appends of orders-shaped streams, ${x.writers} writer${x.writers === 1 ? '' : 's'}, beside Emmett 0.42 on the same server (alternating rounds)`,
      value: `${f(x.comanda)}/s vs ${f(x.emmett)}/s (${ratio.toFixed(2)}×); PostgreSQL used ${x.comandaPgCores.toFixed(2)} vs ${x.emmettPgCores.toFixed(2)} cores`,
      target: gated ? '≥ 1.0×' : 'reported',
      ok: !gated || ratio >= 1,
    });
  }
}

// BENCH_ONLY=reads,log,pg-appends,analytics,kitchen,board,intake,startup,shapes,dist-history,floor,pos-traffic,statements,reports-screen runs some parts
// (all by default; `npm run bench -- pos-traffic board` names them too);
// BENCH_ONLY=versions COMANDA_BENCH_BASELINE=<another built checkout> compares two builds (never by default).
const named = process.argv.slice(2).flatMap((a) => a.split(',')).filter(Boolean);
const only = process.env.BENCH_ONLY?.split(',') ?? (named.length ? named : undefined);
const part = (name: string) => !only || only.includes(name);
try {
  if (part('reads')) await readsAndWrites();
  if (part('log')) {
    await appends();
    await replayAndStartup();
    await readYourWrites();
  }
  if (part('pg-appends')) await pgAppends();
  if (part('analytics')) results.push(await analyticsReplay(dir));
  if (part('kitchen')) results.push(...(await kitchenLatency()));
  if (part('board')) results.push(...(await kitchenBoard(dir)));
  if (part('intake')) {
    results.push(await webhookIntake(dir));
    results.push(await seatingVsTakeAway(dir));
    results.push(...(await firstCommandAfterRestart(dir)));
  }
  if (part('startup')) {
    // COMANDA_BENCH_STARTUP_SIZES=10000,100000 for a shorter run (the 1M log takes minutes to write).
    const sizes = (process.env.COMANDA_BENCH_STARTUP_SIZES ?? '10000,100000,1000000').split(',').map(Number);
    results.push(...(await startupBySize(dir, sizes)));
  }
  if (part('shapes')) await shapes();
  // COMANDA_BENCH_DIST_HISTORY=10000,100000 (the default): the distributed shape over each history.
  if (part('dist-history')) await distributedHistory((process.env.COMANDA_BENCH_DIST_HISTORY ?? '10000,100000').split(',').map(Number));
  // COMANDA_BENCH_FLOOR_CYCLES=10000 for issue 43's full run.
  if (part('floor')) results.push(...(await floorContention(Number(process.env.COMANDA_BENCH_FLOOR_CYCLES ?? 2000))));
  // Issue 58: the e2e dinner's recorded traffic at 40 tablets, 10 kitchen screens, 2 report pages
  // (BENCH_POS_* to scale it; COMANDA_BENCH_BASELINE=<another built checkout> serves it beside this build).
  if (part('pos-traffic')) results.push(...(await posTraffic(dir)));
  if (part('statements')) await statements();
  // Issue 60: the owner's first chart on a year of demo history, in Chromium.
  if (part('reports-screen')) results.push(...(await reportsScreenOverAYear(dir)));
  if (only?.includes('versions')) {
    const baseline = process.env.COMANDA_BENCH_BASELINE;
    if (!baseline) throw new Error('BENCH_ONLY=versions needs COMANDA_BENCH_BASELINE: the root of another built checkout');
    results.push(...(await thisBesideBaseline(dir, baseline, Number(process.env.BENCH_ROUNDS ?? 2))));
  }
} catch (error) {
  // The figures measured so far are still printed.
  results.push({ measure: 'bench', value: `stopped: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, target: 'every part runs', ok: false });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'MISS'} ${r.measure}: ${r.value} [target ${r.target}]`);
const missed = results.filter((r) => !r.ok).length;
console.log(`${results.length - missed} passed, ${missed} failed`);
process.exitCode = missed ? 1 : 0;
