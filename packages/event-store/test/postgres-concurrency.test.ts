import t from 'tap';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { freshDatabase, postgresAvailable, sharedPostgres } from '@comanda/postgres';
import { type NewEvent, type Position, type RecordedEvent, WrongExpectedRevision } from '../src/index.js';
import { PostgresEventStore } from '../src/postgres.js';

const ev = (type: string, data: unknown = {}): NewEvent => ({ id: randomUUID(), type, data, metadata: {} });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** An event row inserted by hand inside an open transaction: a writer that has not committed yet. */
const RAW_INSERT = `INSERT INTO comanda_events (position, id, stream, revision, type, data, metadata, recorded_at)
  VALUES (pg_current_xact_id()::text::bigint << 20, $1, $2, $3, 'Raw', '{}', '{}', 0)`;

async function openTransaction(url: string, stream: string, revision: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query(RAW_INSERT, [randomUUID(), stream, revision]);
  return {
    commit: () => client.query('COMMIT').then(() => client.end()),
    rollback: () => client.query('ROLLBACK').then(() => client.end()),
  };
}

/** Reads the whole log after `after` (page by page) as one reader would. */
async function readAll(store: PostgresEventStore, after: Position | null): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  for (let page = await store.readAfter(after, 1000); page.length > 0; page = await store.readAfter(all.at(-1)!.position, 1000)) all.push(...page);
  return all;
}

if (!postgresAvailable() && !process.env.COMANDA_TEST_POSTGRES_URL) {
  t.fail('PostgreSQL is not installed (apt-get install postgresql, or set COMANDA_TEST_POSTGRES_URL)');
} else {
  const { url } = await sharedPostgres();

  t.test('an append to one stream does not wait for an append blocked on another stream', async (t) => {
    const store = new PostgresEventStore(url);
    t.teardown(() => store.close());
    const a = `blocked-${randomUUID()}`;
    await store.append(a, [ev('Opened')], 'no_stream');
    const other = await openTransaction(url, a, 1);
    const blocked = store.append(a, [ev('Waits')], 0);
    await sleep(100);
    const started = Date.now();
    const free = await Promise.race([store.append(`free-${randomUUID()}`, [ev('Free')], 'no_stream'), sleep(3000).then(() => null)]);
    t.ok(free, `an append to another stream committed (${Date.now() - started} ms) while the first waited`);
    await other.rollback();
    t.equal((await blocked).nextRevision, 1, 'the blocked append commits once the other writer gives the revision up');
  });

  t.test('an event that commits after a later one is read before it, never skipped', async (t) => {
    const store = new PostgresEventStore(url);
    const reader = new PostgresEventStore(url, { pollMs: 60_000 });
    t.teardown(async () => {
      await store.close();
      await reader.close();
    });
    const start = await store.headPosition();
    const early = `early-${randomUUID()}`;
    const late = await openTransaction(url, early, 0);
    const later = `later-${randomUUID()}`;
    const laterAppend = await store.append(later, [ev('Later')], 'no_stream');
    const seen: RecordedEvent[] = [];
    const sub = reader.subscribeToAll(start, { onEvents: (events) => void seen.push(...events) });
    t.teardown(() => sub.close());
    await sleep(300);
    t.same(await reader.readAfter(start, 100), [], 'nothing is read past a transaction still open');
    t.same(seen, [], 'nor delivered to a subscriber');
    await late.commit();
    for (let i = 0; i < 100 && seen.length < 2; i++) await sleep(20);
    t.same(seen.map((e) => e.stream), [early, later], 'the early transaction first, without a notification of its own');
    t.ok(seen[0]!.position < laterAppend.position, 'its position orders it first');
  });

  t.test('32 writers × 200 appends while a reader polls: every committed event read once, each stream in order', async (t) => {
    const writer = new PostgresEventStore(url, { poolSize: 32 });
    const reader = new PostgresEventStore(url);
    t.teardown(async () => {
      await writer.close();
      await reader.close();
    });
    const prefix = `proof${randomUUID().slice(0, 8)}`;
    const start = await writer.headPosition();
    let writing = true;
    const read: RecordedEvent[] = [];
    const polling = (async () => {
      let at = start;
      for (;;) {
        const done = !writing;
        const page = await reader.readAfter(at, 500);
        read.push(...page);
        if (page.length > 0) at = page.at(-1)!.position;
        else if (done) return;
      }
    })();
    let conflicts = 0;
    await Promise.all(
      Array.from({ length: 32 }, async (_, w) => {
        const own = new Map<string, number>();
        for (let i = 0; i < 200; i++) {
          if (i % 10 === 0) {
            // A stream every writer appends to: read its revision, append, retry on a conflict.
            const shared = `${prefix}-shared-${i % 3}`;
            for (;;) {
              const last = (await writer.readStream(shared)).at(-1)?.revision;
              try {
                await writer.append(shared, [ev('Shared', { w, i })], last ?? 'no_stream');
                break;
              } catch (e) {
                if (!(e instanceof WrongExpectedRevision)) throw e;
                conflicts++;
              }
            }
          } else if (i % 10 === 5) {
            await writer.append(`${prefix}-any`, [ev('Any', { w, i })], 'any');
          } else {
            const stream = `${prefix}-w${w}-${i % 4}`;
            const r = await writer.append(stream, [ev('Own', { w, i }), ev('Own2', { w, i })], own.get(stream) ?? 'no_stream');
            own.set(stream, r.nextRevision);
          }
        }
      }),
    );
    writing = false;
    await polling;
    const mine = read.filter((e) => e.stream.startsWith(prefix));
    const committed = (await readAll(writer, start)).filter((e) => e.stream.startsWith(prefix));
    t.equal(committed.length, 32 * (20 + 20 + 160 * 2), 'every append committed');
    t.equal(new Set(mine.map((e) => e.id)).size, mine.length, 'no event read twice');
    t.same(new Set(mine.map((e) => e.id)), new Set(committed.map((e) => e.id)), 'every committed event read');
    let ordered = true;
    for (let i = 1; i < read.length; i++) if (read[i]!.position <= read[i - 1]!.position) ordered = false;
    t.ok(ordered, 'positions only grow');
    const next = new Map<string, number>();
    let inStreamOrder = true;
    for (const e of mine) {
      if (e.revision !== (next.get(e.stream) ?? 0)) inStreamOrder = false;
      next.set(e.stream, e.revision + 1);
    }
    t.ok(inStreamOrder, 'each stream read as 0, 1, 2, … with no gap');
    t.comment(`${conflicts} conflicts on the shared streams, retried`);
  });

  t.test('a log written before positions packed transaction ids opens, and old checkpoints stay valid', async (t) => {
    const legacyUrl = await freshDatabase(url);
    const legacy = new pg.Client({ connectionString: legacyUrl });
    await legacy.connect();
    // The table as the previous version created it, with positions 1…3 numbered under its lock.
    await legacy.query(`CREATE TABLE comanda_events (position bigint PRIMARY KEY, id text NOT NULL UNIQUE, stream text NOT NULL,
      revision integer NOT NULL, type text NOT NULL, data json NOT NULL, metadata json NOT NULL, recorded_at bigint NOT NULL,
      CONSTRAINT comanda_events_stream_revision UNIQUE (stream, revision))`);
    for (let i = 1; i <= 3; i++) {
      await legacy.query(`INSERT INTO comanda_events VALUES ($1, $2, 'order-1', $3, 'Old', '{}', '{}', 0)`, [i, randomUUID(), i - 1]);
    }
    await legacy.end();
    const store = new PostgresEventStore(legacyUrl);
    t.teardown(() => store.close());
    const r = await store.append('order-1', [ev('New')], 2);
    t.equal(r.nextRevision, 3, 'the stream goes on from its old revision');
    t.ok(r.position > 3n, 'after every old position');
    t.same((await readAll(store, 2n)).map((e) => [e.type, e.revision]), [['Old', 2], ['New', 3]], 'a checkpoint at an old position reads on from there');
    t.equal(await store.countAfter(2n), 2, 'lag counts events, not positions');
  });

  t.test('a log restored into another cluster (transaction ids behind its positions) goes on after its last event', async (t) => {
    const restoredUrl = await freshDatabase(url);
    const before = new PostgresEventStore(restoredUrl);
    await before.headPosition();
    await before.close();
    // What pg_dump brings from a busier cluster: positions packed from far larger transaction ids.
    const dump = new pg.Client({ connectionString: restoredUrl });
    await dump.connect();
    const { rows } = await dump.query<{ p: string }>(`SELECT ((pg_current_xact_id()::text::bigint + 5000000) << 20)::text AS p`);
    const last = BigInt(rows[0]!.p);
    await dump.query(`INSERT INTO comanda_events VALUES ($1, $2, 'order-1', 0, 'Restored', '{}', '{}', 0)`, [last.toString(), randomUUID()]);
    await dump.end();
    const store = new PostgresEventStore(restoredUrl);
    t.teardown(() => store.close());
    const r = await store.append('order-1', [ev('New')], 0);
    t.ok(r.position > last, 'the next position lies above the restored head');
    t.same((await readAll(store, last)).map((e) => e.type), ['New'], 'a checkpoint at the restored head reads the new event');
    t.same((await readAll(store, null)).map((e) => e.type), ['Restored', 'New'], 'in log order');
  });
}
