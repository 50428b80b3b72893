import t from 'tap';
import { type Decider, DomainError, conflict } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '../src/index.js';

type Event = { type: 'TabOpened'; data: { tab: string } } | { type: 'LineAdded'; data: { cents: number } };
type Command = { type: 'open'; tab: string } | { type: 'add'; cents: number };
type State = { open: boolean; lines: number[] };

const tab: Decider<Command, Event, State> = {
  initialState: () => ({ open: false, lines: [] }),
  decide(command, state) {
    if (command.type === 'open') return state.open ? [] : [{ type: 'TabOpened', data: { tab: command.tab } }];
    if (!state.open) throw conflict('Tab is not open');
    return [{ type: 'LineAdded', data: { cents: command.cents } }];
  },
  evolve(state, event) {
    return event.type === 'TabOpened' ? { ...state, open: true } : { ...state, lines: [...state.lines, event.data.cents] };
  },
};

t.test('decides, appends and returns the position; a no-op appends nothing', async (t) => {
  const store = new MemoryEventStore();
  const handler = new CommandHandler(store);
  const opened = await handler.handle(tab, 'tab-1', { type: 'open', tab: 'T1' }, { userId: 'u1', correlationId: 'c1' });
  t.equal(opened.revision, 0);
  t.ok(opened.position !== null);
  const again = await handler.handle(tab, 'tab-1', { type: 'open', tab: 'T1' });
  t.same([again.events, again.position], [[], null]);
  const [e] = await store.readStream('tab-1');
  t.match(e!.metadata, { userId: 'u1', correlationId: 'c1', schemaVersion: 1, occurredAt: Number });
  await t.rejects(handler.handle(tab, 'tab-2', { type: 'add', cents: 1 }), DomainError);
});

t.test('fifty concurrent commands on one stream all land (retry on conflict)', async (t) => {
  const store = new MemoryEventStore();
  // Several handlers, as several API replicas would be, each with its own cache.
  const handlers = [new CommandHandler(store), new CommandHandler(store), new CommandHandler(store)];
  await handlers[0]!.handle(tab, 'tab-1', { type: 'open', tab: 'T1' });
  await Promise.all(Array.from({ length: 50 }, (_, i) => handlers[i % 3]!.handle(tab, 'tab-1', { type: 'add', cents: i + 1 })));
  const { state } = await new CommandHandler(store).state(tab, 'tab-1');
  t.equal(state.lines.length, 50);
  t.equal(state.lines.reduce((a, b) => a + b, 0), (50 * 51) / 2);
});

t.test('a pinned revision (If-Match) turns a mismatch into 412', async (t) => {
  const store = new MemoryEventStore();
  const handler = new CommandHandler(store);
  await handler.handle(tab, 'tab-1', { type: 'open', tab: 'T1' });
  await handler.handle(tab, 'tab-1', { type: 'add', cents: 5 }, { expectedRevision: 0 });
  await t.rejects(handler.handle(tab, 'tab-1', { type: 'add', cents: 5 }, { expectedRevision: 0 }), { kind: 'precondition' });
});

t.test('an Idempotency-Key replays the first result and writes nothing more', async (t) => {
  const store = new MemoryEventStore();
  const handler = new CommandHandler(store);
  await handler.handle(tab, 'tab-1', { type: 'open', tab: 'T1' });
  const idempotency = { key: 'u1:k1', fingerprint: 'f1' };
  const first = await handler.handle(tab, 'tab-1', { type: 'add', cents: 700 }, { idempotency });
  const second = await handler.handle(tab, 'tab-1', { type: 'add', cents: 700 }, { idempotency });
  t.equal(second.replayed, true);
  t.same(second.events, first.events);
  t.equal(second.position, first.position);
  // A fresh handler (another replica, or after a restart) finds the key in the stream itself.
  const third = await new CommandHandler(store).handle(tab, 'tab-1', { type: 'add', cents: 700 }, { idempotency });
  t.equal(third.replayed, true);
  t.same(third.events, first.events);
  t.equal((await store.readStream('tab-1')).length, 2);
  await t.rejects(
    handler.handle(tab, 'tab-1', { type: 'add', cents: 1 }, { idempotency: { key: 'u1:k1', fingerprint: 'other' } }),
    { kind: 'conflict', details: { code: 'idempotency_key_reused' } },
  );
});

t.test('one process queues commands per stream: it never conflicts with itself, and a failure does not block the queue', async (t) => {
  const store = new MemoryEventStore();
  let conflicts = 0;
  const append = store.append.bind(store);
  store.append = async (...args) => {
    try {
      return await append(...args);
    } catch (error) {
      conflicts++;
      throw error;
    }
  };
  const handler = new CommandHandler(store);
  await handler.handle(tab, 'tab-1', { type: 'open', tab: 'T1' });
  const outcomes = await Promise.allSettled([
    ...Array.from({ length: 100 }, (_, i) => handler.handle(tab, 'tab-1', { type: 'add', cents: i + 1 })),
    handler.handle(tab, 'tab-2', { type: 'add', cents: 1 }), // another stream, refused: its own queue
  ]);
  t.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 100);
  t.equal(conflicts, 0, 'no optimistic-concurrency conflict inside one process');
  const { state } = await handler.state(tab, 'tab-1');
  t.equal(state.lines.length, 100);
  await t.rejects(handler.handle(tab, 'tab-3', { type: 'add', cents: 1 }), DomainError);
  t.equal((await handler.handle(tab, 'tab-3', { type: 'open', tab: 'T3' })).revision, 0, 'a stream whose last command failed takes the next');
});
