import t from 'tap';
import { postgresAvailable, sharedPostgres } from '@comanda/postgres';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryReadStore, SqliteReadStore, positionKey } from '../src/index.js';
import { PostgresReadStore } from '../src/postgres.js';
import { MongoReadStore } from '../src/mongo.js';
import { readStoreContract } from './contract.js';

readStoreContract('memory', async () => new MemoryReadStore());

const dir = mkdtempSync(join(tmpdir(), 'comanda-read-store-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
readStoreContract('sqlite', async () => new SqliteReadStore({ filename: join(dir, 'read-models.db') }));
readStoreContract('sqlite in memory', async () => new SqliteReadStore({ filename: ':memory:' }));

if (postgresAvailable() || process.env.COMANDA_TEST_POSTGRES_URL) {
  readStoreContract('postgresql', async () => PostgresReadStore.open((await sharedPostgres()).url));
} else {
  t.fail('PostgreSQL is not installed (apt-get install postgresql, or set COMANDA_TEST_POSTGRES_URL): its contract must run');
}

const mongo = process.env.COMANDA_TEST_MONGO_URL;
if (mongo) {
  readStoreContract('mongodb', async () => {
    const store = new MongoReadStore(mongo, `comanda_test_${process.pid}`);
    await store.ready();
    return store;
  });
} else t.test('read store contract: mongodb', { skip: 'set COMANDA_TEST_MONGO_URL to run it against a real MongoDB server' }, () => {});

t.test('memory clear removes documents and checkpoints', async (t) => {
  const store = new MemoryReadStore();
  await store.collection('a').upsert({ _id: '1' });
  await store.setCheckpoint('p', 3n);
  await store.clear();
  t.equal(await store.collection('a').count(), 0);
  t.equal(await store.getCheckpoint('p'), null);
});

t.test('position keys sort like the positions', async (t) => {
  const keys = [10n, 9n, 1n << 80n, 0n].map(positionKey);
  t.same([...keys].sort(), [0n, 9n, 10n, 1n << 80n].map(positionKey));
});
