import t from 'tap';
import { type Decider, DomainError, conflict } from '@comanda/domain';
import { CommandHandler, MemoryEventStore, StreamContended, WrongExpectedRevision } from '../src/index.js';

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

t.test('pipelined: queued commands are handed to the store before the first append resolves', async (t) => {
  const store = new MemoryEventStore();
  let inFlight = 0;
  let maxInFlight = 0;
  const append = store.append.bind(store);
  store.append = async (...args) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const result = await append(...args);
      await new Promise((r) => setTimeout(r, 5)); // a slow fsync
      return result;
    } finally {
      inFlight--;
    }
  };
  const handler = new CommandHandler(store);
  await handler.handle(tab, 'tab-1', { type: 'open', tab: 'T1' });
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => handler.handle(tab, 'tab-1', { type: 'add', cents: i + 1 })));
  t.ok(maxInFlight > 1, `appends overlapped (${maxInFlight} in flight at once)`);
  t.same(results.map((r) => r.revision), Array.from({ length: 20 }, (_, i) => i + 1), 'each decided on the state the previous one produced');
  t.same((await store.readStream('tab-1')).map((e) => e.revision), Array.from({ length: 21 }, (_, i) => i));
});

t.test('pipelined: when an append ahead fails, the command that decided on it decides again on what was written', async (t) => {
  const store = new MemoryEventStore();
  const append = store.append.bind(store);
  let failNext = true;
  store.append = async (...args) => {
    if (failNext) {
      failNext = false;
      await new Promise((r) => setTimeout(r, 5));
      throw new Error('disk full');
    }
    return append(...args);
  };
  const handler = new CommandHandler(store);
  const [opened, added] = await Promise.allSettled([
    handler.handle(tab, 'tab-1', { type: 'open', tab: 'T1' }),
    handler.handle(tab, 'tab-1', { type: 'add', cents: 5 }), // decided on "open", which never happened
  ]);
  t.match(opened, { status: 'rejected', reason: { message: 'disk full' } });
  t.match(added, { status: 'rejected', reason: { kind: 'conflict', message: 'Tab is not open' } });
  t.same(await store.readStream('tab-1'), [], 'nothing written');
  t.same((await handler.state(tab, 'tab-1')).state, { open: false, lines: [] }, 'no speculative state left behind');
});

t.test('pipelined: a retry with the same Idempotency-Key waits for the first and replays it', async (t) => {
  const store = new MemoryEventStore();
  const handler = new CommandHandler(store);
  await handler.handle(tab, 'tab-1', { type: 'open', tab: 'T1' });
  const idempotency = { key: 'k1', fingerprint: 'f1' };
  const [first, retry] = await Promise.all([
    handler.handle(tab, 'tab-1', { type: 'add', cents: 5 }, { idempotency }),
    handler.handle(tab, 'tab-1', { type: 'add', cents: 5 }, { idempotency }),
  ]);
  t.equal(first.replayed, false);
  t.equal(retry.replayed, true);
  t.equal((await store.readStream('tab-1')).length, 2, 'one line added');
});

t.test('a stream contended by other writers past every retry fails with StreamContended, writing nothing', async (t) => {
  const store = new MemoryEventStore();
  store.append = async (stream) => {
    throw new WrongExpectedRevision(stream, 'no_stream', 0);
  };
  const handler = new CommandHandler(store);
  await t.rejects(handler.handle(tab, 'tab-1', { type: 'open', tab: 'T1' }), StreamContended);
});

t.test('currentState: the cached fold without a wait, only while nothing can be newer', async (t) => {
  const store = new MemoryEventStore();
  const handler = new CommandHandler(store);
  t.equal(handler.currentState(tab, 'tab-c'), undefined, 'never folded: the caller must read');
  await handler.handle(tab, 'tab-c', { type: 'open', tab: 'C' });
  await new Promise((r) => setImmediate(r));
  t.same(handler.currentState(tab, 'tab-c'), { state: { open: true, lines: [] }, revision: 0 });
  const adding = handler.handle(tab, 'tab-c', { type: 'add', cents: 100 });
  t.equal(handler.currentState(tab, 'tab-c'), undefined, 'a command queued on the stream: its state may be speculative');
  await adding;
  await new Promise((r) => setImmediate(r));
  t.same(handler.currentState(tab, 'tab-c'), { state: { open: true, lines: [100] }, revision: 1 }, 'the write is seen at once');
  await store.append('tab-c', [{ id: 'x1', type: 'LineAdded', data: { cents: 5 }, metadata: {} }], 1);
  t.equal(handler.currentState(tab, 'tab-c'), undefined, 'an append the handler did not make: read it');
  t.same((await handler.state(tab, 'tab-c')).state.lines, [100, 5]);
  t.same(handler.currentState(tab, 'tab-c')?.revision, 2);

  const opaque = new CommandHandler({ ...store, readStream: store.readStream.bind(store), append: store.append.bind(store), knownToEndAt: undefined } as unknown as MemoryEventStore);
  await opaque.state(tab, 'tab-c');
  t.equal(opaque.currentState(tab, 'tab-c'), undefined, 'a store that cannot tell (other processes write it): always read');
});

/** One replica's way to the shared log: each of its appends reaches the database `ms` later. */
function replica(store: MemoryEventStore, ms: number): MemoryEventStore {
  const far = Object.create(store) as MemoryEventStore;
  far.append = async (...args) => {
    await new Promise((r) => setTimeout(r, ms));
    return store.append(...args);
  };
  return far;
}

/**
 * Issue 43's stuck tables. Two replicas write one stream; replica A pipelines two commands. A's first
 * append loses to B's, and A's second (expecting the revision after the first) finds B's event in that
 * place and lands on top of it, decided on a state holding A's failed event and not B's. A's cache then
 * kept that state for good: on the floor, a table released in it that nobody released in the log, so
 * the order's real release was decided as a no-op. A log that other processes write must never take
 * an append decided on a state that did not happen.
 */
t.test('two replicas on one stream: no command lands on a state that never was (pipelining only for a sole writer)', async (t) => {
  const store = new MemoryEventStore({ soleWriter: false });
  const a = new CommandHandler(replica(store, 10));
  const b = new CommandHandler(store);
  await a.handle(tab, 'tab-1', { type: 'open', tab: 'T1' });
  const first = a.handle(tab, 'tab-1', { type: 'add', cents: 1 });
  const second = a.handle(tab, 'tab-1', { type: 'add', cents: 2 });
  await new Promise((r) => setTimeout(r, 1));
  await b.handle(tab, 'tab-1', { type: 'add', cents: 100 }); // reaches the database before A's first append
  await Promise.all([first, second]);
  const written = (await store.readStream('tab-1')).slice(1).map((e) => (e.data as { cents: number }).cents);
  t.same([...written].sort((x, y) => x - y), [1, 2, 100], 'every line landed once');
  t.same((await a.state(tab, 'tab-1')).state.lines, written, "replica A's fold is the log's, not one with a line where B's is");
});

t.test('two replicas: after a conflict a command reads only the events it has not seen, not the whole stream', async (t) => {
  const store = new MemoryEventStore({ soleWriter: false });
  const reads: number[] = [];
  const a = new CommandHandler(Object.assign(Object.create(store) as MemoryEventStore, {
    readStream: async (stream: string, from = 0) => {
      reads.push(from);
      return store.readStream(stream, from);
    },
    append: async (...args: Parameters<MemoryEventStore['append']>) => {
      await new Promise((r) => setTimeout(r, 5));
      return store.append(...args);
    },
  }));
  const b = new CommandHandler(store);
  await a.handle(tab, 'tab-1', { type: 'open', tab: 'T1' });
  for (let i = 0; i < 10; i++) await a.handle(tab, 'tab-1', { type: 'add', cents: i });
  reads.length = 0;
  const adding = a.handle(tab, 'tab-1', { type: 'add', cents: 99 });
  await new Promise((r) => setTimeout(r, 1));
  await b.handle(tab, 'tab-1', { type: 'add', cents: 100 }); // takes the revision A expected
  await adding;
  t.same(reads, [11, 11], 'the news before deciding, then only the news after the conflict (B\'s line), not the stream from 0');
  t.same((await a.state(tab, 'tab-1')).state.lines, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 99]);
});

/** A second view of tab streams: another state, another fold. Issue 58: the cache was keyed by stream alone. */
const total: Decider<never, Event, { cents: number; events: number }> = {
  initialState: () => ({ cents: 0, events: 0 }),
  decide: () => [],
  evolve: (state, event) => ({ cents: state.cents + (event.type === 'LineAdded' ? event.data.cents : 0), events: state.events + 1 }),
};

t.test('two deciders on one stream: each folds its own state from its own initial state, never the other one\'s', async (t) => {
  const store = new MemoryEventStore();
  const handler = new CommandHandler(store);
  await handler.handle(tab, 'tab-1', { type: 'open', tab: 'T1' });
  await handler.handle(tab, 'tab-1', { type: 'add', cents: 300 });
  t.same((await handler.state(total, 'tab-1')).state, { cents: 300, events: 2 }, 'the second decider does not start from the first one\'s fold');
  await handler.handle(tab, 'tab-1', { type: 'add', cents: 50 });
  t.same((await handler.state(total, 'tab-1')).state, { cents: 350, events: 3 }, 'nor catch up on top of it');
  t.same((await handler.state(tab, 'tab-1')).state, { open: true, lines: [300, 50] }, 'and the first keeps its own');
  await new Promise((r) => setImmediate(r));
  t.same(handler.currentState(total, 'tab-1'), { state: { cents: 350, events: 3 }, revision: 2 });
  t.same(handler.currentState(tab, 'tab-1'), { state: { open: true, lines: [300, 50] }, revision: 2 });
});
