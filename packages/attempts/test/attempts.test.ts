import t from 'tap';
import { postgresAvailable, sharedPostgres } from '@comanda/postgres';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryAttemptCounter, SqliteAttemptCounter, attemptsPath, openAttemptCounter } from '../src/index.js';
import { PostgresAttemptCounter } from '../src/postgres.js';
import { MongoAttemptCounter } from '../src/mongo.js';
import { attemptCounterContract } from './contract.js';

const memory = new MemoryAttemptCounter();
attemptCounterContract('memory', async () => memory);

const dir = mkdtempSync(join(tmpdir(), 'comanda-attempts-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
attemptCounterContract('sqlite', async () => new SqliteAttemptCounter({ filename: join(dir, 'attempts.db') }));
const inMemory = new SqliteAttemptCounter({ filename: ':memory:' });
attemptCounterContract('sqlite in memory', async () => inMemory);

if (postgresAvailable() || process.env.COMANDA_TEST_POSTGRES_URL) {
  attemptCounterContract('postgresql', async () => PostgresAttemptCounter.open((await sharedPostgres()).url));
} else {
  t.fail('PostgreSQL is not installed (apt-get install postgresql, or set COMANDA_TEST_POSTGRES_URL): its contract must run');
}

const mongo = process.env.COMANDA_TEST_MONGO_URL;
if (mongo) {
  attemptCounterContract('mongodb', async () => {
    const counter = new MongoAttemptCounter(mongo, `comanda_test_${process.pid}`);
    await counter.ready();
    return counter;
  });
} else t.test('AttemptCounter contract: mongodb', { skip: 'set COMANDA_TEST_MONGO_URL to run it against a real MongoDB server' }, () => {});

t.test('configuration chooses the counter where the read models are', async (t) => {
  const dataDir = mkdtempSync(join(dir, 'data-'));
  t.ok((await openAttemptCounter({ dataDir, embeddedReadStore: 'memory' })) instanceof MemoryAttemptCounter, 'memory read models: memory');
  t.ok((await openAttemptCounter({})) instanceof MemoryAttemptCounter, 'no data dir: memory');
  const file = await openAttemptCounter({ dataDir, readStoreUrl: null, embeddedReadStore: 'sqlite' });
  t.ok(file instanceof SqliteAttemptCounter, 'the standalone: SQLite in its data dir');
  const rule = { limit: 1, baseLockMs: 60_000, maxLockMs: 60_000 };
  await file.admit('k', rule, 0);
  await file.close();
  const again = await openAttemptCounter({ dataDir, embeddedReadStore: 'sqlite' });
  t.same(await again.admit('k', rule, 1), { admitted: false, retryAfterMs: 59_999 }, 'a lock outlives a restart');
  await again.close();
  if (postgresAvailable() || process.env.COMANDA_TEST_POSTGRES_URL) {
    const shared = await openAttemptCounter({ readStoreUrl: (await sharedPostgres()).url });
    t.ok(shared instanceof PostgresAttemptCounter, 'a postgresql:// read store: PostgreSQL');
    await shared.close();
  }
});

t.test('a damaged counters file is moved aside and counting starts afresh', async (t) => {
  const dataDir = mkdtempSync(join(dir, 'damaged-'));
  writeFileSync(attemptsPath(dataDir), 'not a database, just text long enough to be read as a header '.repeat(20));
  const warn = console.warn;
  const warned: unknown[] = [];
  console.warn = (...args: unknown[]) => void warned.push(args);
  t.teardown(() => (console.warn = warn));
  const counter = await openAttemptCounter({ dataDir, embeddedReadStore: 'sqlite' });
  t.match(await counter.admit('k', { limit: 5, baseLockMs: 1, maxLockMs: 1 }, 0), { admitted: true, count: 1 });
  await counter.close();
  t.equal(warned.length, 1);
  t.ok(readdirSync(dataDir).some((f) => f.startsWith('attempts.db.damaged-')), 'the damaged file kept for a look');
});
