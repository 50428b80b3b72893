import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../standalone-process.js';
import { median } from './load.js';
import type { BenchResult } from './webhooks.js';

const LINES = 1_000_000;
const ROUNDS = 3;

/**
 * A child process answering `LINES` requests' worth of lines through the API's `OneLinePerRequest`
 * on the process's log destination (standard output), in slices of 1,000 with a turn of the event
 * loop between them, as requests arrive; it prints on standard error the CPU (user + system, every
 * thread) each line cost. The ids are made beforehand: Fastify makes them whether lines are written or not.
 */
const script = (level: string) => `
  import { OneLinePerRequest, processLogDestination } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'services/api/dist/index.js')).href)};
  const destination = processLogDestination();
  const lines = new OneLinePerRequest(destination, ${JSON.stringify(level)});
  const ids = Array.from({ length: 1024 }, (_, i) => 'req-' + (i + 1).toString(36));
  const log = { error() {} };
  const answer = async (n) => {
    for (let done = 0; done < n; done += 1000) {
      for (let i = 0; i < 1000; i++) lines.answered(ids[i & 1023], 'GET', '/orders/status/pending', '127.0.0.1', '/orders/status/:status', 200, 0.1 + (i % 90) / 100, log);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  await answer(100000);
  const before = process.cpuUsage();
  await answer(${LINES});
  destination.flushSync();
  const used = process.cpuUsage(before);
  process.stderr.write(JSON.stringify({ nanoseconds: ((used.user + used.system) * 1000) / ${LINES} }) + '\\n');
`;

type Output = 'file' | 'pipe';

/** One child's CPU per line, its standard output a file in `dir` or a pipe this process reads and drops. */
async function run(dir: string, output: Output, level: string): Promise<number> {
  const out = output === 'file' ? openSync(join(dir, 'log-line.log'), 'w') : 'pipe';
  const child = spawn(process.execPath, ['--input-type=module', '-e', script(level)], { stdio: ['ignore', out, 'pipe'] });
  if (typeof out === 'number') closeSync(out);
  child.stdout?.resume();
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const reported = /\{"nanoseconds":[^}]+\}/.exec(errors)?.[0];
  if (code !== 0 || !reported) throw new Error(`log line bench (${output}, ${level}) exited with ${code}: ${errors.slice(-500)}`);
  return (JSON.parse(reported) as { nanoseconds: number }).nanoseconds;
}

/**
 * What a request's log line costs, made and written: to a file (written at once by the process) and
 * to a pipe (written on libuv's pool, for a reader such as journald), beside the same loop at `warn`,
 * which writes none. Alternating rounds, medians.
 */
export async function requestLogLine(dir: string): Promise<BenchResult> {
  const figures: Record<'file' | 'pipe' | 'none', number[]> = { file: [], pipe: [], none: [] };
  for (let r = 0; r < ROUNDS; r++) {
    figures.file.push(await run(dir, 'file', 'info'));
    figures.pipe.push(await run(dir, 'pipe', 'info'));
    figures.none.push(await run(dir, 'file', 'warn'));
  }
  const [file, pipe, none] = [median(figures.file), median(figures.pipe), median(figures.none)];
  return {
    measure: `a request's log line, made and written (${(LINES / 1e6).toFixed(0)}M lines through OneLinePerRequest on the process's destination, CPU of every thread; ${ROUNDS} alternating rounds, medians)`,
    value: `${(file - none).toFixed(0)} ns of CPU a line to a file, ${(pipe - none).toFixed(0)} ns to a pipe (beyond the ${none.toFixed(0)} ns the same loop takes at warn)`,
    target: 'reported',
    ok: true,
  };
}
