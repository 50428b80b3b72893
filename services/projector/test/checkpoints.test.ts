import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { postgresAvailable, sharedPostgres } from '@comanda/postgres';
import { MemoryReadStore, PostgresReadStore } from '@comanda/read-store';
import { type CheckpointStore, FileCheckpoint, readStoreCheckpoint } from '../src/index.js';

/** The CheckpointStore contract: what the relay and the reactor rely on, against every adapter. */
function checkpointContract(name: string, open: () => Promise<{ a: CheckpointStore; reopen: () => CheckpointStore; close(): Promise<void> }>) {
  t.test(`CheckpointStore contract: ${name}`, async (t) => {
    const { a, reopen, close } = await open();
    t.teardown(close);
    t.equal(await a.get(), null, 'a fresh checkpoint is empty');
    await a.set(5n);
    await a.set((1n << 70n) + 1n);
    await a.flush();
    t.equal(await reopen().get(), (1n << 70n) + 1n, 'the last position set survives a restart, exactly');
    await a.set(9n);
    await a.flush();
    t.equal(await a.get(), 9n);
    t.equal(await reopen().get(), 9n);
  });
}

const dir = mkdtempSync(join(tmpdir(), 'comanda-cp-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

checkpointContract('file', async () => {
  const file = join(dir, `${randomUUID()}.checkpoint`);
  return { a: new FileCheckpoint(file, 5), reopen: () => new FileCheckpoint(file), close: async () => {} };
});

checkpointContract('memory read store', async () => {
  const rs = new MemoryReadStore();
  return { a: readStoreCheckpoint(rs, 'relay'), reopen: () => readStoreCheckpoint(rs, 'relay'), close: () => rs.close() };
});

if (postgresAvailable() || process.env.COMANDA_TEST_POSTGRES_URL) {
  checkpointContract('postgresql read store', async () => {
    const { url } = await sharedPostgres();
    const name = `relay_${randomUUID().slice(0, 8)}`;
    const first = PostgresReadStore.open(url);
    const second = PostgresReadStore.open(url);
    return {
      a: readStoreCheckpoint(first, name),
      reopen: () => readStoreCheckpoint(second, name),
      close: async () => {
        await first.close();
        await second.close();
      },
    };
  });
} else {
  t.fail('PostgreSQL is not installed (apt-get install postgresql): its checkpoint contract must run');
}
