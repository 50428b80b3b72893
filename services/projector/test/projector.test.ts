import t from 'tap';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { Writable } from 'node:stream';
import { MemoryEventStore, type RecordedEvent } from '@comanda/event-store';
import { MemoryReadStore, type ReadStore } from '@comanda/read-store';
import { type Projection, type Tracked, updateDocument } from '@comanda/read-models';
import { Projector } from '../src/index.js';

type Tab = Tracked & { lines: number; cents: number };

/** A projection with increments: only the per-document guard makes it idempotent. */
const tabs: Projection = {
  name: 'tabs',
  handles: ['LineAdded', 'TabClosed'],
  async apply(event: RecordedEvent, store: ReadStore) {
    const tabsCollection = store.collection<Tab>('tabs');
    await updateDocument(tabsCollection, event.stream, event, (tab) => {
      if (event.type === 'TabClosed') return null;
      const { cents } = event.data as { cents: number };
      return { _id: event.stream, lines: (tab?.lines ?? 0) + 1, cents: (tab?.cents ?? 0) + cents };
    });
  },
};

const silent = pino({ level: 'silent' });
const add = (cents: number) => [{ id: randomUUID(), type: 'LineAdded', data: { cents }, metadata: {} }];

async function fill(store: MemoryEventStore, tabsCount: number, lines: number) {
  for (let tab = 0; tab < tabsCount; tab++) {
    for (let l = 0; l < lines; l++) await store.append(`tab-${tab}`, add(100 + l), l === 0 ? 'no_stream' : l - 1);
  }
}

const snapshot = async (rs: ReadStore) =>
  (await rs.collection<Tab>('tabs').find({}, { sort: { _id: 1 } })).map(({ _id, lines, cents }) => ({ _id, lines, cents }));

t.test('applies events, then live; waitFor gives read-your-writes', async (t) => {
  const store = new MemoryEventStore();
  await fill(store, 3, 4);
  const readStore = new MemoryReadStore();
  const projector = new Projector({ store, readStore, projections: [tabs], logger: silent });
  await projector.start();
  t.equal(projector.state, 'live');
  t.same(await snapshot(readStore), [
    { _id: 'tab-0', lines: 4, cents: 406 },
    { _id: 'tab-1', lines: 4, cents: 406 },
    { _id: 'tab-2', lines: 4, cents: 406 },
  ]);
  const r = await store.append('tab-9', add(250), 'no_stream');
  t.equal(await projector.waitFor(r.position, 1000), true);
  t.same((await readStore.collection<Tab>('tabs').get('tab-9'))?.cents, 250);
  t.equal(await projector.waitFor(r.position + 100n, 20), false, 'a position never reached times out');
  await projector.stop();
  t.equal(await projector.waitFor(r.position + 100n, 1000), false, 'a stopped projector does not wait');
});

t.test('replaying events already applied changes nothing (idempotent)', async (t) => {
  const store = new MemoryEventStore();
  await fill(store, 5, 5);
  const readStore = new MemoryReadStore();
  const first = new Projector({ store, readStore, projections: [tabs], logger: silent });
  await first.start();
  await first.stop();
  const once = await snapshot(readStore);
  // Forget the checkpoint: every event is delivered a second time.
  await readStore.setCheckpoint('projector', 0n);
  const again = new Projector({ store, readStore, projections: [tabs], logger: silent });
  await again.start();
  await again.stop();
  t.same(await snapshot(readStore), once);
});

t.test('crashed mid-stream and restarted, the read model equals a fresh rebuild', async (t) => {
  const store = new MemoryEventStore();
  await fill(store, 5, 30);
  const readStore = new MemoryReadStore();
  let applied = 0;
  const crashing: Projection = {
    ...tabs,
    async apply(e, rs) {
      // The process dies part way through a batch: some documents are written, the checkpoint is not.
      if (++applied === 220) throw new Error('power cut');
      await tabs.apply(e, rs);
    },
  };
  const first = new Projector({ store, readStore, projections: [crashing], logger: silent });
  await first.start();
  const midway = await readStore.getCheckpoint('projector');
  t.equal(midway, 150n, 'first batch checkpointed');
  for (let tab = 5; tab < 10; tab++) {
    for (let l = 0; l < 30; l++) await store.append(`tab-${tab}`, add(100 + l), l === 0 ? 'no_stream' : l - 1);
  }
  await new Promise((r) => setTimeout(r, 20));
  t.equal(first.state, 'failed');
  const after = (await readStore.getCheckpoint('projector'))!;
  t.ok(after >= midway! && after < 220n, `the crashed batch left the checkpoint behind (${after})`);
  await first.stop();
  const resumed = new Projector({ store, readStore, projections: [tabs], logger: silent });
  await resumed.start();
  await resumed.stop();
  const rebuilt = new MemoryReadStore();
  const fresh = new Projector({ store, readStore: rebuilt, projections: [tabs], logger: silent });
  await fresh.start();
  await fresh.stop();
  t.same(await snapshot(readStore), await snapshot(rebuilt));
  t.equal((await snapshot(rebuilt)).length, 10);
  t.ok((await snapshot(rebuilt)).every((tab) => tab.lines === 30));
});

t.test('a throwing projection stops the projector and logs the event id and projection name', async (t) => {
  const store = new MemoryEventStore();
  await fill(store, 1, 2);
  const bad = await store.append('tab-bad', [{ id: randomUUID(), type: 'LineAdded', data: { cents: -1 }, metadata: {} }], 'no_stream');
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, new Writable({ write: (c, _e, cb) => (lines.push(c.toString()), cb()) }));
  const picky: Projection = {
    name: 'picky',
    handles: ['LineAdded'],
    async apply(e) {
      if ((e.data as { cents: number }).cents < 0) throw new Error('negative line');
    },
  };
  const readStore = new MemoryReadStore();
  const projector = new Projector({ store, readStore, projections: [picky], logger });
  await t.rejects(projector.start(), { name: 'ProjectionFailed', projection: 'picky' });
  t.equal(projector.state, 'failed');
  const failing = (await store.readStream('tab-bad'))[0]!;
  const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg.includes('projection failed'));
  t.match(logged, { projection: 'picky', eventId: failing.id, level: 50 });
  t.ok((await readStore.getCheckpoint('projector') ?? 0n) < bad.position, 'the failing event is not checkpointed');
});

t.test('replay drops the read models and rebuilds them from position 0', async (t) => {
  const { replay } = await import('../src/index.js');
  const store = new MemoryEventStore();
  await fill(store, 4, 5);
  const readStore = new MemoryReadStore();
  await readStore.collection('tabs').upsert({ _id: 'stale', lines: 99, cents: 0 });
  await readStore.setCheckpoint('projector', 20n);
  const report = await replay(store, readStore, [tabs], silent);
  t.equal(report.events, 20);
  t.ok(report.eventsPerSecond > 0);
  t.same((await snapshot(readStore)).map((d) => d._id), ['tab-0', 'tab-1', 'tab-2', 'tab-3']);
});
