import type { LoggerOptions } from 'pino';

/** Header paths: their names say nothing secret, so they are listed one by one. */
export const REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-node-signature"]',
  'req.headers["x-phoenix-signature"]',
  'res.headers["set-cookie"]',
];

/** Fields whose value is a secret wherever they appear, at any depth (matched ignoring case). */
export const SECRET_FIELDS = new Set([
  'pin', 'password', 'secret', 'webhooksecret', 'accesstoken', 'refreshtoken', 'walletaccesstoken',
  'masterkey', 'nodepassword', 'walletpassword', 'adminpin', 'pinhash', 'walletpasswordhash', 'token', 'cookie', 'authorization',
]);

const CENSOR = '[redacted]';

/**
 * A copy of a log object with every secret field censored at any depth (pino's own `redact` matches
 * fixed paths only: `*.secret` misses `body.nested.secret`). Plain objects and arrays are copied;
 * other values (errors, buffers, dates) are kept as they are. Cycles are cut.
 */
export function redactDeep(value: unknown, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  const isArray = Array.isArray(value);
  const proto = Object.getPrototypeOf(value);
  if (!isArray && proto !== Object.prototype && proto !== null) return value;
  seen.add(value);
  if (isArray) return value.map((v) => redactDeep(v, seen));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = SECRET_FIELDS.has(key.toLowerCase()) ? CENSOR : redactDeep(v, seen);
  return out;
}

/** The logging options every Comanda process uses: header paths by name, secret fields at any depth. */
export const secretSafeLogging: Pick<LoggerOptions, 'redact' | 'formatters'> = {
  redact: { paths: REDACT, censor: CENSOR },
  formatters: { log: (object) => redactDeep(object) as Record<string, unknown> },
};
