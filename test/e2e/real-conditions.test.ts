import t from 'tap';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../src/http-client.js';
import { startStandalone } from '../src/standalone-process.js';

/** Issue 39 over real processes and HTTP: what an attacker, an operator and a container do. */

const tempDir = (t: Tap.Test, name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `comanda-e2e-${name}-`));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const ADMIN = { COMANDA_ADMIN_PIN: '2468', COMANDA_WALLET_PASSWORD: 'wallet-password-1' };

t.test('100 login attempts at once on the standalone: at most five PINs are checked', async (t) => {
  const dataDir = tempDir(t, 'burst');
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, ...ADMIN });
  t.teardown(() => pos.stop());
  const login = (pin: string) => fetch(`${pos.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'admin', pin }) });
  const burst = await Promise.all([...Array.from({ length: 99 }, (_, i) => login(String(100000 + i))), login(ADMIN.COMANDA_ADMIN_PIN)]);
  const statuses = burst.map((r) => r.status);
  t.ok(statuses.filter((s) => s !== 429).length <= 5, `PINs checked: ${statuses.filter((s) => s !== 429).length}`);
  t.equal(statuses.at(-1), 429, 'the right PIN at the end of the burst is refused');
  t.equal((await login(ADMIN.COMANDA_ADMIN_PIN)).status, 429, 'and after it');
});

t.test('a data dir created by someone else is made private; files holding secrets are 0600', async (t) => {
  const root = tempDir(t, 'modes');
  const dataDir = join(root, 'data');
  mkdirSync(dataDir, { mode: 0o755 });
  chmodSync(dataDir, 0o755);
  writeFileSync(join(dataDir, 'notes.txt'), 'left by the operator\n', { mode: 0o644 });
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, ...ADMIN });
  t.teardown(() => pos.stop());
  const tablet = new Client(pos.url);
  await tablet.login('admin', ADMIN.COMANDA_ADMIN_PIN);
  t.equal((await tablet.post('/categories', { name: 'Antojitos' })).status, 201);
  t.equal(statSync(dataDir).mode & 0o777, 0o700, 'the data dir');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) {
        t.equal(statSync(join(dir, e.name)).mode & 0o777, 0o700, `${e.name}/`);
        walk(join(dir, e.name));
      } else files.push(join(dir, e.name));
    }
  };
  walk(dataDir);
  for (const name of ['events.db', 'read-models.db', 'master-key.secret', join('node-sim', 'node-sim-state.json')]) t.ok(files.includes(join(dataDir, name)), `${name} exists`);
  for (const file of files) t.equal(statSync(file).mode & 0o777, 0o600, file.slice(dataDir.length + 1));
});

t.test('a write from another origin is refused over HTTP', async (t) => {
  const dataDir = tempDir(t, 'origin');
  const pos = await startStandalone({ COMANDA_DATA_DIR: dataDir, ...ADMIN });
  t.teardown(() => pos.stop());
  const tablet = new Client(pos.url);
  await tablet.login('admin', ADMIN.COMANDA_ADMIN_PIN);
  const port = new URL(pos.url).port;
  const evil = await tablet.post('/auth/logout', undefined, { origin: `http://127.0.0.1:${Number(port) + 1}` });
  t.equal(evil.status, 403, 'a page on another port of the same host cannot log the tablet out');
  t.equal((await tablet.get('/auth/me')).status, 200);
  t.equal((await tablet.post('/categories', { name: 'Postres' }, { origin: `http://127.0.0.1:${port}` })).status, 201, 'the service\'s own pages can');
});

const unshareWorks = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;
t.test('kill -9 of a standalone that is PID 1 of its namespace: the next start in a new one (PID 1 again) serves', { skip: unshareWorks ? false : 'unshare --pid --fork --mount-proc is not available here (util-linux, and root or user namespaces)' }, async (t) => {
  const dataDir = tempDir(t, 'pid1');
  const prefix = ['unshare', '--pid', '--fork', '--mount-proc'];
  // `unshare` waits for its child with SIGTERM blocked: the service (PID 1 inside) is signalled itself, as a container runtime does.
  const serviceOf = (p: { child: { pid?: number } }) => Number(execFileSync('pgrep', ['-P', String(p.child.pid)]).toString().trim());
  const stop = async (p: Awaited<ReturnType<typeof startStandalone>>) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return;
    const exited = new Promise((resolve) => p.child.once('exit', resolve));
    process.kill(serviceOf(p), 'SIGTERM');
    await exited;
  };
  const first = await startStandalone({ COMANDA_DATA_DIR: dataDir, ...ADMIN }, { prefix });
  t.teardown(() => stop(first));
  const tablet = new Client(first.url);
  await tablet.login('admin', ADMIN.COMANDA_ADMIN_PIN);
  t.equal((await tablet.post('/categories', { name: 'Antes del corte' })).status, 201);
  // The service is the child of `unshare`: PID 1 inside. Killing it ends the namespace at once.
  const service = serviceOf(first);
  t.match(execFileSync('cat', [`/proc/${service}/status`]).toString(), /NSpid:\s+\d+\s+1\n/, 'it is PID 1 of its namespace');
  process.kill(service, 'SIGKILL');
  await new Promise((resolve) => (first.child.exitCode !== null || first.child.signalCode !== null ? resolve(null) : first.child.once('exit', resolve)));

  const second = await startStandalone({ COMANDA_DATA_DIR: dataDir, ...ADMIN }, { prefix });
  t.teardown(() => stop(second));
  const again = new Client(second.url);
  await again.login('admin', ADMIN.COMANDA_ADMIN_PIN);
  const categories = (await again.get('/categories')).body as Array<{ name: string }>;
  t.ok(categories.some((c) => c.name === 'Antes del corte'), 'it serves, with what was acknowledged before the kill');
  await t.rejects(startStandalone({ COMANDA_DATA_DIR: dataDir, ...ADMIN }, { prefix }), /exited with 1:[\s\S]*"event":"data-dir-busy"/, 'two live owners are still refused');
});
