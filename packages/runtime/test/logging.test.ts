import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { logFormat, processLogDestination, redactDeep } from '../src/index.js';

t.test('standard output is JSON off a terminal, readable lines on one, and LOG_FORMAT decides outright', async (t) => {
  t.equal(logFormat({}, false), 'json');
  t.equal(logFormat({}, true), 'pretty');
  t.equal(logFormat({ LOG_FORMAT: 'json' }, true), 'json');
  t.equal(logFormat({ LOG_FORMAT: 'pretty' }, false), 'pretty');
  t.equal(logFormat({ LOG_FORMAT: 'xml' }, false), 'json', 'anything else: the terminal decides');
});

// A fresh process with the loader tap uses, so the destination under test is this source.
const source = fileURLToPath(new URL('../src/index.ts', import.meta.url));
// Where tap runs this file: its node arguments (the TypeScript import hook) name paths from there.
const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const run = (format: string, end: string) => spawnSync(process.execPath, [...process.execArgv, '--input-type=module', '-e',
  `import pino from 'pino'; import { processLogDestination, secretSafeLogging } from ${JSON.stringify(source)};
    const log = pino({ level: 'info', ...secretSafeLogging }, processLogDestination(${JSON.stringify(format)}));
    for (let i = 0; i < 3; i++) log.info({ i, body: { nested: { pin: '1234' } } }, 'waiting');
    ${end}`], { cwd: packageRoot, stdio: 'pipe', encoding: 'utf8' });

t.test('buffered lines are written when the process exits, stops or crashes, secrets censored', async (t) => {
  for (const [name, end] of [['exit', 'process.exit(3)'], ['crash', "throw new Error('boom')"], ['drain', '']]) {
    const lines = run('json', end!).stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { i: number; body: unknown });
    t.same(lines.map((l) => l.i), [0, 1, 2], `${name}: every line went down the pipe`);
    t.same(lines[0]!.body, { nested: { pin: '[redacted]' } }, `${name}: the PIN censored at depth`);
  }
});

t.test('the readable format writes one plain line a record, secrets censored too', async (t) => {
  const out = run('pretty', '').stdout;
  t.match(out, /INFO.*waiting/);
  t.notMatch(out, /1234/);
  t.notMatch(out, /^\{/m, 'no JSON');
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
