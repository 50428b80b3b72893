import t from 'tap';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, persistentSecret } from '../src/index.js';

t.test('defaults match the design table', async (t) => {
  const c = loadConfig({});
  t.match(c, {
    host: '127.0.0.1', port: 3000, eventStoreUrl: null, mongoUrl: null, natsUrl: null, nodeUrl: null,
    adminName: 'admin', adminPin: null, timezone: 'UTC', consistencyWaitMs: 2000, reconcileEveryS: 30, production: false,
  });
  t.ok(c.dataDir.endsWith('/data'));
  t.same([c.trustedProxies, c.shutdownTimeoutMs, c.requestTimeoutMs], [[], 10_000, 30_000], 'no proxy is trusted unless listed');
  t.same(loadConfig({ COMANDA_TRUSTED_PROXIES: '10.0.0.1, 192.168.0.0/16,::1' }).trustedProxies, ['10.0.0.1', '192.168.0.0/16', '::1']);
});

t.test('values are read and validated, each error names its variable', async (t) => {
  const c = loadConfig({ PORT: '8080', COMANDA_TIMEZONE: 'America/Mexico_City', COMANDA_NATS_URL: 'nats://127.0.0.1:4222', COMANDA_ADMIN_PIN: '1234' });
  t.equal(c.port, 8080);
  t.equal(c.timezone, 'America/Mexico_City');
  const bad: Array<[Record<string, string>, string]> = [
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ COMANDA_TIMEZONE: 'Mars/Olympus' }, 'COMANDA_TIMEZONE'],
    [{ COMANDA_NATS_URL: 'http://x' }, 'COMANDA_NATS_URL'],
    [{ COMANDA_MONGO_URL: 'not a url' }, 'COMANDA_MONGO_URL'],
    [{ COMANDA_ADMIN_PIN: '12a4' }, 'COMANDA_ADMIN_PIN'],
    [{ COMANDA_NODE_URL: 'http://127.0.0.1:9740' }, 'COMANDA_NODE_PASSWORD'],
    [{ COMANDA_MASTER_KEY: 'short' }, 'COMANDA_MASTER_KEY'],
    [{ COMANDA_CONSISTENCY_WAIT_MS: '-1' }, 'COMANDA_CONSISTENCY_WAIT_MS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ COMANDA_TRUSTED_PROXIES: '10.0.0.1, proxy.local' }, 'COMANDA_TRUSTED_PROXIES'],
    [{ COMANDA_TRUSTED_PROXIES: '10.0.0.0/33' }, 'COMANDA_TRUSTED_PROXIES'],
    [{ COMANDA_SHUTDOWN_TIMEOUT_MS: 'soon' }, 'COMANDA_SHUTDOWN_TIMEOUT_MS'],
    [{ COMANDA_REQUEST_TIMEOUT_MS: '5' }, 'COMANDA_REQUEST_TIMEOUT_MS'],
    [{ COMANDA_RECONCILE_EVERY_S: '0' }, 'COMANDA_RECONCILE_EVERY_S'],
  ];
  for (const [env, variable] of bad) {
    t.throws(() => loadConfig(env), { name: 'ConfigError', variable, message: new RegExp(variable) });
  }
});

t.test('generated secrets persist with mode 0600; the environment wins', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-cfg-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const first = persistentSecret(join(dir, 'data'), 'master-key', null);
  t.match(first, /^[0-9a-f]{64}$/);
  t.equal(persistentSecret(join(dir, 'data'), 'master-key', null), first);
  t.equal(statSync(join(dir, 'data', 'master-key.secret')).mode & 0o777, 0o600);
  t.equal(persistentSecret(join(dir, 'data'), 'master-key', 'from-env'), 'from-env');
});
