import t from 'tap';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { SqliteEventStore, type RecordedEvent } from '@comanda/event-store';
import { SqliteReadStore, type ReadStore } from '@comanda/read-store';
import { type Projection, type Tracked, updateDocument } from '@comanda/read-models';
import { Projector } from '../src/index.js';

type Tab = Tracked & { lines: number; cents: number };

/** Counts every event it is given, so a test can tell a resume from a rebuild. */
function tabsProjection(version = 1) {
  const applied: string[] = [];
  const projection: Projection = {
    name: 'tabs',
    version,
    handles: ['LineAdded'],
    collections: { tabs: [{ cents: 1 }] },
    async apply(event: RecordedEvent, store: ReadStore) {
      applied.push(event.id);
      await updateDocument(store.collection<Tab>('tabs'), event.stream, event, (tab) => {
        const { cents } = event.data as { cents: number };
        return { _id: event.stream, lines: (tab?.lines ?? 0) + 1, cents: (tab?.cents ?? 0) + cents * version };
      });
    },
  };
  return { projection, applied };
}

const silent = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'comanda-resume-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

async function fill(file: string, tabs: number, from = 0) {
  const store = new SqliteEventStore({ filename: file });
  for (let tab = from; tab < from + tabs; tab++) {
    await store.append(`tab-${tab}`, [100, 200].map((cents) => ({ id: randomUUID(), type: 'LineAdded', data: { cents }, metadata: {} })), 'no_stream');
  }
  await store.close();
}

async function run(logFile: string, modelsFile: string, projection: Projection) {
  const store = new SqliteEventStore({ filename: logFile });
  const readStore = new SqliteReadStore({ filename: modelsFile });
  const projector = new Projector({ store, readStore, projections: [projection], logger: silent });
  await projector.start();
  const tabs = await readStore.collection<Tab>('tabs').find({}, { sort: { _id: 1 } });
  await projector.stop();
  await readStore.close();
  await store.close();
  return tabs;
}

t.test('a restart resumes from the checkpoint in the read-model file instead of rebuilding', async (t) => {
  const log = join(dir, 'a-events.db');
  const models = join(dir, 'a-read-models.db');
  await fill(log, 50);
  const first = tabsProjection();
  t.equal((await run(log, models, first.projection)).length, 50);
  t.equal(first.applied.length, 100);
  await fill(log, 5, 50);
  const second = tabsProjection();
  const tabs = await run(log, models, second.projection);
  t.equal(second.applied.length, 10, 'only the events appended since');
  t.equal(tabs.length, 55);
  t.same(tabs.find((x) => x._id === 'tab-3'), { _id: 'tab-3', lines: 2, cents: 300, _position: tabs.find((x) => x._id === 'tab-3')!._position });
});

t.test('read models newer than the log (an older backup restored beside them) are rebuilt', async (t) => {
  const log = join(dir, 'b-events.db');
  const older = join(dir, 'b-older.db');
  const models = join(dir, 'b-read-models.db');
  await fill(older, 3);
  await fill(log, 3);
  await fill(log, 7, 3);
  await run(log, models, tabsProjection().projection);
  // The log goes back to its older copy; the read models still say 20 events were applied.
  const again = tabsProjection();
  const tabs = await run(older, models, again.projection);
  t.equal(again.applied.length, 6, 'every event of the older log, from the start');
  t.same(tabs.map((x) => x._id), ['tab-0', 'tab-1', 'tab-2'], 'nothing of the newer log is left');
});

t.test('a projection whose version changed is rebuilt; other checkpoints in the store are kept', async (t) => {
  const log = join(dir, 'c-events.db');
  const models = join(dir, 'c-read-models.db');
  await fill(log, 4);
  await run(log, models, tabsProjection(1).projection);
  const rs = new SqliteReadStore({ filename: models });
  await rs.setCheckpoint('relay', 8n);
  await rs.close();
  const same = tabsProjection(1);
  await run(log, models, same.projection);
  t.equal(same.applied.length, 0, 'the same version resumes');
  const bumped = tabsProjection(2);
  const tabs = await run(log, models, bumped.projection);
  t.equal(bumped.applied.length, 8, 'version 2 applies every event again');
  t.same(tabs.map((x) => x.cents), [600, 600, 600, 600], 'documents written by version 2 only');
  const after = new SqliteReadStore({ filename: models });
  t.equal(await after.getCheckpoint('relay'), 8n, 'the relay checkpoint is not the projector\'s to reset');
  await after.close();
  const steady = tabsProjection(2);
  await run(log, models, steady.projection);
  t.equal(steady.applied.length, 0, 'and then resumes again');
});
