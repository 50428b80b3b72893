import t from 'tap';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess } from '../src/bench/load.js';
import { repoRoot } from '../src/standalone-process.js';

t.setTimeout(120_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Every answer goes through process.nextTick several times. A full collection made while no entry is
// queued (the runtime's start-up collection is one) used to leave the literal Node builds its entries
// with megamorphic, and every entry was then built in V8's runtime (~220 ns a call against ~26 ns);
// the runtime keeps one entry alive so the shapes stay (packages/runtime/src/next-tick-shape.ts).
t.test('after the start-up collection and a burst of answers, process.nextTick still builds its entries on the fast path', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-next-tick-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const probe = join(repoRoot, 'test/e2e/fixtures/next-tick-probe.mjs');
  // Its output to a file: V8 prints with C's stdio, which drops what a full non-blocking pipe refuses.
  const output = join(dataDir, 'output.log');
  const standalone = await startProcess('services/standalone/dist/main.js', [], { COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', LOG_LEVEL: 'debug' }, output, ['--allow-natives-syntax', '--import', probe]);
  t.teardown(() => standalone.stop());

  // The traffic comes after the start-up collection (the runtime logs it at debug level): before it
  // there is nothing to undo and the check would pass whatever the runtime did.
  const collected = () => readFileSync(output, 'utf8').includes('started: heap collected');
  for (let i = 0; i < 600 && !collected(); i++) await sleep(50);
  t.ok(collected(), 'the start-up collection has run');
  const statuses = new Set<number>();
  for (let wave = 0; wave < 200; wave++) {
    const answers = await Promise.all(Array.from({ length: 10 }, () => fetch(`${standalone.url}/`)));
    for (const answer of answers) statuses.add(answer.status);
  }
  t.same([...statuses], [200], 'every GET / answered');

  process.kill(standalone.pid, 'SIGUSR2');
  let printed: string[] = [];
  for (let i = 0; i < 100 && printed.length < 4; i++) {
    await sleep(50);
    printed = readFileSync(output, 'utf8').split('\n').filter((line) => line.includes('DefineKeyedOwnPropertyInLiteral'));
  }
  t.equal(printed.length, 4, 'V8 printed the four definitions of the entry literal');
  t.same(printed.filter((line) => !/MONOMORPHIC/.test(line)), [], 'each still remembers one shape');
});
