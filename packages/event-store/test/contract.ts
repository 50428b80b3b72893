import t from 'tap';
import { randomUUID } from 'node:crypto';
import { type EventStore, type NewEvent, type Position, type RecordedEvent, WrongExpectedRevision } from '../src/index.js';

const ev = (type: string, data: unknown = {}): NewEvent => ({ id: randomUUID(), type, data, metadata: { schemaVersion: 1 } });

/** Resolves once `count` events after `after` were delivered; the subscription is then closed. */
function collect(store: EventStore, after: Position | null, count: number, filter: (e: RecordedEvent) => boolean) {
  const seen: RecordedEvent[] = [];
  return new Promise<RecordedEvent[]>((resolve, reject) => {
    const sub = store.subscribeToAll(after, {
      onEvents: (events) => {
        seen.push(...events.filter(filter));
        if (seen.length >= count) void sub.close().then(() => resolve(seen));
      },
      onError: reject,
    });
  });
}

/**
 * The EventStore contract. Streams get a unique prefix per run so the suite also runs against a
 * shared real server that already holds other data.
 */
export function eventStoreContract(name: string, open: () => Promise<EventStore>): void {
  t.test(`EventStore contract: ${name}`, async (t) => {
    const store = await open();
    t.teardown(() => store.close());
    const run = randomUUID().slice(0, 8);
    const s = (n: string) => `test${run}-${n}`;

    t.test('append to a new stream and read it back in order', async (t) => {
      const r = await store.append(s('a'), [ev('Opened', { n: 1 }), ev('Changed', { n: 2 })], 'no_stream');
      t.equal(r.nextRevision, 1);
      const events = await store.readStream(s('a'));
      t.same(events.map((e) => [e.type, e.revision, e.data]), [['Opened', 0, { n: 1 }], ['Changed', 1, { n: 2 }]]);
      t.ok(events[0]!.position < events[1]!.position, 'positions grow');
      t.equal(events[1]!.position, r.position, 'append returns the last event position');
      t.same(await store.readStream(s('a'), 1).then((x) => x.map((e) => e.type)), ['Changed']);
      t.same(await store.readStream(s('missing')), []);
    });

    t.test('expected revision conflicts surface as WrongExpectedRevision', async (t) => {
      await store.append(s('b'), [ev('Opened')], 'no_stream');
      await t.rejects(store.append(s('b'), [ev('Again')], 'no_stream'), WrongExpectedRevision);
      await t.rejects(store.append(s('b'), [ev('Stale')], 5), WrongExpectedRevision);
      await t.rejects(store.append(s('none'), [ev('X')], 0), WrongExpectedRevision);
      const ok = await store.append(s('b'), [ev('Next')], 0);
      t.equal(ok.nextRevision, 1);
      const any = await store.append(s('b'), [ev('Whatever')], 'any');
      t.equal(any.nextRevision, 2);
      t.equal((await store.readStream(s('b'))).length, 3, 'rejected appends wrote nothing');
    });

    t.test('concurrent appends at one revision: exactly one wins', async (t) => {
      await store.append(s('c'), [ev('Opened')], 'no_stream');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 25 }, (_, i) => store.append(s('c'), [ev('Raced', { i })], 0)),
      );
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      t.equal(won.length, 1);
      t.ok(outcomes.filter((o) => o.status === 'rejected').every((o) => (o as PromiseRejectedResult).reason instanceof WrongExpectedRevision));
      t.equal((await store.readStream(s('c'))).length, 2);
    });

    t.test('many callers retrying on conflict lose no event', async (t) => {
      const stream = s('d');
      const writers = Array.from({ length: 20 }, async (_, i) => {
        for (;;) {
          const current = (await store.readStream(stream)).length - 1;
          try {
            await store.append(stream, [ev('Added', { i })], current === -1 ? 'no_stream' : current);
            return;
          } catch (error) {
            if (!(error instanceof WrongExpectedRevision)) throw error;
          }
        }
      });
      await Promise.all(writers);
      const events = await store.readStream(stream);
      t.equal(events.length, 20);
      t.same(new Set(events.map((e) => (e.data as { i: number }).i)).size, 20);
      t.same(events.map((e) => e.revision), [...Array(20).keys()]);
    });

    t.test('subscribe from the start, then live; resume after a position', async (t) => {
      const mine = (e: RecordedEvent) => e.stream.startsWith(`test${run}-sub`);
      await store.append(s('sub1'), [ev('One'), ev('Two')], 'no_stream');
      const live = collect(store, null, 4, mine);
      await store.append(s('sub2'), [ev('Three')], 'no_stream');
      await store.append(s('sub1'), [ev('Four')], 1);
      const all = await live;
      t.same(all.map((e) => e.type), ['One', 'Two', 'Three', 'Four']);
      for (let i = 1; i < all.length; i++) t.ok(all[i - 1]!.position < all[i]!.position);
      const resumed = await collect(store, all[1]!.position, 2, mine);
      t.same(resumed.map((e) => e.type), ['Three', 'Four'], 'resume is exclusive of the checkpoint');
    });

    t.test('a failing handler stops the subscription with its error', async (t) => {
      await store.append(s('fail'), [ev('Boom')], 'no_stream');
      const error = await new Promise<unknown>((resolve) => {
        store.subscribeToAll(null, {
          onEvents: (events) => {
            if (events.some((e) => e.stream === s('fail'))) throw new Error('projection failed');
          },
          onError: resolve,
        });
      });
      t.match(error, { message: 'projection failed' });
    });

    t.test('knownToEndAt (where a store offers it) never claims a stream has ended when it has not', async (t) => {
      if (!store.knownToEndAt) {
        t.comment(`${name} cannot tell without a query (other processes write its log): nothing to check`);
        return;
      }
      await store.append(s('ends'), [ev('One'), ev('Two')], 'no_stream');
      await store.readStream(s('ends'));
      t.notOk(store.knownToEndAt(s('ends'), 0), 'revision 1 follows 0');
      t.ok(store.knownToEndAt(s('ends'), 1), 'just read: it ends at 1');
      await store.append(s('ends'), [ev('Three')], 1);
      t.notOk(store.knownToEndAt(s('ends'), 1), 'its own append moved the end on');
      t.ok(store.knownToEndAt(s('ends'), 2) || (await store.readStream(s('ends'), 3)).length === 0);
    });

    t.test('head position is the last appended event', async (t) => {
      const r = await store.append(s('head'), [ev('Last')], 'no_stream');
      t.equal(await store.headPosition(), r.position);
      await store.ping();
    });
  });
}
