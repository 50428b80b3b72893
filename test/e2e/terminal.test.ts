import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { freePort, repoRoot, startStandalone } from '../src/standalone-process.js';

const run = promisify(execFile);

t.test('off a terminal every line is JSON, the start-up announcement one structured line', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-json-'));
  const s = await startStandalone({ COMANDA_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
  t.teardown(() => s.stop());
  const secrets = join(dataDir, 'first-admin.secret');
  t.ok(existsSync(secrets), 'the generated PIN went to the owner-only file');
  const lines = s.output().split('\n').filter(Boolean);
  for (const line of lines) t.doesNotThrow(() => JSON.parse(line), `JSON: ${line.slice(0, 60)}`);
  const listening = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.event === 'listening');
  t.match(listening, { url: s.url, swagger: `${s.url}/swagger`, kitchen: `${s.url}/kitchen`, firstAdmin: 'admin', pinAt: new RegExp(secrets) });
});

/** The standalone on a pseudo-terminal (util-linux `script`), its output until the announcement is complete. */
async function onTerminal(env: Record<string, string>): Promise<string> {
  const port = String(await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-tty-'));
  const command = `exec ${process.execPath} ${join(repoRoot, 'services/standalone/dist/main.js')}`;
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: port, COMANDA_DATA_DIR: dataDir, TERM: 'dumb', ...env },
    stdio: ['pipe', 'pipe', 'pipe'], detached: true,
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no announcement:\n${out}`)), 90_000);
      child.stdout.on('data', () => {
        if (/Stop with Ctrl\+C|"event":"listening"/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', () => reject(new Error(`exited:\n${out}`)));
    });
  } finally {
    // The standalone runs in the terminal's own session (script's child): it is stopped by its pid,
    // and script, which follows it (-e), exits after it.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const standalone = spawnSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number);
    for (const pid of standalone) process.kill(pid, 'SIGTERM');
    if (standalone.length === 0) process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
  // The terminal ends lines with CR LF; colours are off (TERM=dumb does not stop them all: strip them).
  return out.replace(/\r/g, '').replace(/\u001b\[[0-9;]*m/g, '');
}

t.test('on a terminal: readable log lines, the announcement and the generated PIN in plain lines', async (t) => {
  const out = await onTerminal({});
  const url = /Comanda is running at (http:\/\/\S+)/.exec(out)?.[1];
  t.ok(url, 'the URL');
  t.match(out, `API documentation:  ${url}/swagger`);
  t.match(out, `POS (waiters, till): ${url}/pos`);
  t.match(out, `Kitchen screen:     ${url}/kitchen`);
  t.match(out, 'First admin:        "admin", PIN shown once on this terminal');
  t.match(out, /First admin "admin" created with a generated PIN and wallet password \(shown only this once\):\n {2}PIN: +\d{6,}/);
  t.notMatch(out, /^\{"level"/m, 'no JSON');
  t.match(out, /INFO/, 'pino-pretty\'s lines');
});

t.test('on a terminal with LOG_FORMAT=json: JSON lines, the announcement structured', async (t) => {
  const out = await onTerminal({ LOG_FORMAT: 'json' });
  t.match(out, /^\{"level":30.*"event":"listening"/m);
  t.notMatch(out, /Comanda is running at/);
});

t.test('a command piped to a file gets only its output: no npm or turbo banner', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-piped-'));
  const { stdout, stderr } = await run('npm', ['run', '--silent', 'analytics', '--', '--format', 'csv'], {
    cwd: repoRoot, env: { ...process.env, COMANDA_DATA_DIR: dataDir, npm_config_loglevel: 'warn' },
  });
  t.match(stdout, /^report,section,/, 'the CSV from its first byte');
  t.notMatch(stdout, /turbo|Packages in scope|> comanda/);
  t.match(stderr, /turbo|Tasks:/i, 'the build\'s lines went to standard error');
});
