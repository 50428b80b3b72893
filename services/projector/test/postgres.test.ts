import t from 'tap';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { postgresAvailable, freshDatabase, sharedPostgres } from '@comanda/postgres';
import type { RecordedEvent } from '@comanda/event-store';
import { PostgresEventStore } from '@comanda/event-store/postgres';
import type { ReadStore } from '@comanda/read-store';
import { PostgresReadStore } from '@comanda/read-store/postgres';
import type { Projection } from '@comanda/read-models';
import { Projector } from '../src/index.js';

const silent = pino({ level: 'silent' });

/** Deliberately not idempotent (no per-document guard): only a transactional checkpoint keeps it exact. */
const counter = (crashAt?: number): Projection => {
  let seen = 0;
  return {
    name: 'counter',
    handles: ['LineAdded'],
    async apply(event: RecordedEvent, store: ReadStore) {
      if (++seen === crashAt) throw new Error('power cut mid-batch');
      const c = store.collection<{ _id: string; n: number }>('counts');
      const doc = await c.get(event.stream);
      await c.upsert({ _id: event.stream, n: (doc?.n ?? 0) + 1 });
    },
  };
};

if (!postgresAvailable() && !process.env.COMANDA_TEST_POSTGRES_URL) {
  t.fail('PostgreSQL is not installed (apt-get install postgresql)');
} else {
  t.test('on PostgreSQL a batch and its checkpoint commit together: a crash mid-batch applies nothing twice', async (t) => {
    const url = await freshDatabase((await sharedPostgres()).url);
    const store = new PostgresEventStore(url);
    const readStore = PostgresReadStore.open(url);
    t.teardown(async () => {
      await store.close();
      await readStore.close();
    });
    for (let tab = 0; tab < 4; tab++) {
      for (let l = 0; l < 50; l++) {
        await store.append(`tab-${tab}`, [{ id: randomUUID(), type: 'LineAdded', data: {}, metadata: {} }], l === 0 ? 'no_stream' : l - 1);
      }
    }
    const first = new Projector({ store, readStore, projections: [counter(130)], logger: silent });
    await t.rejects(first.start(), { name: 'ProjectionFailed' });
    await first.stop();
    const counts = readStore.collection<{ _id: string; n: number }>('counts');
    t.equal(await counts.count(), 0, 'the failed batch left no document behind');
    t.equal(await readStore.getCheckpoint('projector'), null, 'nor its checkpoint');
    const second = new Projector({ store, readStore, projections: [counter()], logger: silent });
    await second.start();
    const r = await store.append('tab-0', [{ id: randomUUID(), type: 'LineAdded', data: {}, metadata: {} }], 49);
    t.ok(await second.waitFor(r.position, 5000), 'live events arrive');
    await second.stop();
    t.same((await counts.find({}, { sort: { _id: 1 } })).map((d) => d.n), [51, 50, 50, 50], 'every event counted exactly once');
  });
}
