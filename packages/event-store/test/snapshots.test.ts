import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Decider } from '@comanda/domain';
import { postgresAvailable, sharedPostgres } from '@comanda/postgres';
import { CommandHandler, type EventStore, SqliteEventStore } from '../src/index.js';
import { PostgresEventStore } from '../src/postgres.js';
import { SNAPSHOT_EVERY } from '../src/snapshots.js';

type Event = { type: 'Added'; data: { cents: number } };
type Command = { type: 'add'; cents: number };
type State = { lines: number; total: number };

/** One decider per schema version, made once: the handler caches folds by decider (and stream). */
const tills = new Map<number, Decider<Command, Event, State>>();
const till = (version: number): Decider<Command, Event, State> => {
  const made = tills.get(version) ?? {
    initialState: () => ({ lines: 0, total: 0 }),
    decide: (command) => [{ type: 'Added', data: { cents: command.cents } }],
    evolve: (state, event) => ({ lines: state.lines + 1, total: state.total + event.data.cents }),
    snapshot: { name: 'till', version },
  };
  tills.set(version, made);
  return made;
};

/** Counts the events a handler reads back from the log. */
function counting(store: EventStore) {
  const counter = { read: 0 };
  const readStream = store.readStream.bind(store);
  store.readStream = async (...args) => {
    const events = await readStream(...args);
    counter.read += events.length;
    return events;
  };
  return counter;
}

/** A store that keeps its log across `open()` calls: a restart is closing one and opening the next. */
interface Durable {
  name: string;
  open(): Promise<EventStore>;
}

function snapshotSuite({ name, open }: Durable): void {
  t.test(`${name}: after a restart a long stream is folded from its snapshot, with the same state and idempotency keys`, async (t) => {
    const stream = `till-${randomUUID()}`;
    const n = SNAPSHOT_EVERY * 2 + 500;
    let store = await open();
    let handler = new CommandHandler(store);
    await handler.handle(till(1), stream, { type: 'add', cents: 7 }, { idempotency: { key: 'first', fingerprint: 'f' } });
    for (let i = 1; i < n; i += 100) await Promise.all(Array.from({ length: Math.min(100, n - i) }, () => handler.handle(till(1), stream, { type: 'add', cents: 1 })));
    await store.close();

    store = await open();
    const counter = counting(store);
    handler = new CommandHandler(store);
    const { state, revision } = await handler.state(till(1), stream);
    t.same(state, { lines: n, total: 7 + n - 1 }, 'the same state as folding everything');
    t.equal(revision, n - 1);
    t.ok(counter.read < SNAPSHOT_EVERY, `read ${counter.read} events instead of ${n}`);
    const replay = await handler.handle(till(1), stream, { type: 'add', cents: 7 }, { idempotency: { key: 'first', fingerprint: 'f' } });
    t.equal(replay.replayed, true, 'a key recorded before the snapshot is still recognised');
    await store.close();

    store = await open();
    const again = counting(store);
    const changed = await new CommandHandler(store).state(till(2), stream);
    t.same(changed.state, { lines: n, total: 7 + n - 1 }, 'a new schema version ignores the old snapshot');
    t.equal(again.read, n, 'and folds the whole stream once');
    await store.close();
  });
}

const dir = mkdtempSync(join(tmpdir(), 'comanda-snapshots-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
snapshotSuite({ name: 'SQLite', open: async () => new SqliteEventStore({ filename: join(dir, 'events.db') }) });

if (!postgresAvailable() && !process.env.COMANDA_TEST_POSTGRES_URL) {
  t.fail('PostgreSQL is not installed (apt-get install postgresql, or set COMANDA_TEST_POSTGRES_URL)');
} else {
  const { url } = await sharedPostgres();
  snapshotSuite({ name: 'PostgreSQL', open: async () => new PostgresEventStore(url) });

  t.test('PostgreSQL: a replica writing an older snapshot late never replaces a newer one', async (t) => {
    const store = new PostgresEventStore(url);
    t.teardown(() => store.close());
    const stream = `till-${randomUUID()}`;
    await store.writeSnapshot(stream, { revision: 2000, schema: 'till@1', body: '"newer"' });
    await store.writeSnapshot(stream, { revision: 1000, schema: 'till@1', body: '"older"' });
    t.same(await store.readSnapshot(stream), { revision: 2000, schema: 'till@1', body: '"newer"' });
    await store.writeSnapshot(stream, { revision: 1000, schema: 'till@2', body: '"new schema"' });
    t.same(await store.readSnapshot(stream), { revision: 1000, schema: 'till@2', body: '"new schema"' }, 'a new schema replaces it');
    t.equal(await store.readSnapshot(`till-${randomUUID()}`), null);
  });
}
