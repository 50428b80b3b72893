import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import t from 'tap';
import { batchedDestination, processLogDestination, redactDeep, secretSafeLogging } from '../src/index.js';
import { BATCH_CHARS } from '../src/logging.js';

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

t.test('a deferred line is formatted when its batch is written, in its place among the others', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'log-deferred-')), 'out.log');
  const destination = batchedDestination(file);
  await new Promise((r) => setTimeout(r, 50));
  let formatted = 0;
  destination.write('{"n":1}\n');
  destination.writeDeferred({ toString: () => (formatted++, '{"n":2}\n') }, 8);
  destination.write('{"n":3}\n');
  t.equal(formatted, 0, 'not formatted when queued');
  destination.flushSync?.();
  t.equal(formatted, 1, 'formatted once, with its batch');
  t.same(lines(file).map((l) => l.n), [1, 2, 3]);
  // Enough lines to fill a batch by their approximate length, and then some.
  const count = Math.ceil(BATCH_CHARS / 120) + 50;
  let handedOn = 0;
  for (let i = 0; i < count; i++) destination.writeDeferred({ toString: () => (handedOn++, `{"n":${4 + i},"filler":"${'x'.repeat(100)}"}\n`) }, 120);
  t.equal(handedOn, Math.ceil(BATCH_CHARS / 120), 'a full batch is formatted and handed on at once, without waiting for the timer; the rest wait');
  await once(destination, 'drain'); // the batch's write has been made
  destination.flushSync?.();
  t.equal(handedOn, count, 'each line formatted once');
  t.same(lines(file).map((l) => l.n), [...Array(3 + count).keys()].map((i) => i + 1));
  (destination as unknown as { end(): void }).end();
});

t.test('lines still waiting are written when the process exits, stops or crashes', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'log-exit-'));
  const source = fileURLToPath(new URL('../src/index.ts', import.meta.url));
  for (const [name, end] of [['exit', 'process.exit(3)'], ['crash', "throw new Error('boom')"], ['drain', '']]) {
    const file = join(dir, `${name}.log`);
    // A fresh process with the loader tap uses, so the destination under test is this source.
    // A descriptor open before the first line, as standard output is for the service.
    const script = `import { openSync } from 'node:fs'; import pino from 'pino'; import { batchedDestination, secretSafeLogging } from ${JSON.stringify(source)};
      const log = pino({ level: 'info', ...secretSafeLogging }, batchedDestination(openSync(${JSON.stringify(file)}, 'w')));
      for (let i = 0; i < 3; i++) log.info({ i }, 'waiting');
      ${end}`;
    spawnSync(process.execPath, [...process.execArgv, '--input-type=module', '-e', script], { cwd: dirname(source), stdio: 'ignore' });
    t.same(lines(file).map((l) => l.i), [0, 1, 2], `${name}: every line reached the file`);
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
