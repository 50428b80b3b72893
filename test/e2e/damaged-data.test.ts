import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandalone } from '../src/standalone-process.js';

/** Issue 18, item 7: damaged data stops with one clear line; a lost tail of the log is warned about. */

t.test('a damaged events.db stops the process with one line naming the file and what to do', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-damaged-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  writeFileSync(join(dataDir, 'events.db'), Buffer.concat([Buffer.from('this is not an SQLite database'), Buffer.alloc(8192, 0xab)]));
  const failure = await startStandalone({ COMANDA_DATA_DIR: dataDir }).then(
    (p) => (void p.stop(), ''),
    (error: Error) => error.message,
  );
  t.match(failure, /exited with 1/, 'the process stops with exit code 1');
  const lines = failure.split('\n').slice(1).filter((l) => l.trim() !== '');
  t.equal(lines.length, 1, `exactly one line: ${JSON.stringify(lines)}`);
  t.match(lines[0], /events\.db/, 'names the file');
  t.match(lines[0], /not a database/, 'says what is wrong');
  t.match(lines[0], /restore the file from a backup/, 'says what to do');
  t.notMatch(failure, /^\s+at /m, 'no stack trace');
});

t.test('a checkpoint ahead of the log head is reported at start', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-ahead-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = await startStandalone({ COMANDA_DATA_DIR: dataDir });
  t.equal(await first.stop(), 0);
  writeFileSync(join(dataDir, 'relay.checkpoint'), '987654');
  const second = await startStandalone({ COMANDA_DATA_DIR: dataDir });
  t.teardown(() => second.stop());
  t.match(second.output(), /relay checkpoint \(987654\) is ahead of the event log's head/);
  t.equal((await fetch(`${second.url}/health`)).status, 200, 'the process still serves');
});
