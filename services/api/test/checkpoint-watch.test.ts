import t from 'tap';
import { postgresAvailable, sharedPostgres } from '@comanda/postgres';
import { MemoryReadStore, type ReadStore } from '@comanda/read-store';
import { PostgresReadStore } from '@comanda/read-store/postgres';
import { randomUUID } from 'node:crypto';
import { REACTIONS_THROUGH } from '@comanda/runtime';
import { CheckpointWatch } from '../src/checkpoint-watch.js';

/** A read store that counts its checkpoint reads (the watch is meant to make none per request). */
const counted = (store: Pick<ReadStore, 'getCheckpoint' | 'watchCheckpoints'>) => {
  const counter = { reads: 0 };
  const view: Pick<ReadStore, 'getCheckpoint' | 'watchCheckpoints'> = {
    getCheckpoint: (name) => {
      counter.reads++;
      return store.getCheckpoint(name);
    },
    ...(store.watchCheckpoints ? { watchCheckpoints: store.watchCheckpoints.bind(store) } : {}),
  };
  return { view, counter };
};

t.test('without announcements (MongoDB, memory), waiters poll: one read of each name serves them all', async (t) => {
  const store = new MemoryReadStore();
  const { view, counter } = counted(store);
  const watch = new CheckpointWatch(view, ['projector'], { unannounced: 5, announced: 250 });
  t.teardown(() => watch.close());
  const waiting = Array.from({ length: 20 }, () => watch.waitFor('projector', 10n, 5000));
  await new Promise((r) => setTimeout(r, 30));
  await store.setCheckpoint('projector', 12n);
  t.same(await Promise.all(waiting), Array(20).fill(true), 'every waiter released');
  t.ok(counter.reads < 40, `${counter.reads} reads for 20 waiters over their wait`);
  t.equal(await watch.waitFor('projector', 13n, 30), false, 'a checkpoint that never comes: false at the deadline');
});

t.test('announcements count only once the checkpoints were read since LISTEN began: a failed read leaves the waiters polling', async (t) => {
  const store = new MemoryReadStore();
  let failing = true;
  let listening!: (on: boolean) => void;
  const view: Pick<ReadStore, 'getCheckpoint' | 'watchCheckpoints'> = {
    getCheckpoint: async (name) => {
      if (failing) throw new Error('read store unreachable');
      return store.getCheckpoint(name);
    },
    watchCheckpoints: (_seen, on) => {
      listening = on;
      return { close: async () => {} };
    },
  };
  const watch = new CheckpointWatch(view, ['projector'], { unannounced: 5, announced: 60_000 });
  t.teardown(() => watch.close());
  listening(true);
  await new Promise((r) => setTimeout(r, 20));
  t.notOk(watch.announcing, 'the read after LISTEN failed: not yet');
  failing = false;
  await store.setCheckpoint('projector', 4n);
  t.equal(await watch.waitFor('projector', 4n, 5000), true, 'a waiter polls (every 5 ms, not every minute) and is released');
  t.ok(watch.announcing, 'the poll read everything: announcements count from here');
  listening(false);
  t.notOk(watch.announcing, 'and stop counting when LISTEN is lost');
});

t.test('once announcements count, a read begun before LISTEN reads no further: no read follows', async (t) => {
  // The PostgreSQL test below once saw a read after `announcing` on a loaded machine: the watch's first
  // read, begun before LISTEN and reading one name at a time, was still going when the read begun after
  // LISTEN had read every name and made announcements count; the first read's last names came after.
  const store = new MemoryReadStore();
  await store.setCheckpoint('projector', 3n);
  let held: PromiseWithResolvers<void> | undefined = Promise.withResolvers<void>();
  const calls: string[] = [];
  let listening!: (on: boolean) => void;
  const view: Pick<ReadStore, 'getCheckpoint' | 'watchCheckpoints'> = {
    getCheckpoint: async (name) => {
      calls.push(name);
      const wait = held?.promise;
      if (wait) await wait;
      return store.getCheckpoint(name);
    },
    watchCheckpoints: (_seen, on) => {
      listening = on;
      return { close: async () => {} };
    },
  };
  const watch = new CheckpointWatch(view, [REACTIONS_THROUGH, 'projector'], { unannounced: 5, announced: 60_000 });
  t.teardown(() => watch.close());
  t.same(calls, [REACTIONS_THROUGH], 'the first read has begun, and waits on the store');
  const slow = held;
  held = undefined;
  listening(true);
  while (!watch.announcing) await new Promise((r) => setImmediate(r));
  t.same(calls, [REACTIONS_THROUGH, REACTIONS_THROUGH, 'projector'], 'the read LISTEN asked for read every name: announcements count');
  const reads = calls.length;
  slow.resolve();
  t.equal(await watch.waitFor('projector', 3n, 5000), true);
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  t.equal(calls.length, reads, 'the first read, done with its name in hand, read no other');
});

t.test('a waiter\'s deadline is kept when the poll interval is longer: false at the bound, not at the next poll', async (t) => {
  const watch = new CheckpointWatch(new MemoryReadStore(), ['projector'], { unannounced: 3_600_000, announced: 3_600_000 });
  t.teardown(() => watch.close());
  const never = watch.waitFor('projector', 1n, 3_600_000);
  t.equal(await watch.waitFor('projector', 1n, 30), false, 'a later waiter with a nearer bound brings the timer forward');
  let settled = false;
  void never.then(() => (settled = true));
  await new Promise((r) => setTimeout(r, 20));
  t.notOk(settled, 'the first waiter still waits for its own bound');
});

t.test('announced, a waiter is released by the announcement though no poll comes for an hour (fails with a polling gate)', async (t) => {
  const store = new MemoryReadStore();
  let seen!: (checkpoints: ReadonlyMap<string, bigint>) => void;
  let listening!: (on: boolean) => void;
  const view: Pick<ReadStore, 'getCheckpoint' | 'watchCheckpoints'> = {
    getCheckpoint: (name) => store.getCheckpoint(name),
    watchCheckpoints: (s, on) => {
      [seen, listening] = [s, on];
      return { close: async () => {} };
    },
  };
  const watch = new CheckpointWatch(view, ['projector'], { unannounced: 3_600_000, announced: 3_600_000 });
  t.teardown(() => watch.close());
  listening(true);
  while (!watch.announcing) await new Promise((r) => setImmediate(r));
  const released = watch.waitFor('projector', 7n, 3_600_000);
  await store.setCheckpoint('projector', 7n);
  seen(new Map([['projector', 7n]]));
  t.equal(await released, true, 'released by the announcement');
});

if (!postgresAvailable() && !process.env.COMANDA_TEST_POSTGRES_URL) {
  t.fail('PostgreSQL is not installed (apt-get install postgresql, or set COMANDA_TEST_POSTGRES_URL)');
} else {
  t.test('with PostgreSQL\'s announcements, a waiter is released by the commit itself: no read per request', async (t) => {
    const { url } = await sharedPostgres();
    const projector = PostgresReadStore.open(url);
    const replica = PostgresReadStore.open(url);
    const tag = randomUUID().slice(0, 6);
    const [through, appended, models] = [`through_${tag}`, `appended_${tag}`, `projector_${tag}`];
    await projector.setCheckpoints([[appended, 1n], [through, 1n], [models, 1n]]);
    const { view, counter } = counted(replica);
    // A safety-net poll of a minute: whatever releases the waiters below is an announcement.
    const watch = new CheckpointWatch(view, [through, appended, models], { unannounced: 5, announced: 60_000 });
    t.teardown(async () => {
      await watch.close();
      await projector.close();
      await replica.close();
    });
    const deadline = Date.now() + 5000;
    while (!watch.announcing && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    t.ok(watch.announcing, 'listening, and read once since');
    const reads = counter.reads;
    const released = Promise.all([watch.waitFor(through, 5n, 5000), watch.waitFor(models, 9n, 5000)]);
    await projector.setCheckpoints([[appended, 9n], [through, 5n]]);
    await projector.transaction(async (tx) => tx.setCheckpoint(models, 9n));
    t.same(await released, [true, true], 'both waiters released');
    t.equal(await watch.position(appended), 9n, 'a name written with another is current when that one is seen');
    t.equal(counter.reads, reads, 'no checkpoint read while announcements flow');
  });
}
