import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import t from 'tap';
import { batchedDestination, processLogDestination, redactDeep, secretSafeLogging } from '../src/index.js';
import { BATCH_BYTES, type EncodedLine } from '../src/logging.js';

// Only whole lines: a write the pool is still making may have reached the file in part.
const lines = (file: string) => { const text = readFileSync(file, 'utf8'); return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>); };
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 300 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
};

t.test('lines wait for a batch, then reach the file within the flush interval, secrets censored', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'log-')), 'out.log');
  const destination = batchedDestination(file);
  const logger = pino({ level: 'info', ...secretSafeLogging }, destination);
  await new Promise((r) => setTimeout(r, 50)); // the file opens asynchronously
  logger.info({ body: { nested: { pin: '1234' } } }, 'first');
  t.same(lines(file), [], 'a single short line is not written at once');
  await until(() => lines(file).length === 1);
  const [first] = lines(file);
  t.match(first, { msg: 'first', body: { nested: { pin: '[redacted]' } } }, 'flushed by the timer, the PIN censored at depth');
  for (let i = 0; i < 100; i++) logger.info({ i, filler: 'x'.repeat(60) }, 'burst');
  await until(() => lines(file).length === 101);
  t.equal(lines(file).length, 101, 'a burst is written, every line kept, in order');
  t.same(lines(file).slice(1).map((l) => l.i), [...Array(100).keys()]);
  destination.flushSync?.();
  (destination as unknown as { end(): void }).end();
});

/** A line of `text` (ASCII) written as bytes, counting how often it was. */
const encoded = (text: string, counter: { n: number }): EncodedLine => ({
  maxBytes: text.length,
  encodeInto: (into, at) => (counter.n++, at + into.write(text, at, 'latin1')),
});

t.test('a line written as bytes goes into the batch at once, in its place among the others', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'log-encoded-')), 'out.log');
  const destination = batchedDestination(file);
  await new Promise((r) => setTimeout(r, 50));
  const written = { n: 0 };
  destination.write('{"n":1}\n');
  destination.writeEncoded(encoded('{"n":2}\n', written));
  destination.write('{"n":3,"caf\u00e9":"\ud83c\udf7d"}\n');
  t.equal(written.n, 1, 'encoded once, when written');
  t.equal(readFileSync(file, 'utf8'), '', 'waiting in the batch');
  destination.flushSync?.();
  t.same(lines(file).map((l) => l.n), [1, 2, 3]);
  t.match(lines(file)[2], { 'caf\u00e9': '\ud83c\udf7d' }, 'a string line is written as UTF-8');
  // Enough lines to fill a batch, and then some: a full batch is handed on without waiting for the timer.
  const filler = (i: number) => `{"n":${4 + i},"filler":"${'x'.repeat(100)}"}\n`;
  const perBatch = Math.floor(BATCH_BYTES / filler(0).length);
  const count = perBatch + 50;
  for (let i = 0; i < count; i++) destination.writeEncoded(encoded(filler(i), written));
  await once(destination, 'drain'); // the full batch's write has been made
  t.ok(lines(file).length >= 3 + perBatch - 10 && lines(file).length < 3 + count, 'the full batch reached the file, the rest wait');
  // A line longer than a batch, written on its own in its place; then batches reused once written.
  const long = `{"n":${4 + count},"filler":"${'y'.repeat(BATCH_BYTES + 10)}"}\n`;
  destination.writeEncoded(encoded(long, written));
  destination.write(`{"n":${5 + count},"filler":"${'z'.repeat(BATCH_BYTES)}"}\n`);
  for (let i = 0; i < 3 * perBatch; i++) destination.write(`{"n":${6 + count + i},"filler":"${'x'.repeat(100)}"}\n`);
  await once(destination, 'drain');
  destination.flushSync?.();
  t.same(lines(file).map((l) => l.n), [...Array(5 + count + 3 * perBatch).keys()].map((i) => i + 1), 'every line once, in order');
  (destination as unknown as { end(): void }).end();
});

t.test('lines still waiting are written when the process exits, stops or crashes, to a file or a pipe', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'log-exit-'));
  const source = fileURLToPath(new URL('../src/index.ts', import.meta.url));
  const endings = [['exit', 'process.exit(3)'], ['crash', "throw new Error('boom')"], ['drain', '']];
  // A fresh process with the loader tap uses, so the destination under test is this source.
  const run = (destination: string, end: string, stdio: 'ignore' | 'pipe') => spawnSync(process.execPath, [...process.execArgv, '--input-type=module', '-e',
    `import { openSync } from 'node:fs'; import pino from 'pino'; import { batchedDestination, secretSafeLogging } from ${JSON.stringify(source)};
      const log = pino({ level: 'info', ...secretSafeLogging }, batchedDestination(${destination}));
      for (let i = 0; i < 3; i++) log.info({ i }, 'waiting');
      ${end}`], { cwd: dirname(source), stdio, encoding: 'utf8' });
  for (const [name, end] of endings) {
    // A descriptor open before the first line, as standard output is for the service: a file here
    // (written synchronously)…
    const file = join(dir, `${name}.log`);
    run(`openSync(${JSON.stringify(file)}, 'w')`, end!, 'ignore');
    t.same(lines(file).map((l) => l.i), [0, 1, 2], `${name}: every line reached the file`);
    // …and standard output read through a pipe (written on the pool).
    const piped = run('1', end!, 'pipe').stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => (JSON.parse(l) as { i: number }).i);
    t.same(piped, [0, 1, 2], `${name}: every line went down the pipe`);
  }
});

t.test('one destination for the whole process', async (t) => {
  t.equal(processLogDestination(), processLogDestination());
});

t.test('redaction copies only what holds a secret', async (t) => {
  const clean = { a: { b: [1, 2] } };
  t.equal(redactDeep(clean), clean, 'nothing secret: the same object, no copy');
  const cyclic: Record<string, unknown> = { token: 't' };
  cyclic.self = cyclic;
  t.same(redactDeep(cyclic), { token: '[redacted]', self: '[circular]' });
  t.same(redactDeep([{ password: 'p' }, 'x']), [{ password: '[redacted]' }, 'x']);
});
