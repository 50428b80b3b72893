import t from 'tap';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../src/http-client.js';
import { startStandalone } from '../src/standalone-process.js';
import { runTool } from '../src/tools.js';

const TOKEN = 'e2e-metrics-token-0123456789';

// Several processes start one after another; a loaded machine needs more than the default two minutes.
t.setTimeout(300_000);

t.test('operations over real processes: admin offline, the data dir lock, metrics, readiness', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'comanda-e2e-ops-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const dataDir = join(root, 'data');
  const env = { COMANDA_DATA_DIR: dataDir };

  // Before the first start: the owner creates an admin and a waiter from the command line.
  const admin = await runTool('admin', ['create-user', 'Rosa', 'admin'], env, '864213\n');
  t.equal(admin.code, 0, admin.out);
  t.match(admin.out, /^created admin Rosa \(id [0-9a-f-]{36}\)\n$/);
  t.notMatch(admin.out, /864213/, 'the PIN is never echoed');
  const wallet = await runTool('admin', ['set-wallet-password', 'rosa'], env, 'caja-fuerte-2026\n');
  t.equal(wallet.code, 0, wallet.out);
  const duplicate = await runTool('admin', ['create-user', 'ROSA', 'waiter'], env, '1111\n');
  t.equal(duplicate.code, 1, 'the roster decider refuses a duplicate name offline too');
  t.match(duplicate.out, /A user named ROSA already exists/);
  const badPin = await runTool('admin', ['create-user', 'Marisol', 'waiter'], env, '12\n');
  t.equal(badPin.code, 1);
  t.match(badPin.out, /PIN must be 4 to 12 digits/);
  const list = await runTool('admin', ['list-users'], env);
  t.match(list.out, /^Rosa\tadmin\t[0-9a-f-]{36}\n$/);

  const pos = await startStandalone({ ...env, COMANDA_METRICS_TOKEN: TOKEN, LOG_LEVEL: 'info' });
  t.teardown(() => pos.stop());
  t.notMatch(pos.output(), /First admin/, 'no bootstrap admin: the roster already has one');
  t.notOk(existsSync(join(dataDir, 'first-admin.secret')));
  for (const line of pos.output().trim().split('\n')) t.doesNotThrow(() => JSON.parse(line), `structured: ${line.slice(0, 60)}`);
  t.equal((await fetch(`${pos.url}/health/live`)).status, 200);
  t.equal((await fetch(`${pos.url}/health/ready`)).status, 200, 'ready once it listens: read models were rebuilt first');

  const rosa = new Client(pos.url);
  const login = await rosa.login('rosa', '864213');
  t.match(login.body, { user: { name: 'Rosa', role: 'admin' } }, 'a user created offline logs in');
  t.equal((await rosa.post('/wallet/auth', { password: 'caja-fuerte-2026' })).status, 200, 'and unlocks the wallet');

  // While the standalone owns the data dir, offline writes and a second standalone are refused.
  const refused = await runTool('admin', ['create-user', 'Marisol', 'waiter'], env, '2580\n');
  t.equal(refused.code, 2);
  t.match(refused.out, /in use by a running Comanda: stop it first, or make the change through its API/);
  const listed = await runTool('admin', ['list-users'], env);
  t.equal(listed.code, 0, `reading needs no lock: list-users works beside the running service (${listed.out})`);
  t.match(listed.out, /^Rosa\tadmin\t/m);
  await t.rejects(startStandalone({ ...env }), /exited with 1:[\s\S]*"event":"data-dir-busy"/);

  // Traffic, then the scrape: every counter moved with it.
  let written = 0;
  for (let i = 0; i < 5; i++) if ((await rosa.post('/categories', { name: `Especiales ${i}` })).status === 201) written++;
  const forged = await fetch(`${pos.url}/webhooks/node`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-node-signature': 'forged' }, body: '{}' });
  t.equal(forged.status, 401);
  const scrape = await fetch(`${pos.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  t.equal(scrape.status, 200);
  const text = await scrape.text();
  const sample = (re: RegExp) => Number(re.exec(text)?.[1] ?? NaN);
  t.equal(sample(/^comanda_http_requests_total\{method="POST",route="\/categories",status="201"\} (\d+)$/m), written, 'every create counted');
  t.equal(sample(/^comanda_commands_total\{aggregate="menu",outcome="ok"\} (\d+)$/m), written);
  t.ok(sample(/^comanda_event_store_head_position (\d+)$/m) >= written + 3, 'the head counts the staff and the categories');
  t.match(text, /^comanda_lag_events\{part="projector"\} \d+$/m);
  t.equal(sample(/^comanda_webhooks_total\{outcome="bad_signature"\} (\d+)$/m), 1, 'the forged webhook is counted');
  t.match(text, /^# TYPE comanda_wallet_reconciliations_total counter$/m);
  t.match(text, /^comanda_lag_events\{part="relay"\} \d+$/m);
  t.equal((await fetch(`${pos.url}/metrics`)).status, 401);
  t.equal(await pos.stop(), 0);
  t.equal((await runTool('admin', ['reset-pin', 'rosa'], env, '864214\n')).code, 0, 'the lock is released on stop');
});
