import { fstatSync } from 'node:fs';
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
 * Lines are handed on once a batch of this many bytes is full, or after `FLUSH_EVERY_MS`. A write
 * costs the process far more than its bytes when it is made on libuv's thread pool (~70 µs of CPU on
 * these VMs: a pool thread woken, the write, the main thread woken with its result): with 16 kB
 * batches (~80 request lines) that was ~1 µs of a small GET's ~30 µs. At 64 kB a busy API writes 4
 * times less often; a quiet one still writes every 100 ms.
 */
export const BATCH_BYTES = 64 * 1024;
const FLUSH_EVERY_MS = 100;

/** Batches kept for reuse once written: enough for the one being filled while others are on their way. */
const SPARE_BATCHES = 4;

/** A line that writes its own bytes into a batch (line-bytes.ts), in its place among the others. */
export interface EncodedLine {
  /** The most bytes it can take. */
  readonly maxBytes: number;
  /** Writes the line, UTF-8 ending in a newline, into `into` from `at`; returns the offset after it. */
  encodeInto(into: Buffer, at: number): number;
}

export interface BatchedDestination extends DestinationStream {
  /**
   * Writes a line's bytes straight into the batch, in order with the lines written before and after
   * it: the request's line is made without a string, and the batch is written without a UTF-8
   * conversion (~0.9 against ~1.1 µs of CPU a request line when both are written at once to an ext4
   * file, 2M lines; the write on the main thread, below, saves the rest).
   */
  writeEncoded(line: EncodedLine): void;
}

/**
 * A log destination written in batches: lines are written into a 64 kB buffer as they come, and a
 * full buffer (or whatever is there after 100 ms) goes to the kernel in one write. sonic-boom's own
 * buffering cost ~4 µs a line, a twentieth of a small GET; here pino's lines are encoded once into
 * the batch and a request's line is written there byte by byte (`writeEncoded`).
 *
 * To a regular file the batch is written at once, on the main thread: the page cache takes it
 * without waiting on anyone, and the pool's round trip cost more than the write (a request line,
 * made and written so, ~0.57 µs of CPU against ~1.09 for a string per line through the pool: the
 * bench's log-line measure, 1M lines to an ext4 file). To a pipe, a
 * socket or a terminal (journald, a container's log driver, a console), whose reader may be slow, the
 * write is made on the pool and never holds up a request.
 *
 * Lines still in the batch are written when the process exits (also on an uncaught error): pino
 * flushes asynchronous destinations so, and a synchronous one is flushed here, so a crash or a stop
 * loses no line. The one exception is a batch whose asynchronous write is under way on the pool at
 * that moment: the pool finishes it, but a reader may see it after the lines flushed with the exit.
 * `dest` is a file descriptor or a path.
 */
export function batchedDestination(dest: number | string): BatchedDestination {
  const toFile = isRegularFile(dest);
  const destination = pino.destination({ dest, sync: toFile, contentMode: 'buffer' }) as ReturnType<typeof pino.destination> & BatchedDestination;
  let batch: Buffer = Buffer.allocUnsafeSlow(BATCH_BYTES);
  let used = 0;
  // sonic-boom holds a batch handed on until it is written (on the pool: a synchronous write is done
  // before handOn returns); once it has drained, all of them are, and are reused rather than new
  // 64 kB buffers a few hundred times a second.
  let handedOn: Buffer[] = [];
  const spare: Buffer[] = [];
  // In buffer mode sonic-boom takes bytes (pino's type knows only its string mode).
  const write = destination.write.bind(destination) as unknown as (bytes: Uint8Array) => boolean;
  const handOn = () => {
    if (used === 0) return;
    // A write that throws (the stream closed) leaves the batch as it is, its lines in it.
    write(batch.subarray(0, used));
    handedOn.push(batch);
    batch = spare.pop() ?? Buffer.allocUnsafeSlow(BATCH_BYTES);
    used = 0;
  };
  destination.on('drain', () => {
    for (const written of handedOn) if (spare.length < SPARE_BATCHES) spare.push(written);
    handedOn = [];
  });
  destination.write = (line: string) => {
    // A UTF-16 unit is at most 3 bytes of UTF-8: the exact count only for a line that may not fit.
    if (line.length * 3 > BATCH_BYTES - used) {
      const bytes = Buffer.byteLength(line);
      if (bytes > BATCH_BYTES - used) handOn();
      if (bytes > BATCH_BYTES) {
        write(Buffer.from(line, 'utf8'));
        return true;
      }
    }
    used += batch.write(line, used, 'utf8');
    return true;
  };
  destination.writeEncoded = (line: EncodedLine) => {
    if (line.maxBytes > BATCH_BYTES - used) {
      handOn();
      if (line.maxBytes > BATCH_BYTES) {
        const own = Buffer.allocUnsafe(line.maxBytes);
        write(own.subarray(0, line.encodeInto(own, 0)));
        return;
      }
    }
    used = line.encodeInto(batch, used);
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
      // Closed: the lines stay for the exit flush.
    }
  }, FLUSH_EVERY_MS).unref();
  destination.on('close', () => clearInterval(timer));
  if (toFile) {
    const atExit = () => {
      try {
        destination.flushSync();
      } catch {
        // Closed: nothing can be written any more.
      }
    };
    process.on('exit', atExit);
    destination.on('close', () => process.off('exit', atExit));
  }
  return destination;
}

/** A path is a file this destination opens; a descriptor is whatever it was opened on (`fstat`). */
function isRegularFile(dest: number | string): boolean {
  if (typeof dest === 'string') return true;
  try {
    return fstatSync(dest).isFile();
  } catch {
    return false;
  }
}

/** The process's log destination: standard output, batched, shared by every logger so lines never interleave. */
export function processLogDestination(): BatchedDestination {
  stdout ??= batchedDestination(1);
  return stdout;
}
