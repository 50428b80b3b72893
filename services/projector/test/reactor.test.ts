import t from 'tap';
import pino from 'pino';
import { MemoryEventStore } from '@comanda/event-store';
import { type CheckpointStore, Reactor, recentOnFirstRun } from '../src/index.js';

/** Issue 18, item 6: a reaction that has not succeeded is never checkpointed, stop or not. */

const memoryCheckpoint = () => {
  const c = { position: null as bigint | null, get: async () => c.position, set: async (x: bigint) => void (c.position = x), flush: async () => {} };
  return c satisfies CheckpointStore;
};
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
};

t.test('stop during retries of an always-failing reaction leaves the checkpoint before that event', async (t) => {
  const store = new MemoryEventStore();
  await store.append('s-1', [{ id: crypto.randomUUID(), type: 'Fine', data: {}, metadata: {} }], 'no_stream');
  await store.append('s-2', [{ id: crypto.randomUUID(), type: 'Poison', data: {}, metadata: {} }], 'no_stream');
  await store.append('s-3', [{ id: crypto.randomUUID(), type: 'Fine', data: {}, metadata: {} }], 'no_stream');
  const checkpoint = memoryCheckpoint();
  const seen: string[] = [];
  let attempts = 0;
  const reactor = new Reactor(store, checkpoint, [{
    name: 'always-throws-on-poison', handles: ['Fine', 'Poison'],
    react: async (e) => {
      if (e.type === 'Poison') {
        attempts++;
        throw new Error('cannot react');
      }
      seen.push(e.stream);
    },
  }], pino({ level: 'silent' }));
  await reactor.start();
  await until(() => attempts >= 3);
  const started = Date.now();
  await reactor.stop();
  t.ok(Date.now() - started < 2_000, 'stop does not wait out the backoff');
  t.ok(attempts >= 3, 'the failing reaction was retried');
  t.same(seen, ['s-1'], 'the event after the poison was never reached');
  t.equal(checkpoint.position, 1n, 'checkpointed up to the last event that succeeded, not past the failing one');

  // The next start delivers the failing event again.
  const again: string[] = [];
  const next = new Reactor(store, checkpoint, [{ name: 'fixed', handles: ['Fine', 'Poison'], react: async (e) => void again.push(e.stream) }], pino({ level: 'silent' }));
  await next.start();
  await until(() => again.length >= 2);
  await next.stop();
  t.same(again, ['s-2', 's-3'], 'the unhandled event is delivered again after a restart');
  t.equal(checkpoint.position, 3n);
});

t.test('a reactor with no checkpoint on a long log (a restored data dir) reacts to recent events only', async (t) => {
  const store = new MemoryEventStore();
  for (let i = 0; i < 30; i++) await store.append(`s-${i}`, [{ id: crypto.randomUUID(), type: 'Fine', data: {}, metadata: {} }], 'no_stream');
  const seen: string[] = [];
  const checkpoint = memoryCheckpoint();
  const reactor = new Reactor(store, recentOnFirstRun(checkpoint, store, 5), [{ name: 'r', handles: ['Fine'], react: async (e) => void seen.push(e.stream) }], pino({ level: 'silent' }));
  await reactor.start();
  await until(() => seen.length >= 5);
  await reactor.stop();
  t.same(seen, ['s-25', 's-26', 's-27', 's-28', 's-29']);
  t.equal(checkpoint.position, 30n, 'then it keeps its own checkpoint');
  const short = new MemoryEventStore();
  await short.append('s-0', [{ id: crypto.randomUUID(), type: 'Fine', data: {}, metadata: {} }], 'no_stream');
  t.equal(await recentOnFirstRun(memoryCheckpoint(), short, 5).get(), null, 'a short log is reacted to from its start');
  checkpoint.position = 3n;
  t.equal(await recentOnFirstRun(checkpoint, store, 5).get(), 3n, 'a checkpoint, once written, wins');
});

t.test('a delayed reaction is scheduled: the reactions after it run meanwhile, and the checkpoint waits for it', async (t) => {
  const store = new MemoryEventStore();
  const checkpoint = memoryCheckpoint();
  const ran: Array<{ type: string; at: number }> = [];
  const started = Date.now();
  const reactions = (delay: number) => [
    {
      name: 'grace', handles: ['Seated'],
      delayMs: () => delay,
      react: async () => void ran.push({ type: 'Seated', at: Date.now() - started }),
    },
    { name: 'prompt', handles: ['Fired'], react: async () => void ran.push({ type: 'Fired', at: Date.now() - started }) },
  ];
  const reactor = new Reactor(store, checkpoint, reactions(60_000), pino({ level: 'silent' }));
  await reactor.start();
  await store.append('floor', [{ id: crypto.randomUUID(), type: 'Seated', data: {}, metadata: {} }], 'any');
  for (let i = 0; i < 3; i++) await store.append(`order-${i}`, [{ id: crypto.randomUUID(), type: 'Fired', data: {}, metadata: {} }], 'no_stream');
  await until(() => ran.length >= 3);
  t.same(ran.map((r) => r.type), ['Fired', 'Fired', 'Fired'], 'the reactions after the delayed one ran without waiting for it');
  t.ok(ran.every((r) => r.at < 2_000), 'promptly (not after the 60 s delay)');
  t.equal(reactor.scheduled, 1, 'the delayed reaction waits in the due-time queue');
  t.equal(checkpoint.position, null, 'the checkpoint stays before the event whose reaction has not run');
  await reactor.stop();

  // A restart derives the pending work from the log: the event is delivered again and, now due, runs.
  ran.length = 0;
  const next = new Reactor(store, checkpoint, reactions(0), pino({ level: 'silent' }));
  await next.start();
  await until(() => checkpoint.position === 4n);
  await next.stop();
  t.same(ran.map((r) => r.type).sort(), ['Fired', 'Fired', 'Fired', 'Seated'], 'the delayed reaction ran after the restart (the others again, idempotent)');
});

t.test('a scheduled reaction completing moves the checkpoint past every event handled meanwhile', async (t) => {
  const store = new MemoryEventStore();
  const checkpoint = memoryCheckpoint();
  let prompt = 0;
  let graced = 0;
  const reactor = new Reactor(store, checkpoint, [
    { name: 'grace', handles: ['Seated'], delayMs: () => 150, react: async () => void graced++ },
    { name: 'prompt', handles: ['Fired'], react: async () => void prompt++ },
  ], pino({ level: 'silent' }));
  await reactor.start();
  t.teardown(() => reactor.stop());
  await store.append('floor', [{ id: crypto.randomUUID(), type: 'Seated', data: {}, metadata: {} }], 'any');
  await store.append('order-1', [{ id: crypto.randomUUID(), type: 'Fired', data: {}, metadata: {} }], 'no_stream');
  await until(() => prompt === 1);
  t.equal(checkpoint.position, null, 'held before the seat while its grace runs');
  await until(() => graced === 1 && checkpoint.position === 2n);
  t.equal(checkpoint.position, 2n, 'then past both events at once');
});

t.test('the reactor reports how far its immediate reactions are done, the log head covering what they appended first', async (t) => {
  const { MemoryReadStore } = await import('@comanda/read-store');
  const { REACTIONS_APPENDED, REACTIONS_THROUGH } = await import('@comanda/runtime');
  const { reactionProgress } = await import('../src/index.js');
  const store = new MemoryEventStore();
  const readStore = new MemoryReadStore();
  const written: string[] = [];
  const setCheckpoint = readStore.setCheckpoint.bind(readStore);
  readStore.setCheckpoint = async (name, position) => (written.push(name), setCheckpoint(name, position));
  const reactor = new Reactor(store, memoryCheckpoint(), [{
    name: 'echo', handles: ['Asked'],
    react: async (e) => void (await store.append(`answer-${e.stream}`, [{ id: crypto.randomUUID(), type: 'Answered', data: {}, metadata: {} }], 'any')),
  }], pino({ level: 'silent' }), 'reactor', reactionProgress(store, readStore));
  await reactor.start();
  const asked = await store.append('q-1', [{ id: crypto.randomUUID(), type: 'Asked', data: {}, metadata: {} }], 'no_stream');
  for (let i = 0; i < 400 && ((await readStore.getCheckpoint(REACTIONS_THROUGH)) ?? 0n) < asked.position; i++) await new Promise((r) => setTimeout(r, 10));
  t.ok(((await readStore.getCheckpoint(REACTIONS_THROUGH)) ?? 0n) >= asked.position, 'through the write');
  t.ok(((await readStore.getCheckpoint(REACTIONS_APPENDED)) ?? 0n) > asked.position, 'the head after the reaction\'s own append');
  t.equal(written.indexOf(REACTIONS_APPENDED) < written.indexOf(REACTIONS_THROUGH), true, 'appended written before through');
  await reactor.stop();
});

t.test('the reactor\'s progress reads the log head once per batch for this process and the replicas alike', async (t) => {
  const { MemoryReadStore } = await import('@comanda/read-store');
  const { LocalProgress, REACTIONS_APPENDED, REACTIONS_THROUGH } = await import('@comanda/runtime');
  const { reactionProgress } = await import('../src/index.js');
  const store = new MemoryEventStore();
  const readStore = new MemoryReadStore();
  const local = new LocalProgress();
  t.teardown(() => local.close());
  const asked = await store.append('q-1', [{ id: crypto.randomUUID(), type: 'Asked', data: {}, metadata: {} }], 'no_stream');
  await store.append('answer-q-1', [{ id: crypto.randomUUID(), type: 'Answered', data: {}, metadata: {} }], 'no_stream');
  let heads = 0;
  const headPosition = store.headPosition.bind(store);
  store.headPosition = async () => (heads++, headPosition());
  await reactionProgress(store, readStore, local).report(asked.position);
  t.equal(heads, 1, 'one head read (on PostgreSQL, one statement) for both');
  const head = await headPosition();
  t.equal(await readStore.getCheckpoint(REACTIONS_APPENDED), head, 'the replicas see the head');
  t.equal(await readStore.getCheckpoint(REACTIONS_THROUGH), asked.position);
  t.equal(await local.position(REACTIONS_APPENDED), head, 'and so does this process');
  t.equal(await local.position(REACTIONS_THROUGH), asked.position);
});

t.test('a reactor that cannot report its progress goes on reacting', async (t) => {
  const store = new MemoryEventStore();
  const seen: string[] = [];
  const checkpoint = memoryCheckpoint();
  const reactor = new Reactor(store, checkpoint, [{ name: 'r', handles: ['Fine'], react: async (e) => void seen.push(e.stream) }], pino({ level: 'silent' }), 'reactor', {
    report: async () => {
      throw new Error('read store away');
    },
  });
  await reactor.start();
  await store.append('s-1', [{ id: crypto.randomUUID(), type: 'Fine', data: {}, metadata: {} }], 'no_stream');
  await store.append('s-2', [{ id: crypto.randomUUID(), type: 'Fine', data: {}, metadata: {} }], 'no_stream');
  await until(() => seen.length === 2);
  t.same(seen, ['s-1', 's-2']);
  await reactor.stop();
});
