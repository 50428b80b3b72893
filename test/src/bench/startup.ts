import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Sqlite, type Database, type Statement } from '@comanda/sqlite';
import { freePort, repoRoot } from '../standalone-process.js';
import { RestaurantHistory } from './restaurant-log.js';
import type { BenchResult } from './webhooks.js';

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;
const mib = (kb: number) => `${Math.round(kb / 1024)} MiB`;

/** VmRSS and VmHWM (peak) of a process, in kB. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

interface Start {
  /** Spawn to the first 200 of /health/ready. */
  seconds: number;
  /** RSS once ready, then once the owner's reports answer, then after three `GET /orders?all=true`. */
  rssReady: number;
  /** Spawn to the first 200 of `/reports/sales`, and the RSS then. */
  reportsSeconds: number;
  rssReports: number;
  rssAfterAll: number;
  peakAfterAll: number;
  allBytes: number;
}

/**
 * `npm start`'s process (services/standalone/dist/main.js) on `dataDir`, timed from spawn to the first
 * 200 of `/health/ready` (polled every 25 ms); then its RSS, three `GET /orders?all=true` as an admin,
 * its RSS again, and SIGTERM.
 */
async function start(dataDir: string, env: Record<string, string>, withReads: boolean): Promise<Start> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const began = process.hrtime.bigint();
  const child = spawn(process.execPath, [join(repoRoot, 'services/standalone/dist/main.js')], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (c: Buffer) => (errors += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`standalone exited with ${child.exitCode}: ${errors}`);
      const ready = await fetch(`${url}/health/ready`).then((r) => r.status === 200, () => false);
      if (ready) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const took = seconds(began);
    const rssReady = memory(child.pid!).rss;
    // The reports build in the background after readiness (from their checkpoint on a restart).
    const cookie = async () => {
      const login = await fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'admin', pin: '1234' }) });
      return login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    };
    for (let signedIn = await cookie(); ; await new Promise((r) => setTimeout(r, 25))) {
      const answer = await fetch(`${url}/reports/sales`, { headers: { cookie: signedIn } });
      await answer.arrayBuffer();
      if (answer.status === 200) break;
      if (answer.status === 401) signedIn = await cookie();
      if (seconds(began) > 600) throw new Error(`/reports/sales still answers ${answer.status} after 10 minutes`);
    }
    const reportsSeconds = seconds(began);
    const rssReports = memory(child.pid!).rss;
    let allBytes = 0;
    if (withReads) {
      for (let i = 0; i < 3; i++) {
        // Access tokens last a minute: a fresh login per call keeps a slow large answer authorised.
        const r = await fetch(`${url}/orders?all=true`, { headers: { cookie: await cookie() } });
        if (r.status !== 200) throw new Error(`GET /orders?all=true answered ${r.status}`);
        allBytes = (await r.arrayBuffer()).byteLength;
      }
    }
    const after = memory(child.pid!);
    return { seconds: took, rssReady, reportsSeconds, rssReports, rssAfterAll: after.rss, peakAfterAll: after.peak, allBytes };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** The floor under every start: reading and parsing every event of the log, and nothing else. */
function rawRead(file: string): number {
  const db = new Sqlite(file, { readonly: true });
  const began = process.hrtime.bigint();
  for (const row of db.prepare('SELECT data, metadata FROM events ORDER BY position').iterate() as Iterable<{ data: string; metadata: string }>) {
    JSON.parse(row.data);
    JSON.parse(row.metadata);
  }
  const took = seconds(began);
  db.close();
  return took;
}

/**
 * Start-up of a real standalone process and its memory at 10k / 100k / 1M events (a restaurant's
 * orders, written through the command handler), with read models in SQLite (the default: a restart
 * resumes from their checkpoint) beside the in-memory read models it replaces (rebuilt at every start)
 * and a bare read of the same log, in the same run. The first SQLite start (no read-model file yet:
 * after a restore, or an upgrade) is reported too.
 */
export async function startupBySize(dir: string, sizes = [10_000, 100_000, 1_000_000]): Promise<BenchResult[]> {
  // The fixed cost of a start (loading code, compiling schemas, the simulated Lightning network):
  // a restart on a log holding only the first admin.
  await start(join(dir, 'startup-empty'), {}, false);
  const empty = await start(join(dir, 'startup-empty'), {}, false);
  const history = await RestaurantHistory.open(join(dir, 'history', 'events.db'));
  const rows: string[] = [`empty log: ${empty.seconds.toFixed(2)} s, RSS ${mib(empty.rssReady)}`];
  const memoryRows: string[] = [];
  let worst = { seconds: 0, rss: 0 };
  try {
    for (const size of sizes) {
      const { events, orders } = await history.grow(size);
      const dataDir = join(dir, `startup-${size}`);
      await history.copyTo(join(dataDir, 'events.db'));
      const first = await start(dataDir, {}, false);
      const restart = await start(dataDir, {}, true);
      const inMemory = await start(dataDir, { COMANDA_READSTORE_URL: 'memory:' }, true);
      const raw = rawRead(join(dataDir, 'events.db'));
      const k = `${Math.round(events / 1000)}k events (${orders.toLocaleString('en')} orders)`;
      rows.push(`${k}: ${restart.seconds.toFixed(2)} s, RSS ${mib(restart.rssReady)}; reports built at ${restart.reportsSeconds.toFixed(2)} s, RSS ${mib(restart.rssReports)} (first start: ${first.reportsSeconds.toFixed(1)} s, RSS ${mib(first.rssReports)}) (in-memory rebuild ${inMemory.seconds.toFixed(2)} s, RSS ${mib(inMemory.rssReady)}; first start building read-models.db ${first.seconds.toFixed(1)} s; bare read of the log ${raw.toFixed(2)} s)`);
      memoryRows.push(`${k}, all=true ${(restart.allBytes / 2 ** 20).toFixed(1)} MiB: SQLite RSS ${mib(restart.rssAfterAll)} (peak ${mib(restart.peakAfterAll)}), in memory ${mib(inMemory.rssAfterAll)} (peak ${mib(inMemory.peakAfterAll)})`);
      if (size === sizes[sizes.length - 1]) worst = { seconds: restart.seconds, rss: Math.max(restart.rssReady, restart.rssReports) / 1024 };
      rows[rows.length - 1] += ` [load average ${loadavg()[0]!.toFixed(1)}]`;
    }
  } finally {
    await history.close();
  }
  return [
    {
      measure: 'start-up of the standalone process to /health/ready 200, read models in SQLite (restart) beside the in-memory rebuild',
      value: `${rows.join('; ')}; restart at the largest size ${(worst.seconds / empty.seconds).toFixed(2)}× the empty log's`,
      target: `< 3 s and RSS < 300 MiB (ready, and once the reports are built) at the largest size`,
      ok: worst.seconds < 3 && worst.rss < 300,
    },
    {
      measure: 'RSS after three GET /orders?all=true',
      value: memoryRows.join('; '),
      target: 'reported',
      ok: true,
    },
  ];
}
