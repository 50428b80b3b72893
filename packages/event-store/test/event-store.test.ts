import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { postgresAvailable, sharedPostgres } from '@comanda/postgres';
import { MemoryEventStore, SqliteEventStore } from '../src/index.js';
import { PostgresEventStore } from '../src/postgres.js';
import { EsdbEventStore } from '../src/esdb.js';
import { eventStoreContract } from './contract.js';

const dir = mkdtempSync(join(tmpdir(), 'comanda-es-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

eventStoreContract('memory', async () => new MemoryEventStore());
eventStoreContract('sqlite', async () => new SqliteEventStore({ filename: join(dir, 'events.db') }));
// A tiny in-memory window forces the disk path for catch-up reads.
eventStoreContract('sqlite (disk reads)', async () => new SqliteEventStore({ filename: join(dir, 'events2.db'), recentEvents: 1 }));

if (postgresAvailable() || process.env.COMANDA_TEST_POSTGRES_URL) {
  eventStoreContract('postgresql', async () => new PostgresEventStore((await sharedPostgres()).url));
} else {
  t.fail('PostgreSQL is not installed (apt-get install postgresql, or set COMANDA_TEST_POSTGRES_URL): its contract must run');
}

const esdb = process.env.COMANDA_TEST_ESDB_URL;
if (esdb) eventStoreContract('eventstoredb', async () => new EsdbEventStore(esdb));
else t.test('event store contract: eventstoredb', { skip: 'set COMANDA_TEST_ESDB_URL to run it against a real EventStoreDB server' }, () => {});

t.test('sqlite: the log survives reopening, positions continue', async (t) => {
  const file = join(dir, `reopen-${randomUUID()}.db`);
  const first = new SqliteEventStore({ filename: file });
  const a = await first.append('order-1', [{ id: randomUUID(), type: 'OrderPlaced', data: { x: 1 }, metadata: {} }], 'no_stream');
  await first.close();
  const second = new SqliteEventStore({ filename: file });
  t.teardown(() => second.close());
  t.same((await second.readStream('order-1')).map((e) => e.data), [{ x: 1 }]);
  const b = await second.append('order-1', [{ id: randomUUID(), type: 'Changed', data: {}, metadata: {} }], 0);
  t.ok(b.position > a.position);
});

t.test('sqlite: one failing append in a group commit does not fail its neighbours', async (t) => {
  const store = new SqliteEventStore({ filename: join(dir, `group-${randomUUID()}.db`) });
  t.teardown(() => store.close());
  const dup = randomUUID();
  const results = await Promise.allSettled([
    store.append('s-1', [{ id: randomUUID(), type: 'A', data: {}, metadata: {} }], 'no_stream'),
    store.append('s-2', [{ id: dup, type: 'B', data: {}, metadata: {} }, { id: dup, type: 'B', data: {}, metadata: {} }], 'no_stream'),
    store.append('s-3', [{ id: randomUUID(), type: 'C', data: {}, metadata: {} }], 'no_stream'),
  ]);
  t.same(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
  t.same(await store.readStream('s-2'), [], 'the failed append left nothing behind');
  const positions = [...(await store.readStream('s-1')), ...(await store.readStream('s-3'))].map((e) => e.position);
  t.same(positions, [1n, 2n], 'positions stay contiguous after a rolled-back savepoint');
});

t.test('a long catch-up leaves the event loop free between pages (requests, timers, health)', async (t) => {
  for (const [name, store] of [['memory', new MemoryEventStore()], ['sqlite', new SqliteEventStore({ filename: join(dir, 'catch-up.db'), recentEvents: 1 })]] as const) {
    for (let i = 0; i < 5; i++) {
      await store.append(`tab-${i}`, Array.from({ length: 1000 }, (_, n) => ({ id: randomUUID(), type: 'Noted', data: { n }, metadata: {} })), 'no_stream');
    }
    const pages: number[] = [];
    // Queued on the event loop before the catch-up starts: it runs at the first turn the catch-up
    // leaves (a timer would also need a millisecond to pass, which a fast page may not take).
    let queuedRanAtPage = -1;
    const queued = setImmediate(() => (queuedRanAtPage = pages.length));
    await new Promise<void>((resolve, reject) => {
      const sub = store.subscribeToAll(null, {
        onEvents: (events) => {
          pages.push(events.length);
          if (pages.reduce((a, b) => a + b, 0) === 5000) void sub.close().then(resolve);
        },
        onError: reject,
      });
    });
    clearImmediate(queued);
    t.ok(pages.length >= 3, `${name}: read in pages (${pages.join(', ')})`);
    t.ok(queuedRanAtPage > 0 && queuedRanAtPage < pages.length, `${name}: other work ran during the catch-up (after page ${queuedRanAtPage} of ${pages.length})`);
    await store.close();
  }
});
