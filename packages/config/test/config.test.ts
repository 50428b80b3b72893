import t from 'tap';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirNotPrivate, loadConfig, persistentSecret, privateDataDir } from '../src/index.js';

t.test('defaults match the design table', async (t) => {
  const c = loadConfig({});
  t.match(c, {
    host: '127.0.0.1', port: 3000, eventStoreUrl: null, mongoUrl: null, natsUrl: null, nodeUrl: null,
    adminName: 'admin', adminPin: null, timezone: 'UTC', consistencyWaitMs: 2000, checkpointPollMs: 5, reconcileEveryS: 30, production: false,
    completeRequiresPayment: false, closePaidOrders: false, restaurantName: 'Comanda', receiptFooter: 'Thank you!', kitchenAutoBumpMinutes: 0, printRetryMaxSeconds: 30, kitchenPaperFallbackSeconds: 60,
  });
  t.ok(c.dataDir.endsWith('/data'));
  t.same([c.trustedProxies, c.shutdownTimeoutMs, c.requestTimeoutMs], [[], 10_000, 30_000], 'no proxy is trusted unless listed');
  t.same(loadConfig({ COMANDA_TRUSTED_PROXIES: '10.0.0.1, 192.168.0.0/16,::1' }).trustedProxies, ['10.0.0.1', '192.168.0.0/16', '::1']);
  t.same(loadConfig({ COMANDA_ALLOWED_ORIGINS: 'https://Tablets.example.com, http://localhost:5173' }).allowedOrigins, ['https://tablets.example.com', 'http://localhost:5173']);
  t.same(loadConfig({}).allowedOrigins, []);
  t.same([loadConfig({}).guestUrl, loadConfig({ COMANDA_GUEST_URL: ' https://Pay.example.com ' }).guestUrl], [null, 'https://pay.example.com'], "guests' link: the tablet's address unless set");
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
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT'],
    [{ COMANDA_TRUSTED_PROXIES: '10.0.0.1, proxy.local' }, 'COMANDA_TRUSTED_PROXIES'],
    [{ COMANDA_TRUSTED_PROXIES: '10.0.0.0/33' }, 'COMANDA_TRUSTED_PROXIES'],
    [{ COMANDA_ALLOWED_ORIGINS: 'https://pos.example.com/app' }, 'COMANDA_ALLOWED_ORIGINS'],
    [{ COMANDA_ALLOWED_ORIGINS: 'pos.example.com' }, 'COMANDA_ALLOWED_ORIGINS'],
    [{ COMANDA_ALLOWED_ORIGINS: 'ftp://pos.example.com' }, 'COMANDA_ALLOWED_ORIGINS'],
    [{ COMANDA_GUEST_URL: 'https://pay.example.com/g' }, 'COMANDA_GUEST_URL'],
    [{ COMANDA_SHUTDOWN_TIMEOUT_MS: 'soon' }, 'COMANDA_SHUTDOWN_TIMEOUT_MS'],
    [{ COMANDA_REQUEST_TIMEOUT_MS: '5' }, 'COMANDA_REQUEST_TIMEOUT_MS'],
    [{ COMANDA_RECONCILE_EVERY_S: '0' }, 'COMANDA_RECONCILE_EVERY_S'],
    [{ COMANDA_COMPLETE_REQUIRES_PAYMENT: 'yes' }, 'COMANDA_COMPLETE_REQUIRES_PAYMENT'],
    [{ COMANDA_CLOSE_PAID_ORDERS: '1' }, 'COMANDA_CLOSE_PAID_ORDERS'],
    [{ COMANDA_PRICES_INCLUDE_TAX: 'no' }, 'COMANDA_PRICES_INCLUDE_TAX'],
    [{ COMANDA_WAITER_DISCOUNT_MAX_PERCENT: '101' }, 'COMANDA_WAITER_DISCOUNT_MAX_PERCENT'],
    [{ COMANDA_RESTAURANT_NAME: 'x'.repeat(81) }, 'COMANDA_RESTAURANT_NAME'],
    [{ COMANDA_RECEIPT_FOOTER: 'x'.repeat(201) }, 'COMANDA_RECEIPT_FOOTER'],
    [{ COMANDA_KITCHEN_AUTO_BUMP_MINUTES: '1441' }, 'COMANDA_KITCHEN_AUTO_BUMP_MINUTES'],
    [{ COMANDA_KITCHEN_AUTO_BUMP_MINUTES: '2.5' }, 'COMANDA_KITCHEN_AUTO_BUMP_MINUTES'],
    [{ COMANDA_SERVICE_CHARGE_PERCENT: '12.555' }, 'COMANDA_SERVICE_CHARGE_PERCENT'],
    [{ COMANDA_SERVICE_CHARGE_PERCENT: '100.01' }, 'COMANDA_SERVICE_CHARGE_PERCENT'],
    [{ COMANDA_SERVICE_CHARGE_PERCENT: '-5' }, 'COMANDA_SERVICE_CHARGE_PERCENT'],
    [{ COMANDA_SERVICE_CHARGE_PERCENT: '10%' }, 'COMANDA_SERVICE_CHARGE_PERCENT'],
    [{ COMANDA_SERVICE_CHARGE_MIN_PARTY: '0' }, 'COMANDA_SERVICE_CHARGE_MIN_PARTY'],
    [{ COMANDA_SERVICE_CHARGE_MIN_PARTY: '100' }, 'COMANDA_SERVICE_CHARGE_MIN_PARTY'],
    [{ COMANDA_SERVICE_CHARGE_MIN_PARTY: 'six' }, 'COMANDA_SERVICE_CHARGE_MIN_PARTY'],
    [{ COMANDA_SERVICE_CHARGE_TAXABLE: 'yes' }, 'COMANDA_SERVICE_CHARGE_TAXABLE'],
  ];
  t.same(loadConfig({}).serviceCharge, { rateBp: 0, minParty: 6, taxable: false }, 'no automatic service charge unless said');
  t.same(loadConfig({ COMANDA_SERVICE_CHARGE_PERCENT: '12.5', COMANDA_SERVICE_CHARGE_MIN_PARTY: '8', COMANDA_SERVICE_CHARGE_TAXABLE: 'true' }).serviceCharge, { rateBp: 1250, minParty: 8, taxable: true });
  t.equal(loadConfig({ COMANDA_SERVICE_CHARGE_PERCENT: '0.05' }).serviceCharge.rateBp, 5, 'from the digits: 0.05 % is 5 basis points');
  t.equal(loadConfig({ COMANDA_SERVICE_CHARGE_PERCENT: '100' }).serviceCharge.rateBp, 10_000);
  t.equal(loadConfig({ COMANDA_KITCHEN_AUTO_BUMP_MINUTES: '5' }).kitchenAutoBumpMinutes, 5);
  t.equal(loadConfig({ COMANDA_PRINT_RETRY_MAX_SECONDS: '5' }).printRetryMaxSeconds, 5);
  t.equal(loadConfig({ COMANDA_KITCHEN_PAPER_FALLBACK_SECONDS: '20' }).kitchenPaperFallbackSeconds, 20);
  t.throws(() => loadConfig({ COMANDA_PRINT_RETRY_MAX_SECONDS: '0' }), /COMANDA_PRINT_RETRY_MAX_SECONDS/);
  t.equal(loadConfig({}).pricesIncludeTax, true, 'menu prices include tax unless said');
  t.equal(loadConfig({ COMANDA_PRICES_INCLUDE_TAX: 'false' }).pricesIncludeTax, false);
  t.equal(loadConfig({}).waiterDiscountMaxPercent, 10);
  t.equal(loadConfig({ COMANDA_WAITER_DISCOUNT_MAX_PERCENT: '0' }).waiterDiscountMaxPercent, 0);
  t.match(loadConfig({ COMANDA_COMPLETE_REQUIRES_PAYMENT: 'true', COMANDA_RESTAURANT_NAME: 'La Esquina', COMANDA_RECEIPT_FOOTER: '¡Gracias!' }), { completeRequiresPayment: true, restaurantName: 'La Esquina', receiptFooter: '¡Gracias!' });
  t.equal(loadConfig({ COMANDA_CLOSE_PAID_ORDERS: 'true' }).closePaidOrders, true);
  for (const [env, variable] of bad) {
    t.throws(() => loadConfig(env), { name: 'ConfigError', variable, message: new RegExp(variable) });
  }
});

t.test('store URLs choose the adapter by scheme; COMANDA_MONGO_URL still names a MongoDB read store', async (t) => {
  const pg = loadConfig({ COMANDA_EVENTSTORE_URL: 'postgres://u:p@db:5432/comanda', COMANDA_READSTORE_URL: 'postgresql://u:p@db/comanda' });
  t.equal(pg.eventStoreUrl, 'postgres://u:p@db:5432/comanda');
  t.equal(pg.readStoreUrl, 'postgresql://u:p@db/comanda');
  t.equal(loadConfig({ COMANDA_MONGO_URL: 'mongodb://m:27017/comanda' }).readStoreUrl, 'mongodb://m:27017/comanda');
  t.equal(loadConfig({ COMANDA_EVENTSTORE_URL: 'esdb://es:2113?tls=false' }).eventStoreUrl, 'esdb://es:2113?tls=false');
  t.throws(() => loadConfig({ COMANDA_READSTORE_URL: 'mysql://x/y' }), { variable: 'COMANDA_READSTORE_URL' });
  t.match(loadConfig({}), { readStoreUrl: null, embeddedReadStore: 'sqlite' }, 'standalone: SQLite read models by default');
  t.match(loadConfig({ COMANDA_READSTORE_URL: 'memory:' }), { readStoreUrl: null, embeddedReadStore: 'memory' });
  t.match(loadConfig({ COMANDA_READSTORE_URL: 'sqlite:' }), { readStoreUrl: null, embeddedReadStore: 'sqlite' });
  t.throws(() => loadConfig({ COMANDA_READSTORE_URL: 'sqlite:/tmp/x.db' }), { variable: 'COMANDA_READSTORE_URL' });
  t.throws(() => loadConfig({ COMANDA_EVENTSTORE_URL: 'mongodb://x/y' }), { variable: 'COMANDA_EVENTSTORE_URL' });
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

t.test('operations settings: metrics token, backup schedule', async (t) => {
  const defaults = loadConfig({});
  t.match(defaults, { metricsToken: null, backupDir: null, backupEverySeconds: 86_400, backupKeep: 7 });
  const set = loadConfig({ COMANDA_METRICS_TOKEN: 'a-long-enough-token', COMANDA_BACKUP_DIR: 'backups', COMANDA_BACKUP_EVERY: '6h', COMANDA_BACKUP_KEEP: '3' });
  t.match(set, { metricsToken: 'a-long-enough-token', backupDir: /\/backups$/, backupEverySeconds: 21_600, backupKeep: 3 });
  t.equal(loadConfig({ COMANDA_BACKUP_EVERY: '30m' }).backupEverySeconds, 1800);
  t.equal(loadConfig({ COMANDA_BACKUP_EVERY: '90' }).backupEverySeconds, 90);
  for (const [variable, value] of [
    ['COMANDA_METRICS_TOKEN', 'short'],
    ['COMANDA_BACKUP_EVERY', '10s'],
    ['COMANDA_BACKUP_EVERY', 'hourly'],
    ['COMANDA_BACKUP_KEEP', '0'],
  ] as const) {
    t.throws(() => loadConfig({ [variable]: value }), { name: 'ConfigError', variable }, `${variable}=${value}`);
  }
});

t.test('Lightning checkout: rate source, fixed rates, maximum age, expiry, excess', async (t) => {
  const d = loadConfig({});
  t.same([d.rateSource, d.fixedRates, d.rateUrl, d.rateMaxAgeS, d.rateTimeoutMs, d.checkoutExpiryS, d.lightningExcess], ['coingecko', {}, null, 120, 3000, 600, 'tip']);
  const fixed = loadConfig({ COMANDA_RATES: 'usd=97000.00, MXN=1750000' });
  t.equal(fixed.rateSource, 'fixed', 'fixed rates given: the fixed source');
  t.same(fixed.fixedRates, { USD: '97000.00', MXN: '1750000' });
  t.equal(loadConfig({ COMANDA_RATE_SOURCE: 'kraken', COMANDA_RATE_URL: 'http://127.0.0.1:9999' }).rateUrl, 'http://127.0.0.1:9999');
  for (const [env, variable] of [
    [{ COMANDA_RATE_SOURCE: 'bitstamp' }, 'COMANDA_RATE_SOURCE'],
    [{ COMANDA_RATE_SOURCE: 'fixed' }, 'COMANDA_RATES'],
    [{ COMANDA_RATES: 'USD=0' }, 'COMANDA_RATES'],
    [{ COMANDA_RATES: 'EUR=90000' }, 'COMANDA_RATES'],
    [{ COMANDA_RATES: 'USD=abc' }, 'COMANDA_RATES'],
    [{ COMANDA_RATE_MAX_AGE_S: '0' }, 'COMANDA_RATE_MAX_AGE_S'],
    [{ COMANDA_CHECKOUT_EXPIRY_S: '5' }, 'COMANDA_CHECKOUT_EXPIRY_S'],
    [{ COMANDA_LIGHTNING_EXCESS: 'keep' }, 'COMANDA_LIGHTNING_EXCESS'],
    [{ COMANDA_RATE_URL: 'ftp://x' }, 'COMANDA_RATE_URL'],
  ] as Array<[Record<string, string>, string]>) {
    t.throws(() => loadConfig(env), new RegExp(variable), variable);
  }
});

t.test('privateDataDir: an existing data dir and what it holds become private to this user', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'comanda-private-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const dataDir = join(root, 'data');
  mkdirSync(join(dataDir, 'node-sim'), { recursive: true, mode: 0o755 });
  chmodSync(dataDir, 0o755);
  chmodSync(join(dataDir, 'node-sim'), 0o775);
  writeFileSync(join(dataDir, 'events.db'), 'x', { mode: 0o644 });
  writeFileSync(join(dataDir, 'node-sim', 'node-sim-state.json'), '{}', { mode: 0o666 });
  chmodSync(join(dataDir, 'node-sim', 'node-sim-state.json'), 0o666);
  const umask = process.umask();
  t.teardown(() => void process.umask(umask));
  privateDataDir(dataDir);
  t.equal(statSync(dataDir).mode & 0o777, 0o700);
  t.equal(statSync(join(dataDir, 'node-sim')).mode & 0o777, 0o700);
  t.equal(statSync(join(dataDir, 'events.db')).mode & 0o777, 0o600);
  t.equal(statSync(join(dataDir, 'node-sim', 'node-sim-state.json')).mode & 0o777, 0o600);
  writeFileSync(join(dataDir, 'later.db'), 'y');
  t.equal(statSync(join(dataDir, 'later.db')).mode & 0o777, 0o600, 'files made later are private too (umask 077)');
  privateDataDir(join(root, 'fresh'));
  t.equal(statSync(join(root, 'fresh')).mode & 0o777, 0o700, 'a new data dir');
  t.match(new DataDirNotPrivate('/x/events.db', 'EPERM').message, /\/x\/events.db holds secrets .* \(EPERM\)/);
});
