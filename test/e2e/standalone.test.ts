import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandalone } from '../src/standalone-process.js';

// Three process starts: room for a loaded machine (each start compiles every route's schemas).
t.setTimeout(300_000);

t.test('the standalone process serves the general routes, stops on SIGTERM and keeps its state', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

  const first = await startStandalone({ COMANDA_DATA_DIR: dataDir });
  t.teardown(() => first.stop());
  const greeting = await fetch(`${first.url}/`);
  t.equal(greeting.status, 200);
  t.match(greeting.headers.get('content-type'), /application\/json/);
  t.type(await greeting.json(), 'string');
  const currency = await (await fetch(`${first.url}/base-currency`)).json();
  t.match(currency, { currency_id: /^[0-9a-f-]{36}$/ });
  const spec = await (await fetch(`${first.url}/swagger/json`)).json();
  t.equal(spec.openapi, '3.1.0');
  t.equal((await fetch(`${first.url}/health`)).status, 200);
  t.equal(await first.stop(), 0, 'exits cleanly on SIGTERM');

  t.ok(existsSync(join(dataDir, 'events.db')));
  const keyFile = join(dataDir, 'master-key.secret');
  t.equal(statSync(keyFile).mode & 0o777, 0o600);
  const key = readFileSync(keyFile, 'utf8');

  const second = await startStandalone({ COMANDA_DATA_DIR: dataDir });
  t.teardown(() => second.stop());
  t.same(await (await fetch(`${second.url}/base-currency`)).json(), currency);
  t.equal(readFileSync(keyFile, 'utf8'), key, 'the master key is kept, not regenerated');
  t.equal(await second.stop(), 0);
});

t.test('bad configuration stops the process with one line naming the variable', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  await t.rejects(startStandalone({ COMANDA_DATA_DIR: dataDir, COMANDA_TIMEZONE: 'Nowhere/Atlantis' }), /exited with 1:\nInvalid configuration: COMANDA_TIMEZONE/);
});
