import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { MemoryEventStore, type RecordedEvent } from '@comanda/event-store';
import { postgresAvailable, sharedPostgres } from '@comanda/postgres';
import { MemoryReadStore } from '@comanda/read-store';
import { PostgresReadStore } from '@comanda/read-store/postgres';
import { type CheckpointStore, FileCheckpoint, SubscriptionRunner, coalescedReadStoreCheckpoint, readStoreCheckpoint } from '../src/index.js';

/**
 * One contract, run against every checkpoint store: what the store keeps, and the subscription
 * runner's promise on top of it: the checkpoint never moves past an event that was not handled,
 * whether the handler fails, the runner stops mid-batch, or the process restarts.
 */
type Opened = { a: CheckpointStore; reopen: () => CheckpointStore; close(): Promise<void> };

const silent = pino({ level: 'silent' });
const until = async (ok: () => boolean, what: string) => {
  const end = Date.now() + 5000;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};
const append = (store: MemoryEventStore, type: string) => store.append(`s-${randomUUID()}`, [{ id: randomUUID(), type, data: {}, metadata: {} }], 'no_stream');

function checkpointContract(name: string, open: () => Promise<Opened>) {
  const opened = async (t: Tap.Test) => {
    const o = await open();
    t.teardown(o.close);
    return o;
  };

  t.test(`CheckpointStore contract: ${name}`, async (t) => {
    const { a, reopen } = await opened(t);
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

  t.test(`runner over ${name}: a failing handler leaves the checkpoint before the failing event`, async (t) => {
    const { a, reopen } = await opened(t);
    const store = new MemoryEventStore();
    await append(store, 'Fine');
    await append(store, 'Fine');
    const seen: bigint[] = [];
    const runner = new SubscriptionRunner({
      name: 'contract', store, checkpoint: a, logger: silent, transactional: true,
      handle: async (events) => {
        for (const e of events) {
          if (e.type === 'Poison') throw new Error('cannot handle');
          seen.push(e.position);
        }
        return events[events.length - 1]!.position;
      },
    });
    await runner.start();
    await until(() => runner.position === 2n, 'the first two events');
    await append(store, 'Fine');
    await append(store, 'Poison');
    await append(store, 'Fine');
    await until(() => runner.state === 'failed', 'the runner to fail');
    await runner.stop();
    t.equal(runner.state, 'failed', 'a failure stays visible after stop');
    const kept = await reopen().get();
    t.ok(kept !== null && kept >= 2n && kept < 4n, `checkpointed before the failing event (${kept})`);

    const again: bigint[] = [];
    const next = new SubscriptionRunner({
      name: 'contract', store, checkpoint: reopen(), logger: silent,
      handle: async (events) => (again.push(...events.map((e) => e.position)), events[events.length - 1]!.position),
    });
    await next.start();
    await until(() => next.position === 5n, 'the rest after a restart');
    await next.stop();
    t.ok(again.includes(4n) && again.includes(5n), 'the failing event and the one after are delivered again');
    t.equal(await reopen().get(), 5n);
  });

  t.test(`runner over ${name}: stopping mid-batch checkpoints only what was handled`, async (t) => {
    const { a, reopen } = await opened(t);
    const store = new MemoryEventStore();
    for (let i = 0; i < 4; i++) await append(store, 'Slow');
    let handled: RecordedEvent | undefined;
    const runner = new SubscriptionRunner({
      name: 'contract', store, checkpoint: a, logger: silent,
      handle: async (events, { signal }) => {
        handled = events[0]!;
        // The second event never completes: it waits until the runner stops, and stops short.
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        return handled.position;
      },
    });
    await runner.start();
    await until(() => handled !== undefined, 'the first event');
    await runner.stop();
    t.equal(await reopen().get(), 1n, 'the checkpoint is the last handled event, not the batch');
    t.equal(runner.state, 'stopped');
  });

  t.test(`runner over ${name}: a first run at the head skips history; positions never move back`, async (t) => {
    const { a, reopen } = await opened(t);
    const store = new MemoryEventStore();
    await append(store, 'Old');
    const got: string[] = [];
    const runner = new SubscriptionRunner({
      name: 'contract', store, checkpoint: a, logger: silent, fresh: 'head',
      handle: async (events) => (got.push(...events.map((e) => e.type)), events[events.length - 1]!.position),
    });
    await runner.start();
    await append(store, 'New');
    await until(() => runner.position === 2n, 'the new event');
    await runner.advance(1n);
    t.equal(runner.position, 2n, 'advance never moves backwards');
    await runner.stop();
    t.same(got, ['New']);
    t.equal(await reopen().get(), 2n);
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
  // Two stores on one database: what one wrote, a restarted process reads.
  const postgresPair = (prefix: string, open: (store: PostgresReadStore, name: string) => CheckpointStore) => async (): Promise<Opened> => {
    const { url } = await sharedPostgres();
    const name = `${prefix}_${randomUUID().slice(0, 8)}`;
    const first = PostgresReadStore.open(url);
    const second = PostgresReadStore.open(url);
    return {
      a: open(first, name),
      reopen: () => readStoreCheckpoint(second, name),
      close: async () => {
        await first.close();
        await second.close();
      },
    };
  };
  checkpointContract('postgresql read store', postgresPair('relay', readStoreCheckpoint));
  // What rt.checkpoint gives relays and reactions on the distributed shape.
  checkpointContract('postgresql read store, coalesced', postgresPair('reactor', (store, name) => coalescedReadStoreCheckpoint(store, name, 5)));
} else {
  t.fail('PostgreSQL is not installed (apt-get install postgresql): its checkpoint contract must run');
}

t.test('file checkpoints are coalesced: many positions set, one write, the last one', async (t) => {
  const file = join(dir, `${randomUUID()}.checkpoint`);
  const checkpoint = new FileCheckpoint(file, 60_000);
  for (let p = 1n; p <= 100n; p++) await checkpoint.set(p);
  t.equal(await new FileCheckpoint(file).get(), null, 'nothing written within the interval');
  await checkpoint.flush();
  t.equal(await new FileCheckpoint(file).get(), 100n, 'flush writes the last position');
});

t.test('read-store checkpoints can be coalesced too: one write per interval, the newest, and a set during a write is not lost', async (t) => {
  const rs = new MemoryReadStore();
  const writes: bigint[] = [];
  let release!: () => void;
  const slow = { getCheckpoint: (n: string) => rs.getCheckpoint(n), setCheckpoint: async (n: string, p: bigint) => {
    writes.push(p);
    await new Promise<void>((r) => (release = r));
    await rs.setCheckpoint(n, p);
  } };
  const checkpoint = coalescedReadStoreCheckpoint(slow, 'relay', 60_000);
  for (let p = 1n; p <= 50n; p++) await checkpoint.set(p);
  t.same(writes, [], 'nothing written within the interval');
  t.equal(await checkpoint.get(), 50n, 'the position held back is the one read');
  const flushing = checkpoint.flush();
  await checkpoint.set(51n);
  release();
  await flushing;
  t.same(writes, [50n], 'one write: the newest position at the time');
  t.equal(await checkpoint.get(), 51n, 'the set made meanwhile is still held');
  const second = checkpoint.flush();
  release();
  await second;
  t.equal(await rs.getCheckpoint('relay'), 51n, 'and written by the next flush');
});
