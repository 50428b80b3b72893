import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoRoot } from '../standalone-process.js';
import { type Server, f0, login, startProcess } from './load.js';
import { answersOf, compare, startBare } from './reads.js';
import type { ClientKind, Role, TrafficProfile } from './traffic/profile.js';
import { type DiningRoom, diningRoom } from './traffic/restaurant.js';
import { COOK_SECONDS, kitchenScreen, managerPage } from './traffic/screens.js';
import { type KindTally, Service } from './traffic/service.js';
import { tablet } from './traffic/tablet.js';
import type { BenchResult } from './webhooks.js';

/** The recorded dinner (test/src/bench/traffic/README.md says how it was recorded). */
const PROFILE = join(repoRoot, 'test/src/bench/traffic/pos-dinner.json');
const ENTRY = 'services/standalone/dist/main.js';
const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const TABLETS = setting('BENCH_POS_TABLETS', 40);
const SCREENS = setting('BENCH_POS_SCREENS', 10);
const MANAGERS = setting('BENCH_POS_MANAGERS', 2);
const ROUNDS = setting('BENCH_POS_ROUNDS', 3);
const ROUND_SECONDS = setting('BENCH_POS_ROUND_SECONDS', 30);
const WARMUP_SECONDS = setting('BENCH_POS_WARMUP_SECONDS', 20);
/** 1: the writes at the recorded dinner's speed (a script's taps); 0.1: ten times slower. */
const PACE = setting('BENCH_POS_PACE', 1);
const LIST_ROUNDS = setting('BENCH_ROUNDS', 5);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
};

/** One build under the replay: its process, its restaurant, its clients, what its measured rounds saw. */
interface Build {
  name: string;
  server: Server;
  service: Service;
  clients: Array<Promise<void>>;
  closing: AbortController;
  errors: string[];
  skipped: Map<string, number>;
  /** ms of CPU a second the server spends with every client connected and none asking (timers, keep-alives). */
  idleMsPerS: number;
  tally: Map<string, KindTally>;
  cpuMs: number;
  /** CPU the bench process (every client) spent in the measured rounds, ms. */
  clientsCpuMs: number;
  seconds: number;
  rssMiB: number;
}

async function open(dir: string, profile: TrafficProfile, name: string, root: string): Promise<Build & { room: DiningRoom }> {
  const slug = name.replace(/\W+/g, '-');
  const server = await startProcess(resolve(root, ENTRY), [], {
    COMANDA_DATA_DIR: join(dir, `pos-traffic-${slug}`), COMANDA_ADMIN_PIN: '1234', COMANDA_TIMEZONE: 'UTC',
    // As the e2e dinner: amounts in pesos, Lightning invoices at a fixed rate.
    COMANDA_RATES: 'USD=97000.00,MXN=1750000.00', COMANDA_BASE_CURRENCY: 'MXN',
  }, join(dir, `pos-traffic-${slug}.log`));
  const room = await diningRoom(server.url, TABLETS, MANAGERS);
  const service = new Service(name, server.url);
  const build = { name, server, service, room, clients: [] as Array<Promise<void>>, closing: new AbortController(), errors: [] as string[], skipped: new Map<string, number>(), idleMsPerS: 0, tally: new Map(), cpuMs: 0, clientsCpuMs: 0, seconds: 0, rssMiB: 0 };
  const { tablet: tablets, manager: managers } = profile.clients;
  if (!tablets || !managers) throw new Error(`${PROFILE} has no tablets or no manager: record the dinner again`);
  const run = (client: Promise<void>) => build.clients.push(client.catch((e: unknown) => void build.errors.push(e instanceof Error ? e.message : String(e))));
  for (let i = 0; i < TABLETS; i++) run(tablet(service, room, tablets, i, PACE, build.skipped));
  for (let i = 0; i < SCREENS; i++) run(kitchenScreen(service, room, i, SCREENS, PACE, build.closing.signal));
  for (let i = 0; i < MANAGERS; i++) run(managerPage(service, room, managers, i));
  return build;
}

/** One round of service on one build; its tally, CPU and time are added to the build's when `measured`. */
async function round(build: Build, seconds: number, measured: boolean): Promise<void> {
  build.service.tally = new Map();
  const cpu = build.server.cpuMs();
  const clients = process.cpuUsage();
  build.service.resume();
  await sleep(seconds * 1000);
  build.service.pause();
  // The answers to requests already sent land in this round.
  await sleep(300);
  if (!measured) return;
  build.cpuMs += build.server.cpuMs() - cpu;
  const used = process.cpuUsage(clients);
  build.clientsCpuMs += (used.user + used.system) / 1000;
  build.seconds += seconds;
  for (const [key, k] of build.service.tally) {
    const into: KindTally = build.tally.get(key) ?? { ms: [], statuses: new Map() };
    into.ms.push(...k.ms);
    for (const [status, why] of k.why ?? []) (into.why ??= new Map()).set(status, why);
    for (const [status, n] of k.statuses) into.statuses.set(status, (into.statuses.get(status) ?? 0) + n);
    build.tally.set(key, into);
  }
}

/**
 * Issue 58: the traffic the POS tablets, the kitchen screens and the managers' report pages made during
 * the e2e dinner (recorded: test/src/bench/traffic/pos-dinner.json), replayed against the standalone as
 * a real process by 40 tablets, 10 kitchen screens and 2 report pages, each a session of its own
 * holding its ETags. With `COMANDA_BENCH_BASELINE` (the root of another built checkout), that build
 * serves the same traffic in alternating rounds. Then the lists the tablets poll beside bare Fastify.
 */
export async function posTraffic(dir: string): Promise<BenchResult[]> {
  const profile = JSON.parse(readFileSync(PROFILE, 'utf8')) as TrafficProfile;
  const baselineRoot = process.env.COMANDA_BENCH_BASELINE;
  if (baselineRoot && !existsSync(join(baselineRoot, ENTRY))) throw new Error(`COMANDA_BENCH_BASELINE=${baselineRoot} has no built ${ENTRY} (run npm ci and the build there first)`);
  const builds: Build[] = [];
  try {
    builds.push(await open(dir, profile, 'this build', repoRoot));
    if (baselineRoot) builds.push(await open(dir, profile, 'baseline', baselineRoot));
    for (const b of builds) {
      // Signed in, the kitchen's streams open, nothing asked: what the server spends on its own.
      for (let last: unknown; last !== b.service.signingIn;) await (last = b.service.signingIn);
      await sleep(2000);
      const cpu = b.server.cpuMs();
      await sleep(3000);
      b.idleMsPerS = (b.server.cpuMs() - cpu) / 3;
      // The tablets catch up with their first dinners (joined part-way: the dishes fired in the catch-up
      // are cooked, and the orders closed, before the rounds) and the JIT with the traffic.
      await round(b, WARMUP_SECONDS + COOK_SECONDS / PACE, false);
    }
    for (let r = 0; r < ROUNDS; r++) for (const b of builds) await round(b, ROUND_SECONDS, true);
    for (const b of builds) b.rssMiB = b.server.rssMiB();
    for (const b of builds) {
      b.service.stop();
      b.closing.abort();
      await Promise.race([Promise.all(b.clients), sleep(10_000)]);
    }
    const results = figures(profile, builds);
    results.push(...(await listsBesideBare(dir, builds[0]!.server)));
    return results;
  } finally {
    for (const b of builds) {
      b.service.stop();
      b.closing.abort();
    }
    await Promise.all(builds.map((b) => b.server.stop()));
  }
}

const CLIENTS: ClientKind[] = ['tablet', 'kitchen-screen', 'manager'];
const TARGETS: Partial<Record<Role, number>> = { poll: 25, write: 50 };

function figures(profile: TrafficProfile, builds: Build[]): BenchResult[] {
  const [self, baseline] = builds as [Build, Build | undefined];
  const roleOf = (client: ClientKind, kind: string): Role =>
    profile.clients[client]?.kinds.find((k) => k.kind === kind)?.role ?? (kind.includes(' /auth/') ? 'session' : kind.startsWith('GET ') ? 'read' : 'write');
  const count = (k: KindTally | undefined, pick: (status: number) => boolean = () => true) => [...(k?.statuses ?? [])].reduce((n, [s, c]) => n + (pick(s) ? c : 0), 0);
  // A 401 is a session's access token run out (a minute): the client renews it and asks again.
  const failed = (status: number) => status === 0 || (status >= 400 && status !== 401);
  const describe = (k: KindTally | undefined) => (k ? `p50 ${percentile(k.ms, 50).toFixed(1)} ms, p99 ${percentile(k.ms, 99).toFixed(1)} ms (${f0(k.ms.length)}` +
    `${count(k, (s) => s === 304) ? `, ${Math.round((100 * count(k, (s) => s === 304)) / k.ms.length)} % 304` : ''}${count(k, failed) ? `, ${count(k, failed)} refused: ${[...k.statuses].filter(([s]) => failed(s)).map(([s, n]) => `${n}×${s}${k.why?.get(s) ? ` ${k.why.get(s)}` : ''}`).join(', ')}` : ''})` : 'none');
  const scale = `${TABLETS} tablets, ${SCREENS} kitchen screens, ${MANAGERS} report pages; ${ROUNDS} × ${ROUND_SECONDS} s${baseline ? ' each, alternating with the baseline' : ''}, pace ${PACE}`;
  const results: BenchResult[] = [];
  const pooled = (b: Build, pick: (client: ClientKind, role: Role) => boolean) => {
    const all: KindTally = { ms: [], statuses: new Map() };
    for (const [key, k] of b.tally) {
      const [client, kind] = key.split('|') as [ClientKind, string];
      if (!pick(client, roleOf(client, kind))) continue;
      all.ms.push(...k.ms);
      for (const [s, n] of k.statuses) all.statuses.set(s, (all.statuses.get(s) ?? 0) + n);
    }
    return all;
  };
  for (const client of CLIENTS) {
    const keys = [...new Set(builds.flatMap((b) => [...b.tally.keys()]))].filter((key) => key.startsWith(`${client}|`));
    keys.sort((a, b) => (self.tally.get(b)?.ms.length ?? 0) - (self.tally.get(a)?.ms.length ?? 0));
    for (const key of keys) {
      const kind = key.split('|')[1]!;
      const role = roleOf(client, kind);
      const mine = self.tally.get(key);
      const limit = TARGETS[role];
      results.push({
        measure: `POS traffic, ${client} ${kind} (${role})`,
        value: describe(mine) + (baseline ? `; baseline ${describe(baseline.tally.get(key))}` : ''),
        target: limit ? `p99 < ${limit} ms` : 'reported',
        ok: !limit || !mine || percentile(mine.ms, 99) < limit,
      });
    }
  }
  for (const [role, limit] of Object.entries(TARGETS) as Array<[Role, number]>) {
    const [mine, theirs] = builds.map((b) => pooled(b, (_, r) => r === role));
    results.push({ measure: `POS traffic, every ${role} (${scale})`, value: describe(mine) + (theirs ? `; baseline ${describe(theirs)}` : ''), target: `p99 < ${limit} ms`, ok: percentile(mine!.ms, 99) < limit });
  }
  const answered304 = (b: Build) => {
    const polls = pooled(b, (client, role) => client === 'tablet' && role === 'poll');
    return count(polls, (s) => s === 304) / Math.max(1, polls.ms.length);
  };
  results.push({
    measure: 'POS traffic, tablet polls answered 304 (If-None-Match with the ETag the tablet holds)',
    value: `${Math.round(100 * answered304(self))} %${baseline ? ` (baseline ${Math.round(100 * answered304(baseline))} %)` : ''}`,
    target: '≥ 70 %', ok: answered304(self) >= 0.7,
  });
  const load = (b: Build) => {
    const all = pooled(b, () => true);
    const writes = pooled(b, (_, role) => role === 'write');
    return { requests: all.ms.length, perSecond: all.ms.length / b.seconds, writes: writes.ms.length / b.seconds, cpuMicros: (b.cpuMs * 1000) / Math.max(1, all.ms.length), core: b.cpuMs / 10 / b.seconds, refused: count(all, failed) };
  };
  const [l, lb] = builds.map(load) as [ReturnType<typeof load>, ReturnType<typeof load> | undefined];
  const loadOf = (x: ReturnType<typeof load>, b: Build) => `${f0(x.perSecond)} req/s (${x.writes.toFixed(1)} writes/s), ${f0(x.cpuMicros)} µs of server CPU per request ` +
    `(${x.core.toFixed(0)} % of a core; ${b.idleMsPerS.toFixed(0)} ms/s with nobody asking; the clients ${(b.clientsCpuMs / 10 / b.seconds).toFixed(0)} %), RSS ${b.rssMiB.toFixed(0)} MiB after the service` +
    (x.refused ? `, ${x.refused} of ${f0(x.requests)} requests refused` : '') +
    (b.skipped.size ? `, recorded steps with nothing to act on: ${[...b.skipped].map(([k, n]) => `${n}× ${k}`).join(', ')}` : '') + (b.errors.length ? `, clients stopped: ${b.errors[0]}` : '');
  results.push({
    measure: `POS traffic, the server's load (${scale})`,
    value: loadOf(l, self) + (lb ? `; baseline ${loadOf(lb, baseline!)}: CPU per request ${(l.cpuMicros / lb.cpuMicros).toFixed(2)}× the baseline's` : ''),
    target: 'reported', ok: self.errors.length === 0,
  });
  return results;
}

/** The lists the tablets poll, as they ask them (`?all=true`), after the service: each beside bare Fastify sending the same bytes. */
async function listsBesideBare(dir: string, product: Server): Promise<BenchResult[]> {
  const cookie = await login(product.url);
  // The floor, and the longest of the open states' lists the floor polls.
  const states = await answersOf(product, ['pending', 'preparing', 'ready'].map((state) => `/orders/status/${state}?all=true`), cookie);
  const orders = states.reduce((a, b) => (b.body.length > a.body.length ? b : a));
  const answers = [...(await answersOf(product, ['/tables?all=true'], cookie)), orders];
  const bare = await startBare(dir, answers, 'pos-traffic');
  try {
    return (await compare(product, bare, answers, [10], LIST_ROUNDS)).map((c) => ({
      measure: `POS traffic, GET ${c.url} after the service (${f0(c.bytes)} bytes, 10 connections) beside bare Fastify`,
      value: `${f0(c.product.requestsPerSecond)} req/s vs ${f0(c.bare.requestsPerSecond)} req/s: ${c.ratio.toFixed(2)}×; CPU per request ${f0(c.product.cpuMicros)} µs vs ${f0(c.bare.cpuMicros)} µs`,
      target: '≥ 0.5× bare Fastify', ok: c.ratio >= 0.5 && c.product.failures === 0,
    }));
  } finally {
    await bare.stop();
  }
}
