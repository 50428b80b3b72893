import pino, { type DestinationStream, type LoggerOptions } from 'pino';

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

/** The logging options every Comanda process uses: header paths by name, secret fields at any depth. */
export const secretSafeLogging: Pick<LoggerOptions, 'redact' | 'formatters'> = {
  redact: { paths: REDACT, censor: CENSOR },
  formatters: { log: (object) => redactDeep(object) as Record<string, unknown> },
};

let stdout: BatchedDestination | undefined;

/**
 * Lines are handed on once this many characters are waiting, or after `FLUSH_EVERY_MS`. Each batch
 * is one write on libuv's thread pool, and each such write cost the process ~70 µs of CPU on these
 * VMs (a pool thread woken, the write, the main thread woken with its result), far more than the
 * bytes: with 16 kB batches (~80 request lines) that was ~1 µs of a small GET's ~30 µs. At 64 kB a
 * busy API writes 4 times less often; a quiet one still writes every 100 ms.
 */
export const BATCH_CHARS = 64 * 1024;
const FLUSH_EVERY_MS = 100;

/** A line whose text is worked out when its batch is handed on (its `toString()`), in its place among the others. */
export interface DeferredLine {
  toString(): string;
}

export interface BatchedDestination extends DestinationStream {
  /**
   * Queues a line to be formatted when its batch is written, in order with the lines written before
   * and after it. A request's line costs the request only a push: formatted on the request path, the
   * few JSON.stringify calls ran on cold caches between two requests (~5 µs a line); a batch formats
   * its lines in one tight loop.
   */
  writeDeferred(line: DeferredLine, approximateChars: number): void;
}

/**
 * A log destination written asynchronously and in batches: lines wait in memory until 64 kB are ready
 * or 100 ms have passed, then go to the kernel in one write, never while a request waits. Lines are
 * collected here and joined once per batch: sonic-boom's own buffering costs ~4 µs a line, a twentieth
 * of a small GET, against ~0.5 µs for a push. Pino flushes asynchronous destinations synchronously when
 * the process exits (also on an uncaught error), and that flush takes the waiting lines first, so a
 * crash or a stop loses no line. The one exception is a batch whose write is under way on libuv's
 * pool at that moment: the pool finishes it, but a reader may see it after the lines flushed with the
 * exit. `dest` is a file descriptor or a path.
 */
export function batchedDestination(dest: number | string): BatchedDestination {
  const destination = pino.destination({ dest, sync: false }) as ReturnType<typeof pino.destination> & BatchedDestination;
  let waiting: Array<string | DeferredLine> = [];
  let chars = 0;
  const write = destination.write.bind(destination);
  const handOn = () => {
    if (waiting.length === 0) return;
    // join formats the deferred lines (their toString) in queue order.
    const batch = waiting.join('');
    waiting = [];
    chars = 0;
    try {
      write(batch);
    } catch (error) {
      waiting.unshift(batch);
      chars += batch.length;
      throw error;
    }
  };
  destination.write = (line: string) => {
    waiting.push(line);
    chars += line.length;
    if (chars >= BATCH_CHARS) handOn();
    return true;
  };
  destination.writeDeferred = (line: DeferredLine, approximateChars: number) => {
    waiting.push(line);
    chars += approximateChars;
    if (chars >= BATCH_CHARS) handOn();
  };
  const flush = destination.flush.bind(destination);
  const flushSync = destination.flushSync.bind(destination);
  destination.flush = (cb?: (err?: Error) => void) => {
    handOn();
    flush(cb);
  };
  destination.flushSync = () => {
    handOn();
    flushSync();
  };
  const timer = setInterval(() => {
    try {
      handOn();
    } catch {
      // Still opening or closed: the lines stay for the next tick or the exit flush.
    }
  }, FLUSH_EVERY_MS).unref();
  destination.on('close', () => clearInterval(timer));
  return destination;
}

/** The process's log destination: standard output, batched, shared by every logger so lines never interleave. */
export function processLogDestination(): BatchedDestination {
  stdout ??= batchedDestination(1);
  return stdout;
}
