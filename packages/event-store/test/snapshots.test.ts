import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Decider } from '@comanda/domain';
import { CommandHandler, SqliteEventStore } from '../src/index.js';
import { SNAPSHOT_EVERY } from '../src/snapshots.js';

type Event = { type: 'Added'; data: { cents: number } };
type Command = { type: 'add'; cents: number };
type State = { lines: number; total: number };

const till = (version: number): Decider<Command, Event, State> => ({
  initialState: () => ({ lines: 0, total: 0 }),
  decide: (command) => [{ type: 'Added', data: { cents: command.cents } }],
  evolve: (state, event) => ({ lines: state.lines + 1, total: state.total + event.data.cents }),
  snapshot: { name: 'till', version },
});

/** Counts the events a handler reads back from the log. */
function counting(store: SqliteEventStore) {
  const counter = { read: 0 };
  const readStream = store.readStream.bind(store);
  store.readStream = async (...args) => {
    const events = await readStream(...args);
    counter.read += events.length;
    return events;
  };
  return counter;
}

t.test('after a restart a long stream is folded from its snapshot, with the same state and idempotency keys', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-snapshots-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'events.db');
  const n = SNAPSHOT_EVERY * 2 + 500;
  let store = new SqliteEventStore({ filename: file });
  let handler = new CommandHandler(store);
  await handler.handle(till(1), 'till', { type: 'add', cents: 7 }, { idempotency: { key: 'first', fingerprint: 'f' } });
  for (let i = 1; i < n; i += 100) await Promise.all(Array.from({ length: Math.min(100, n - i) }, () => handler.handle(till(1), 'till', { type: 'add', cents: 1 })));
  await store.close();

  store = new SqliteEventStore({ filename: file });
  const counter = counting(store);
  handler = new CommandHandler(store);
  const { state, revision } = await handler.state(till(1), 'till');
  t.same(state, { lines: n, total: 7 + n - 1 }, 'the same state as folding everything');
  t.equal(revision, n - 1);
  t.ok(counter.read < SNAPSHOT_EVERY, `read ${counter.read} events instead of ${n}`);
  const replay = await handler.handle(till(1), 'till', { type: 'add', cents: 7 }, { idempotency: { key: 'first', fingerprint: 'f' } });
  t.equal(replay.replayed, true, 'a key recorded before the snapshot is still recognised');
  await store.close();

  store = new SqliteEventStore({ filename: file });
  const again = counting(store);
  const changed = await new CommandHandler(store).state(till(2), 'till');
  t.same(changed.state, { lines: n, total: 7 + n - 1 }, 'a new schema version ignores the old snapshot');
  t.equal(again.read, n, 'and folds the whole stream once');
  await store.close();
});
