import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { Sqlite, driverFor } from '../src/index.js';

t.test('the driver is chosen by the Node-API version this Node has', async (t) => {
  t.equal(driverFor(9), 'better-sqlite3-node20', 'Node 20 (Node-API 9): the 12 line');
  t.equal(driverFor(10), 'better-sqlite3', 'Node ≥ 22.14 (Node-API 10): the 13 line');
  t.equal(driverFor(Number.NaN), 'better-sqlite3-node20', 'an unknown version: the line that needs least');
});

t.test('a database opens, writes and reads through the chosen driver', async (t) => {
  const db = new Sqlite(':memory:');
  db.exec('CREATE TABLE t (x INTEGER)');
  db.prepare('INSERT INTO t (x) VALUES (?)').run(42);
  t.same(db.prepare('SELECT x FROM t').get(), { x: 42 });
  db.close();
});

// On Node 24 with better-sqlite3 12 this child aborted at the first young-generation collection that
// freed a statement (`RemoveEnvironmentCleanupHook … (env) != nullptr`): statements and closed databases
// dropped while the program allocates, as the stores do, so V8's own collections free their wrappers.
t.test('statements and databases nobody holds are collected without aborting the process', async (t) => {
  const driver = fileURLToPath(new URL('../src/index.ts', import.meta.url));
  const script = `
    const { Sqlite } = await import(${JSON.stringify(driver)});
    let kept = [];
    for (let round = 0; round < 20; round++) {
      const db = new Sqlite(':memory:');
      for (let i = 0; i < 5000; i++) {
        db.prepare('SELECT ' + i).get();
        if (i % 500 === 0) kept = new Array(10000).fill({ round });
      }
      db.close();
    }
    console.log('collected');
  `;
  const out = execFileSync(process.execPath, [...process.execArgv, '--input-type=module', '-e', script], { encoding: 'utf8' });
  t.match(out, /collected/);
});
