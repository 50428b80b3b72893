import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync, closeSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import autocannon from 'autocannon';
import { repoRoot } from '../standalone-process.js';

/** Seconds of each autocannon run (`BENCH_SECONDS`, default 3). */
export const RUN_SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

/** A start replaying a long history on a machine shared with others may take minutes. */
const START_TIMEOUT_MS = 600_000;

export interface Server {
  url: string;
  pid: number;
  /** CPU time (user + system) the process has used so far, in ms, from /proc. */
  cpuMs(): number;
  /** Resident set size of the process now, from /proc, in MiB. */
  rssMiB(): number;
  stop(): Promise<void>;
}

/**
 * Starts a node script as its own process with its output in `logFile` (a restaurant keeps its log in
 * a file or the journal, never in the memory of whoever started it) and waits for `listening on <url>`.
 */
export async function startProcess(script: string, args: string[], env: Record<string, string>, logFile: string, nodeArgs: string[] = []): Promise<Server> {
  const out = openSync(logFile, 'w');
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, resolvePath(repoRoot, script), ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const deadline = Date.now() + START_TIMEOUT_MS;
  let url: string | undefined;
  while (!url) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${script} did not start within ${START_TIMEOUT_MS / 1000} s:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
    url = /listening on (http:\/\/[^\s"]+)/.exec(readFileSync(logFile, 'utf8'))?.[1];
  }
  return {
    url,
    pid: child.pid!,
    cpuMs: () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    },
    rssMiB: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

/** Linux counts process CPU time in ticks of 1/100 s (USER_HZ). */
const CLOCK_TICKS = 100;

export interface LoadFigures {
  requestsPerSecond: number;
  /** CPU time the server spent per request, in µs: steadier than req/s on a machine shared with others. */
  cpuMicros: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, and connection errors: a run with any is not counted as a result. */
  failures: number;
}

/** The mean of several runs' figures (failures are summed). */
export const meanOf = (xs: LoadFigures[]): LoadFigures => ({
  requestsPerSecond: xs.reduce((s, x) => s + x.requestsPerSecond, 0) / xs.length,
  cpuMicros: xs.reduce((s, x) => s + x.cpuMicros, 0) / xs.length,
  p50: xs.reduce((s, x) => s + x.p50, 0) / xs.length,
  p99: xs.reduce((s, x) => s + x.p99, 0) / xs.length,
  failures: xs.reduce((s, x) => s + x.failures, 0),
});

/**
 * The median of several runs' figures, field by field (failures are summed): on a machine whose speed
 * swings from one 3-s round to the next, one slow or fast round does not move it as it moves a mean.
 */
export const medianOf = (xs: LoadFigures[]): LoadFigures => ({
  requestsPerSecond: median(xs.map((x) => x.requestsPerSecond)),
  cpuMicros: median(xs.map((x) => x.cpuMicros)),
  p50: median(xs.map((x) => x.p50)),
  p99: median(xs.map((x) => x.p99)),
  failures: xs.reduce((s, x) => s + x.failures, 0),
});

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export interface LoadRequest {
  method?: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** One autocannon run against `server`; `requests` are sent round-robin on each connection. */
export async function load(server: Server, requests: LoadRequest[], connections: number, headers: Record<string, string> = {}, seconds = RUN_SECONDS): Promise<LoadFigures> {
  const cpuBefore = server.cpuMs();
  const result = await autocannon({
    url: server.url,
    connections,
    duration: seconds,
    headers: { ...headers, ...(requests.some((r) => r.body) ? { 'content-type': 'application/json' } : {}) },
    requests: requests.map((r) => ({ method: r.method ?? 'GET', path: r.path, ...(r.body ? { body: r.body } : {}) })),
  });
  const cpu = server.cpuMs() - cpuBefore;
  return {
    requestsPerSecond: result.requests.total / seconds,
    cpuMicros: (cpu * 1000) / Math.max(1, result.requests.total),
    p50: result.latency.p50,
    p99: result.latency.p99,
    // A 304 is an answer (revalidation): only 4xx, 5xx, errors and timeouts fail.
    failures: result['4xx'] + result['5xx'] + result.errors + result.timeouts,
  };
}

/** Cookies of a fresh login: access tokens live one minute, so each run logs in again. */
export async function login(url: string, name = 'admin', pin = '1234'): Promise<string> {
  const res = await fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, pin }) });
  if (res.status !== 200) throw new Error(`login answered ${res.status}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

export const f0 = (x: number) => Math.round(x).toLocaleString('en');
