import pino, { type DestinationStream, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';

/**
 * Fields whose value is a secret wherever they appear, at any depth (matched ignoring case): request
 * and response headers included (cookie, authorization, the node's webhook signatures, set-cookie).
 */
export const SECRET_FIELDS = new Set([
  'pin', 'password', 'secret', 'webhooksecret', 'accesstoken', 'refreshtoken', 'walletaccesstoken',
  'masterkey', 'nodepassword', 'walletpassword', 'adminpin', 'pinhash', 'walletpasswordhash', 'token', 'cookie', 'authorization',
  'set-cookie', 'x-node-signature', 'x-phoenix-signature', 'x-approval-pin',
]);

const CENSOR = '[redacted]';

/**
 * A log object with every secret field censored at any depth (pino's own `redact` matches fixed
 * paths only: `*.secret` misses `body.nested.secret`). Objects and arrays holding a secret are copied
 * with it censored; the others are returned as they are (no copy for the usual line). Other values
 * (errors, buffers, dates) are kept as they are. Cycles are cut.
 */
export function redactDeep(value: unknown, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  const isArray = Array.isArray(value);
  const proto = Object.getPrototypeOf(value);
  if (!isArray && proto !== Object.prototype && proto !== null) return value;
  seen.add(value);
  if (isArray) {
    let copy: unknown[] | undefined;
    value.forEach((v, i) => {
      const r = redactDeep(v, seen);
      if (r !== v) (copy ??= [...value])[i] = r;
    });
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const v = object[key];
    const r = SECRET_FIELDS.has(key.toLowerCase()) ? CENSOR : redactDeep(v, seen);
    if (r !== v) (copy ??= { ...object })[key] = r;
  }
  return copy ?? value;
}

/**
 * The logging options every Comanda process uses: secret fields censored at any depth, headers
 * included. One walk of the line's own fields (no copy when nothing is secret) and no pino path
 * redaction beside it: that one cloned the fields of every line, request lines included, to look for
 * headers they never carry.
 */
export const secretSafeLogging: Pick<LoggerOptions, 'formatters'> = {
  formatters: { log: (object) => redactDeep(object) as Record<string, unknown> },
};

/** How log lines are written: JSON (one object a line, for a collector) or pino-pretty's readable lines. */
export type LogFormat = 'json' | 'pretty';

/** Readable lines on a terminal, JSON otherwise; `LOG_FORMAT=json` (or `pretty`) decides it outright. */
export function logFormat(env: NodeJS.ProcessEnv = process.env, terminal = process.stdout.isTTY === true): LogFormat {
  const asked = env.LOG_FORMAT;
  if (asked === 'json' || asked === 'pretty') return asked;
  return terminal ? 'pretty' : 'json';
}

/**
 * Bytes sonic-boom gathers before it writes: a busy API makes one write for a dozen lines, not one each.
 * A quiet process's lines are flushed every `FLUSH_EVERY_MS` (as pino's documentation does it), and
 * whatever is buffered is written when the process exits (pino's own exit handler for its destination).
 */
const BUFFER_BYTES = 4096;
const FLUSH_EVERY_MS = 1000;

let stdout: DestinationStream | undefined;

/**
 * The process's log destination, shared by every logger so lines never interleave: standard output
 * through pino's own destination (sonic-boom, buffered), or on a terminal pino-pretty writing to it.
 */
export function processLogDestination(format: LogFormat = logFormat()): DestinationStream {
  if (stdout) return stdout;
  if (format === 'pretty') {
    stdout = pretty({ destination: 1, sync: true, colorize: process.stdout.isTTY === true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' });
    return stdout;
  }
  const buffered = pino.destination({ dest: 1, minLength: BUFFER_BYTES, sync: false });
  // A callback: a flush of a closed destination reports it there instead of throwing in the timer.
  setInterval(() => buffered.flush(() => {}), FLUSH_EVERY_MS).unref();
  stdout = buffered;
  return stdout;
}
