import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { ConfigError } from './config-error.js';
import { type ServiceChargeConfig, serviceChargeConfig } from './service-charge.js';

/** Everything the services read from the environment, validated once at start. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  eventStoreUrl: string | null;
  /** Read models: PostgreSQL or MongoDB by scheme (COMANDA_READSTORE_URL, else COMANDA_MONGO_URL). */
  readStoreUrl: string | null;
  /**
   * Where the standalone keeps its read models when no shared store is named: `sqlite` (the default,
   * `<dataDir>/read-models.db`, COMANDA_READSTORE_URL=sqlite:) or `memory` (rebuilt at every start,
   * COMANDA_READSTORE_URL=memory:). Unused when readStoreUrl is set.
   */
  embeddedReadStore: 'sqlite' | 'memory';
  mongoUrl: string | null;
  natsUrl: string | null;
  nodeUrl: string | null;
  nodePassword: string | null;
  webhookSecret: string | null;
  masterKey: string | null;
  adminName: string;
  adminPin: string | null;
  walletPassword: string | null;
  timezone: string;
  consistencyWaitMs: number;
  /**
   * How often an API replica reads the projector's checkpoints while they are not announced (MongoDB;
   * PostgreSQL's LISTEN interrupted), in ms (COMANDA_CHECKPOINT_POLL_MS, default 5); announced, every
   * 250 ms or this if longer. A test sets it huge to show the write's answer comes by announcement.
   */
  checkpointPollMs: number;
  /** How often the wallet bridge asks the node for payments it received (reconciliation), in seconds. */
  reconcileEveryS: number;
  logLevel: string;
  production: boolean;
  /** Completing an order needs every line on a paid ticket (COMANDA_COMPLETE_REQUIRES_PAYMENT). */
  completeRequiresPayment: boolean;
  /** An order closes by itself (completed, its table freed) once it is paid in full (COMANDA_CLOSE_PAID_ORDERS). */
  closePaidOrders: boolean;
  // The restaurant's settings below are only the defaults of a new restaurant: what is in force is
  // read from the `settings` stream over them (workflows' currentSettings, issue 60).
  /** Menu prices include tax (COMANDA_PRICES_INCLUDE_TAX, default true); false: taxes are added on the bill. */
  pricesIncludeTax: boolean;
  /** The most a waiter may discount, in percent of what the discount applies to (COMANDA_WAITER_DISCOUNT_MAX_PERCENT, default 10). */
  waiterDiscountMaxPercent: number;
  /** The automatic service charge (COMANDA_SERVICE_CHARGE_PERCENT, _MIN_PARTY, _TAXABLE). */
  serviceCharge: ServiceChargeConfig;
  /** Printed on receipts (COMANDA_RESTAURANT_NAME). */
  restaurantName: string;
  /** The last line of every bill and receipt (COMANDA_RECEIPT_FOOTER). */
  receiptFooter: string;
  /** A kitchen ticket every line of which is done is bumped after this many minutes; 0 = never (COMANDA_KITCHEN_AUTO_BUMP_MINUTES). */
  kitchenAutoBumpMinutes: number;
  /** The longest wait between two tries of a printer that does not take a job (COMANDA_PRINT_RETRY_MAX_SECONDS, default 30). */
  printRetryMaxSeconds: number;
  /** A station in screen mode whose display has been gone this long prints what is fired to it (COMANDA_KITCHEN_PAPER_FALLBACK_SECONDS, default 60). */
  kitchenPaperFallbackSeconds: number;
  // Operations (issue 17): /metrics and scheduled backups.
  /** Bearer token for GET /metrics; null = the route is not served. */
  metricsToken: string | null;
  /** Directory of scheduled backups of the SQLite event log; null = no schedule. */
  backupDir: string | null;
  backupEverySeconds: number;
  backupKeep: number;
  /** Addresses (IPs or CIDR ranges) of reverse proxies whose X-Forwarded-For is believed; none by default. */
  trustedProxies: string[];
  /**
   * Origins (`https://pos.example.com`) of front-ends served elsewhere that may call the API from a
   * browser: they get CORS with credentials, and their state-changing requests are not refused.
   */
  allowedOrigins: string[];
  /**
   * Where guests' phones reach the POS (`https://pay.example.com`), for the link and QR printed on a
   * bill (issue 63); null: the address the printing tablet used (the restaurant's Wi-Fi).
   */
  guestUrl: string | null;
  /** SIGTERM: requests in flight get this long, then the process exits anyway. */
  shutdownTimeoutMs: number;
  /** A request (headers and body) must arrive within this long, or it is answered 408 and closed. */
  requestTimeoutMs: number;
  // Lightning checkout (issue 13): exchange rates, invoice expiry, what an over-payment becomes.
  /** Where bitcoin prices come from (COMANDA_RATE_SOURCE). */
  rateSource: 'kraken' | 'coinbase' | 'coingecko' | 'fixed';
  /** COMANDA_RATES: fiat per BTC by currency acronym, for the `fixed` source. */
  fixedRates: Record<string, string>;
  /** COMANDA_RATE_URL: the provider's base URL; null = its public one. */
  rateUrl: string | null;
  /** A rate older than this is never used (COMANDA_RATE_MAX_AGE_S). */
  rateMaxAgeS: number;
  /** How long a provider gets to answer (COMANDA_RATE_TIMEOUT_MS). */
  rateTimeoutMs: number;
  /** Life of a checkout invoice, and of its locked rate (COMANDA_CHECKOUT_EXPIRY_S). */
  checkoutExpiryS: number;
  /** Sats received beyond the bill and the tip asked: kept as a tip, or held as an over-payment to refund. */
  lightningExcess: 'tip' | 'refund';
}

export { ConfigError };

type Env = Record<string, string | undefined>;

const text = (env: Env, name: string): string | null => {
  const v = env[name];
  return v === undefined || v.trim() === '' ? null : v.trim();
};

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function url(env: Env, name: string, schemes: string[]): string | null {
  const raw = text(env, name);
  if (raw === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL (${schemes.join(', ')})`);
  }
  if (!schemes.includes(parsed.protocol.replace(/:$/, ''))) {
    throw new ConfigError(name, `must use one of ${schemes.join(', ')} (got ${parsed.protocol})`);
  }
  return raw;
}

function flag(env: Env, name: string): boolean {
  const raw = text(env, name);
  if (raw === null || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ConfigError(name, `must be true or false (got "${raw}")`);
}

function receiptFooter(env: Env): string {
  const footer = text(env, 'COMANDA_RECEIPT_FOOTER') ?? 'Thank you!';
  if (footer.length > 200) throw new ConfigError('COMANDA_RECEIPT_FOOTER', 'must be at most 200 characters');
  return footer;
}

function restaurantName(env: Env): string {
  const name = text(env, 'COMANDA_RESTAURANT_NAME') ?? 'Comanda';
  if (name.length > 80) throw new ConfigError('COMANDA_RESTAURANT_NAME', 'must be at most 80 characters');
  return name;
}

function timezone(env: Env): string {
  const tz = text(env, 'COMANDA_TIMEZONE') ?? 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    throw new ConfigError('COMANDA_TIMEZONE', `must be an IANA time zone such as America/Mexico_City (got "${tz}")`);
  }
  return tz;
}

/** `90`, `90s`, `30m`, `6h`, `1d` → seconds. */
function duration(env: Env, name: string, fallback: number, min: number): number {
  const raw = text(env, name);
  if (raw === null) return fallback;
  const m = /^(\d+)([smhd]?)$/.exec(raw);
  const seconds = m ? Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'] : NaN;
  if (!(seconds >= min)) throw new ConfigError(name, `must be a duration such as 30m, 6h or 1d, at least ${min} s (got "${raw}")`);
  return seconds;
}

function operations(env: Env) {
  const metricsToken = text(env, 'COMANDA_METRICS_TOKEN');
  if (metricsToken !== null && metricsToken.length < 16) throw new ConfigError('COMANDA_METRICS_TOKEN', 'must be at least 16 characters');
  const backupDir = text(env, 'COMANDA_BACKUP_DIR');
  return {
    metricsToken,
    backupDir: backupDir === null ? null : resolve(backupDir),
    backupEverySeconds: duration(env, 'COMANDA_BACKUP_EVERY', 86_400, 60),
    backupKeep: integer(env, 'COMANDA_BACKUP_KEEP', 7, 1, 10_000),
  };
}

/** A comma-separated list of IPv4/IPv6 addresses or CIDR ranges, each checked. */
function proxies(env: Env): string[] {
  const raw = text(env, 'COMANDA_TRUSTED_PROXIES');
  if (raw === null) return [];
  const list = raw.split(',').map((p) => p.trim()).filter(Boolean);
  for (const entry of list) {
    const [address, bits, extra] = entry.split('/');
    const version = isIP(address ?? '');
    const maxBits = version === 6 ? 128 : 32;
    const badBits = bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > maxBits);
    if (!version || badBits || extra !== undefined) {
      throw new ConfigError('COMANDA_TRUSTED_PROXIES', `must be a comma-separated list of IP addresses or CIDR ranges (got "${entry}")`);
    }
  }
  return list;
}

/** One web origin, scheme://host[:port] and nothing more, or a ConfigError naming the setting. */
function originOf(setting: string, entry: string): string {
  let url: URL | null = null;
  try {
    url = new URL(entry);
  } catch {
    // reported below
  }
  const bare = url && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password && !entry.endsWith('/');
  if (!url || !/^https?:$/.test(url.protocol) || !bare) {
    throw new ConfigError(setting, `must be ${setting === 'COMANDA_ALLOWED_ORIGINS' ? 'a comma-separated list of origins' : 'an origin'} such as https://pos.example.com, scheme, host and port only (got "${entry}")`);
  }
  return url.origin;
}

/** A comma-separated list of web origins, each scheme://host[:port] and nothing more. */
function origins(env: Env): string[] {
  const raw = text(env, 'COMANDA_ALLOWED_ORIGINS');
  if (raw === null) return [];
  return raw.split(',').map((o) => o.trim()).filter(Boolean).map((entry) => originOf('COMANDA_ALLOWED_ORIGINS', entry));
}

/** COMANDA_GUEST_URL: the origin guests' phones reach, or null (the printing tablet's). */
function guestUrl(env: Env): string | null {
  const raw = text(env, 'COMANDA_GUEST_URL');
  return raw === null ? null : originOf('COMANDA_GUEST_URL', raw.trim());
}

/** `USD=97000.00,MXN=1750000.00`: fiat per BTC, each a positive decimal, each currency one we know. */
function fixedRates(env: Env): Record<string, string> {
  const raw = text(env, 'COMANDA_RATES');
  if (raw === null) return {};
  const rates: Record<string, string> = {};
  for (const entry of raw.split(',').map((e) => e.trim()).filter(Boolean)) {
    const m = /^([A-Za-z]{3})=(\d{1,15}(?:\.\d{1,8})?)$/.exec(entry);
    if (!m || !/[1-9]/.test(m[2]!) || !['USD', 'MXN'].includes(m[1]!.toUpperCase())) {
      throw new ConfigError('COMANDA_RATES', `must be a list such as USD=97000.00,MXN=1750000.00 (fiat per BTC; USD and MXN) (got "${entry}")`);
    }
    rates[m[1]!.toUpperCase()] = m[2]!;
  }
  return rates;
}

function checkout(env: Env) {
  const rates = fixedRates(env);
  const source = text(env, 'COMANDA_RATE_SOURCE') ?? (Object.keys(rates).length ? 'fixed' : 'coingecko');
  if (!['kraken', 'coinbase', 'coingecko', 'fixed'].includes(source)) {
    throw new ConfigError('COMANDA_RATE_SOURCE', `must be one of kraken, coinbase, coingecko, fixed (got "${source}")`);
  }
  if (source === 'fixed' && Object.keys(rates).length === 0) throw new ConfigError('COMANDA_RATES', 'is required when COMANDA_RATE_SOURCE=fixed');
  const excess = text(env, 'COMANDA_LIGHTNING_EXCESS') ?? 'tip';
  if (excess !== 'tip' && excess !== 'refund') throw new ConfigError('COMANDA_LIGHTNING_EXCESS', `must be tip or refund (got "${excess}")`);
  return {
    rateSource: source as Config['rateSource'],
    fixedRates: rates,
    rateUrl: url(env, 'COMANDA_RATE_URL', ['http', 'https']),
    rateMaxAgeS: integer(env, 'COMANDA_RATE_MAX_AGE_S', 120, 1, 86_400),
    rateTimeoutMs: integer(env, 'COMANDA_RATE_TIMEOUT_MS', 3_000, 100, 60_000),
    checkoutExpiryS: integer(env, 'COMANDA_CHECKOUT_EXPIRY_S', 600, 10, 86_400),
    lightningExcess: excess as Config['lightningExcess'],
  };
}

/** `sqlite:` and `memory:` name the standalone's own read stores; anything else is a shared store's URL. */
function readStore(env: Env): Pick<Config, 'readStoreUrl' | 'embeddedReadStore'> {
  const raw = text(env, 'COMANDA_READSTORE_URL')?.toLowerCase();
  if (raw === 'sqlite:' || raw === 'memory:') return { readStoreUrl: null, embeddedReadStore: raw === 'sqlite:' ? 'sqlite' : 'memory' };
  if (raw?.startsWith('sqlite:') || raw?.startsWith('memory:')) {
    throw new ConfigError('COMANDA_READSTORE_URL', 'takes sqlite: or memory: alone (the SQLite file is <data dir>/read-models.db)');
  }
  return {
    readStoreUrl:
      url(env, 'COMANDA_READSTORE_URL', ['postgres', 'postgresql', 'mongodb', 'mongodb+srv']) ??
      url(env, 'COMANDA_MONGO_URL', ['mongodb', 'mongodb+srv']),
    embeddedReadStore: 'sqlite',
  };
}

export function loadConfig(env: Env = process.env): Config {
  const adminPin = text(env, 'COMANDA_ADMIN_PIN');
  if (adminPin !== null && !/^\d{4,12}$/.test(adminPin)) {
    throw new ConfigError('COMANDA_ADMIN_PIN', 'must be 4 to 12 digits');
  }
  const adminName = text(env, 'COMANDA_ADMIN_NAME') ?? 'admin';
  if (adminName.length > 64) throw new ConfigError('COMANDA_ADMIN_NAME', 'must be at most 64 characters');
  const masterKey = text(env, 'COMANDA_MASTER_KEY');
  if (masterKey !== null && masterKey.length < 32) {
    throw new ConfigError('COMANDA_MASTER_KEY', 'must be at least 32 characters');
  }
  const nodeUrl = url(env, 'COMANDA_NODE_URL', ['http', 'https']);
  const nodePassword = text(env, 'COMANDA_NODE_PASSWORD');
  if (nodeUrl && !nodePassword) throw new ConfigError('COMANDA_NODE_PASSWORD', 'is required when COMANDA_NODE_URL is set');
  const logLevel = text(env, 'LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', 'must be one of fatal, error, warn, info, debug, trace, silent');
  }
  // Read by the runtime where it builds the log destination (before configuration is loaded); checked here.
  const logFormat = text(env, 'LOG_FORMAT');
  if (logFormat !== null && logFormat !== 'json' && logFormat !== 'pretty') throw new ConfigError('LOG_FORMAT', 'must be json or pretty');
  return {
    host: text(env, 'HOST') ?? '127.0.0.1',
    port: integer(env, 'PORT', 3000, 0, 65535),
    dataDir: resolve(text(env, 'COMANDA_DATA_DIR') ?? './data'),
    eventStoreUrl: url(env, 'COMANDA_EVENTSTORE_URL', ['postgres', 'postgresql', 'esdb', 'esdb+discover', 'kurrentdb', 'kdb']),
    ...readStore(env),
    mongoUrl: url(env, 'COMANDA_MONGO_URL', ['mongodb', 'mongodb+srv']),
    natsUrl: url(env, 'COMANDA_NATS_URL', ['nats', 'tls']),
    nodeUrl,
    nodePassword,
    webhookSecret: text(env, 'COMANDA_WEBHOOK_SECRET'),
    masterKey,
    adminName,
    adminPin,
    walletPassword: text(env, 'COMANDA_WALLET_PASSWORD'),
    timezone: timezone(env),
    consistencyWaitMs: integer(env, 'COMANDA_CONSISTENCY_WAIT_MS', 2000, 0, 60_000),
    checkpointPollMs: integer(env, 'COMANDA_CHECKPOINT_POLL_MS', 5, 1, 3_600_000),
    reconcileEveryS: integer(env, 'COMANDA_RECONCILE_EVERY_S', 30, 1, 86_400),
    logLevel,
    production: env.NODE_ENV === 'production',
    completeRequiresPayment: flag(env, 'COMANDA_COMPLETE_REQUIRES_PAYMENT'),
    closePaidOrders: flag(env, 'COMANDA_CLOSE_PAID_ORDERS'),
    pricesIncludeTax: text(env, 'COMANDA_PRICES_INCLUDE_TAX') === null || flag(env, 'COMANDA_PRICES_INCLUDE_TAX'),
    waiterDiscountMaxPercent: integer(env, 'COMANDA_WAITER_DISCOUNT_MAX_PERCENT', 10, 0, 100),
    serviceCharge: serviceChargeConfig(env),
    restaurantName: restaurantName(env),
    receiptFooter: receiptFooter(env),
    ...operations(env),
    trustedProxies: proxies(env),
    allowedOrigins: origins(env),
    guestUrl: guestUrl(env),
    shutdownTimeoutMs: integer(env, 'COMANDA_SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    requestTimeoutMs: integer(env, 'COMANDA_REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
    kitchenAutoBumpMinutes: integer(env, 'COMANDA_KITCHEN_AUTO_BUMP_MINUTES', 0, 0, 1440),
    printRetryMaxSeconds: integer(env, 'COMANDA_PRINT_RETRY_MAX_SECONDS', 30, 1, 3600),
    kitchenPaperFallbackSeconds: integer(env, 'COMANDA_KITCHEN_PAPER_FALLBACK_SECONDS', 60, 1, 3600),
    ...checkout(env),
  };
}

/**
 * For a process entry point: the config, or one line naming the bad variable and exit code 1.
 * `require` lists variables this process cannot run without.
 */
export function loadConfigOrExit(require: Array<[keyof Config, string, string]> = []): Config {
  try {
    const config = loadConfig();
    for (const [key, variable, reason] of require) if (!config[key]) throw new ConfigError(variable, reason);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
