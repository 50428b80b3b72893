import t from 'tap';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Sqlite, type Database, type Statement } from '@comanda/sqlite';
import pino from 'pino';
import { SqliteEventStore } from '@comanda/event-store';
import { backupEventLog, manifestPath } from '../src/backup.js';
import { BackupSchedule } from '../src/backup-schedule.js';
import { RestoreRefused, restoreBackup } from '../src/restore.js';
import { verifyEventLog } from '../src/verify.js';
import { busyWriters, readModelsUpTo, sourceDataDir, tempDir } from './helpers.js';

const src = (file: string) => fileURLToPath(new URL(`../src/${file}`, import.meta.url));

/** Runs one of the command line tools from source, as `npm run …` runs it from dist. */
function run(tool: string, argv: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    // Only the TypeScript loaders (tap's, and the `.js` to `.ts` imports of test/typescript-imports.mjs) and the source condition: not tap's own instrumentation.
    const loader = process.execArgv.filter((a) => a.includes('@tapjs/typescript') || a.includes('typescript-imports') || a.startsWith('--conditions'));
    const child = spawn(process.execPath, [...loader, src(tool), ...argv], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

async function restoredModels(dataDir: string, head: bigint | null) {
  const store = new SqliteEventStore({ filename: join(dataDir, 'events.db') });
  try {
    return await readModelsUpTo(store, head);
  } finally {
    await store.close();
  }
}

t.test('npm run backup under concurrent writes restores to a log that verifies, with the same read models up to its head', async (t) => {
  const source = sourceDataDir(t);
  const writers = busyWriters(source.commands, source.deps);
  while (writers.written() < 200) await new Promise((r) => setTimeout(r, 10));
  const out = join(tempDir(t, 'backups'), 'nightly.db');
  // Another process takes the backup while this one keeps appending: the real situation.
  const backup = await run('backup-main.ts', ['--out', out], { COMANDA_DATA_DIR: source.dataDir });
  const during = writers.written();
  await writers.stop();
  t.equal(backup.code, 0, backup.out);
  t.match(backup.out, /^backup written to .*: \d+ events, head position \d+, sha256 [0-9a-f]{64}/);

  const manifest = JSON.parse(readFileSync(manifestPath(out), 'utf8'));
  const head = BigInt(manifest.headPosition);
  t.ok(head > 0n && head < (await source.store.headPosition())!, 'a snapshot: the log moved on after it');
  t.same(manifest.secrets, ['master-key']);
  t.equal(statSync(out).mode & 0o777, 0o600, 'the backup carries the master key: owner only');
  t.ok(during >= 200);

  // restore and verify run in process here; test/e2e/operations.test.ts runs their command lines.
  const target = join(tempDir(t, 'restore'), 'data');
  const { report } = await restoreBackup(out, target);
  t.equal(report.head, head);
  t.equal(readFileSync(join(target, 'master-key.secret'), 'utf8'), readFileSync(join(source.dataDir, 'master-key.secret'), 'utf8'));
  t.equal(statSync(join(target, 'master-key.secret')).mode & 0o777, 0o600);
  const verified = verifyEventLog(join(target, 'events.db'));
  t.ok(verified.ok);
  t.equal(verified.events, manifest.events);
  t.equal(verified.head, head);
  t.same(await restoredModels(target, head), await readModelsUpTo(source.store, head), 'read models equal the source up to the head');
  const users = (await readModelsUpTo(source.store, head)).users as unknown[];
  t.ok(users.length > 0, 'the comparison covers real documents');
});

t.test('the scheduled backup, taken inside the service while it writes, keeps the newest N', async (t) => {
  const source = sourceDataDir(t);
  const dir = join(tempDir(t, 'scheduled'), 'backups');
  let clock = Date.parse('2026-03-14T22:00:00Z');
  const schedule = new BackupSchedule({
    dir, everySeconds: 3600, keep: 2, dataDir: source.dataDir, store: source.store, logger: pino({ level: 'silent' }),
    now: () => new Date((clock += 60_000)),
  });
  t.teardown(() => schedule.stop());
  const writers = busyWriters(source.commands, source.deps);
  while (writers.written() < 100) await new Promise((r) => setTimeout(r, 10));
  for (let i = 0; i < 3; i++) await schedule.runOnce();
  await writers.stop();
  const kept = ['comanda-20260314T220200000Z.db', 'comanda-20260314T220300000Z.db'];
  for (const f of kept) t.ok(existsSync(join(dir, f)) && existsSync(join(dir, `${f}.json`)), `${f} kept`);
  t.notOk(existsSync(join(dir, 'comanda-20260314T220100000Z.db')), 'the oldest is pruned');

  const last = join(dir, kept[1]!);
  const head = BigInt(JSON.parse(readFileSync(`${last}.json`, 'utf8')).headPosition);
  const target = join(tempDir(t, 'restore'), 'data');
  const { report } = await restoreBackup(last, target);
  t.ok(report.ok);
  t.equal(report.head, head);
  t.same(await restoredModels(target, head), await readModelsUpTo(source.store, head));
});

t.test('the schedule runs the first backup at once when none is recent, else one interval after the newest', async (t) => {
  const source = sourceDataDir(t);
  await busyWriters(source.commands, source.deps, 1).stop();
  const logger = pino({ level: 'silent' });
  const empty = join(tempDir(t, 'due'), 'backups');
  const first = new BackupSchedule({ dir: empty, everySeconds: 3600, keep: 3, dataDir: source.dataDir, store: source.store, logger });
  first.start();
  t.teardown(() => first.stop());
  for (let i = 0; i < 200 && readdirSync(empty).filter((f) => f.endsWith('.db')).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  t.equal(readdirSync(empty).filter((f) => f.endsWith('.db')).length, 1, 'no backup yet: one at once');

  const recent = tempDir(t, 'recent');
  writeFileSync(join(recent, 'comanda-20260101T000000000Z.db'), '');
  const second = new BackupSchedule({ dir: recent, everySeconds: 3600, keep: 3, dataDir: source.dataDir, store: source.store, logger });
  second.start();
  t.teardown(() => second.stop());
  await new Promise((r) => setTimeout(r, 500));
  t.same(readdirSync(recent), ['comanda-20260101T000000000Z.db'], 'a backup from a moment ago: the next waits its turn');
});

t.test('restore refuses a data dir that is not empty, and a damaged backup', async (t) => {
  const source = sourceDataDir(t);
  const writers = busyWriters(source.commands, source.deps, 1);
  while (writers.written() < 10) await new Promise((r) => setTimeout(r, 5));
  await writers.stop();
  const out = join(tempDir(t, 'backups'), 'b.db');
  await backupEventLog({ dataDir: source.dataDir, out });

  const busy = tempDir(t, 'occupied');
  writeFileSync(join(busy, 'notes.txt'), 'keep me');
  await t.rejects(restoreBackup(out, busy), RestoreRefused);
  await t.rejects(restoreBackup(out, busy), /not empty/);
  t.equal(readFileSync(join(busy, 'notes.txt'), 'utf8'), 'keep me', 'nothing touched');
  t.notOk(existsSync(join(busy, 'events.db')));

  // One flipped byte: the checksum catches it and the empty dir stays empty.
  const bytes = readFileSync(out);
  bytes[bytes.length - 100] ^= 0xff;
  chmodSync(out, 0o600);
  writeFileSync(out, bytes);
  const empty = join(tempDir(t, 'fresh'), 'data');
  await t.rejects(restoreBackup(out, empty), /checksum mismatch/);
});

t.test('verify finds a gap in positions, a broken stream revision and an event that does not parse', async (t) => {
  const cases: Array<[string, string, RegExp]> = [
    ['gap', 'DELETE FROM events WHERE position = 5', /position 6 follows 4/],
    ['revision', "UPDATE events SET revision = revision + 1 WHERE position = (SELECT max(position) FROM events WHERE stream = 'menu')", /stream menu: revision \d+ at position \d+ \(expected \d+\)/],
    ['json', "UPDATE events SET data = '{not json' WHERE position = 3", /event .* at position 3 does not parse/],
  ];
  for (const [i, [name, damage, problem]] of cases.entries()) {
    const source = sourceDataDir(t);
    const writers = busyWriters(source.commands, source.deps, 1);
    while (writers.written() < 12) await new Promise((r) => setTimeout(r, 5));
    await writers.stop();
    await source.store.close();
    const file = join(source.dataDir, 'events.db');
    t.ok(verifyEventLog(file).ok, `${name}: sound before`);
    const db = new Sqlite(file);
    db.exec(damage);
    db.close();
    const report = verifyEventLog(file);
    t.notOk(report.ok, name);
    t.match(report.problem, problem);
    if (i > 0) continue;
    const cli = await run('verify-main.ts', [file], {});
    t.equal(cli.code, 1, 'the command exits non-zero');
    t.match(cli.out, /^FAILED .*events\.db: position 6 follows 4 \(expected 5\) \(after 4 good events\)\n$/, 'one line');
  }
});
