import t from 'tap';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { openPool, postgresAvailable, sharedPostgres, startPostgres } from '@comanda/postgres';
import type { Decider } from '@comanda/domain';
import { CommandHandler, type NewEvent, type RecordedEvent, WrongExpectedRevision } from '../src/index.js';
import { PostgresEventStore } from '../src/postgres.js';
import { READ_AFTER, READ_STREAMS } from '../src/postgres-sql.js';

const ev = (type: string, data: unknown = {}): NewEvent => ({ id: randomUUID(), type, data, metadata: {} });

/** A store that appends and a second one that reads: its subscriptions wake on NOTIFY only, as in another process. */
const writerAndReader = (t: Tap.Test, url: string) => {
  const writer = new PostgresEventStore(url);
  const reader = new PostgresEventStore(url, { pollMs: 60_000 });
  t.teardown(async () => {
    await writer.close();
    await reader.close();
  });
  return { writer, reader };
};

if (!postgresAvailable() && !process.env.COMANDA_TEST_POSTGRES_URL) {
  t.fail('PostgreSQL is not installed (apt-get install postgresql, or set COMANDA_TEST_POSTGRES_URL)');
} else {
  const { url } = await sharedPostgres();

  /**
   * Sequential scans of `comanda_events` in the generic plan of `statement` (how the store runs a
   * prepared statement after a few executions), on a log of its own that `fill` writes: the plan
   * depends on the table's statistics, not on what other tests left in it.
   */
  const scansOfTheLog = async (t: Tap.Test, fill: (store: PostgresEventStore) => Promise<void>, statement: string, execute: (client: pg.PoolClient) => Promise<string>) => {
    const own = await startPostgres();
    t.teardown(() => own.destroy());
    const store = new PostgresEventStore(own.url);
    t.teardown(() => store.close());
    await fill(store);
    const pool = openPool(own.url, { max: 1 });
    t.teardown(() => pool.end());
    const client = await pool.connect();
    try {
      await client.query('ANALYZE comanda_events');
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE planned AS ${statement}`);
      const [{ 'QUERY PLAN': [root] }] = (await client.query(`EXPLAIN (FORMAT JSON) EXECUTE planned${await execute(client)}`)).rows;
      type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };
      const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
      return nodes(root.Plan).filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'comanda_events').length;
    } finally {
      client.release();
    }
  };

  t.test("a follower's read of the log steps through the primary key, whatever the planner guesses of its horizon", async (t) => {
    const scans = await scansOfTheLog(t, async (store) => {
      for (let batch = 0; batch < 20; batch++) {
        await Promise.all(Array.from({ length: 50 }, (_, i) => store.append(`plan-${batch}-${i}`, Array.from({ length: 10 }, () => ev('Placed')), 'no_stream')));
      }
    }, READ_AFTER, async (client) => {
      const head = BigInt((await client.query('SELECT max(position)::text AS p FROM comanda_events')).rows[0].p);
      return `(${head - 1n}, 500)`;
    });
    t.equal(scans, 0, 'no scan of the whole log (10,000 events)');
  });

  t.test('a batched stream read steps through the (stream, revision) index, on a log of a few long streams', async (t) => {
    // A floor's tables and the roster are long streams: flattened into a join, the planner hashed
    // the whole log for each batch.
    const scans = await scansOfTheLog(t, async (store) => {
      for (let round = 0; round < 40; round++) {
        await Promise.all(Array.from({ length: 10 }, (_, s) => store.append(`table-${s}`, Array.from({ length: 25 }, () => ev('Seated')), round === 0 ? 'no_stream' : round * 25 - 1)));
      }
    }, READ_STREAMS, async () => `(ARRAY['table-1','table-2'], ARRAY[990, 995])`);
    t.equal(scans, 0, 'no scan of the whole log (10,000 events in 10 streams)');
  });

  t.test('a retried append with the same event ids answers as the first one did', async (t) => {
    const store = new PostgresEventStore(url);
    t.teardown(() => store.close());
    const stream = `idem-${randomUUID()}`;
    const events = [ev('Placed'), ev('Added')];
    const first = await store.append(stream, events, 'no_stream');
    const again = await store.append(stream, events, 'no_stream');
    t.same(again, first, 'same revision and position, nothing written twice');
    t.equal((await store.readStream(stream)).length, 2);
    const other = await store.append(stream, [ev('Next')], 1);
    t.equal(other.nextRevision, 2);
    await t.rejects(store.append(`idem-${randomUUID()}`, [events[0]!], 'any'), /already recorded/, 'an id reused on another stream is refused');
    await t.rejects(store.append(stream, [ev('Stale')], 0), WrongExpectedRevision, 'new ids at a stale revision still conflict');
  });

  t.test('under concurrent appends from many connections, subscribers in another process each see every event once, in position order', async (t) => {
    const { writer, reader } = writerAndReader(t, url);
    const start = await writer.headPosition();
    const prefix = `race${randomUUID().slice(0, 8)}`;
    const total = 300;
    // Three subscriptions of one process share the pages they read after a wake; handlers of
    // different speeds take them apart (one a page behind the other), as the projector's do.
    const subscribers = [0, 1, 4].map((delayMs) => {
      const received: RecordedEvent[] = [];
      const done = new Promise<void>((resolve, reject) => {
        const sub = reader.subscribeToAll(start, {
          onEvents: async (events) => {
            if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
            received.push(...events);
            if (received.filter((e) => e.stream.startsWith(prefix)).length >= total) void sub.close().then(resolve);
          },
          onError: reject,
        });
      });
      return { received, done };
    });
    // 30 streams × 10 appends, all in flight at once: commits interleave in every order.
    await Promise.all(
      Array.from({ length: 30 }, async (_, s) => {
        for (let i = 0; i < 10; i++) await writer.append(`${prefix}-${s}`, [ev('Added', { i })], i === 0 ? 'no_stream' : i - 1);
      }),
    );
    for (const [n, { received, done }] of subscribers.entries()) {
      await done;
      const positions = received.map((e) => e.position);
      for (let i = 1; i < positions.length; i++) {
        if (positions[i]! <= positions[i - 1]!) t.fail(`subscriber ${n}: disorder between ${positions[i - 1]} and ${positions[i]}`);
      }
      t.ok(positions[0]! > (start ?? 0n), `subscriber ${n} starts after the checkpoint`);
      t.equal(new Set(received.map((e) => e.id)).size, received.length, `subscriber ${n}: no event delivered twice`);
      t.equal(received.filter((e) => e.stream.startsWith(prefix)).length, total, `subscriber ${n}: every event`);
    }
  });

  t.test('a subscriber that may run late (settleMs) reads the appends of a while in one page, and misses none', async (t) => {
    const { writer, reader } = writerAndReader(t, url);
    const start = await writer.headPosition();
    const prefix = `settle${randomUUID().slice(0, 8)}`;
    const batches: RecordedEvent[][] = [];
    const eager: RecordedEvent[][] = [];
    const total = 60;
    const mine = (events: RecordedEvent[]) => events.filter((e) => e.stream.startsWith(prefix));
    const count = (list: RecordedEvent[][]) => list.reduce((n, b) => n + mine(b).length, 0);
    const late = reader.subscribeToAll(start, { settleMs: 150, onEvents: (events) => void (mine(events).length && batches.push(events)) });
    const prompt = reader.subscribeToAll(start, { onEvents: (events) => void (mine(events).length && eager.push(events)) });
    t.teardown(() => Promise.all([late.close(), prompt.close()]));
    // One append every few ms, each on its own: a prompt subscriber reads nearly one page per append.
    for (let i = 0; i < total; i++) {
      await writer.append(`${prefix}-${i}`, [ev('Added', { i })], 'no_stream');
      await new Promise((r) => setTimeout(r, 5));
    }
    const deadline = Date.now() + 5000;
    while ((count(batches) < total || count(eager) < total) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    t.equal(count(batches), total, 'every event reached the late subscriber');
    t.same(batches.flat().map((e) => e.position), [...batches.flat().map((e) => e.position)].sort((a, b) => (a < b ? -1 : 1)), 'in log order');
    t.ok(batches.length * 4 <= eager.length, `${batches.length} pages for the late subscriber against ${eager.length} for the prompt one`);
  });

  t.test('stream reads asked together (one statement): each caller gets its stream from its revision, and what was appended before it asked', async (t) => {
    const store = new PostgresEventStore(url);
    t.teardown(() => store.close());
    const prefix = `batch${randomUUID().slice(0, 8)}`;
    for (let s = 0; s < 12; s++) await store.append(`${prefix}-${s}`, Array.from({ length: s + 1 }, (_, i) => ev('Added', { s, i })), 'no_stream');
    const asks = Array.from({ length: 40 }, (_, k) => ({ stream: `${prefix}-${k % 14}`, from: k % 5 }));
    const together = await Promise.all(asks.map((a) => store.readStream(a.stream, a.from)));
    for (const [k, a] of asks.entries()) {
      const alone = await store.readStream(a.stream, a.from);
      t.same(together[k]!.map((e) => [e.stream, e.revision, e.id]), alone.map((e) => [e.stream, e.revision, e.id]), `${a.stream} from ${a.from}`);
    }
    // An append that answered before a read is asked for is in that read, batched or not.
    await store.append(`${prefix}-0`, [ev('Late')], 0);
    const [fresh, other] = await Promise.all([store.readStream(`${prefix}-0`, 1), store.readStream(`${prefix}-1`)]);
    t.same(fresh.map((e) => e.type), ['Late']);
    t.equal(other.length, 2);
  });

  t.test('commands queued on one stream in one process never conflict with each other', async (t) => {
    const store = new PostgresEventStore(url);
    t.teardown(() => store.close());
    let conflicts = 0;
    const handler = new CommandHandler(store, 100, { outcome: () => {}, conflict: () => void conflicts++ });
    const counter: Decider<{ type: 'add' }, { type: 'Added'; data: object }, number> = {
      initialState: () => 0,
      decide: () => [{ type: 'Added', data: {} }],
      evolve: (n) => n + 1,
    };
    const stream = `queued-${randomUUID()}`;
    // The handler pipelines them: each decides on the state the previous one will write, and
    // appends while that one may not have committed yet.
    await Promise.all(Array.from({ length: 50 }, () => handler.handle(counter, stream, { type: 'add' })));
    t.equal(conflicts, 0, 'no command decided twice');
    t.equal((await store.readStream(stream)).length, 50);
  });

  t.test('appends and subscriptions resume after the server restarts', async (t) => {
    const server = await startPostgres();
    t.teardown(() => server.destroy());
    const errors: unknown[] = [];
    const store = new PostgresEventStore(server.url, { pollMs: 200, onError: (e) => errors.push(e) });
    t.teardown(() => store.close());
    const seen: string[] = [];
    const sub = store.subscribeToAll(null, { onEvents: (events) => void seen.push(...events.map((e) => e.type)) });
    t.teardown(() => sub.close());
    await store.append('order-1', [ev('Before')], 'no_stream');
    await server.crash();
    await t.rejects(store.append('order-1', [ev('WhileDown')], 0), 'an append while the server is down fails (nothing acknowledged)');
    await server.start();
    let result;
    for (let attempt = 0; !result && attempt < 50; attempt++) {
      result = await store.append('order-1', [ev('After')], 0).catch(() => new Promise<undefined>((r) => setTimeout(r, 100)));
    }
    t.equal(result?.nextRevision, 1, 'the pool reconnects');
    for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    t.same(seen, ['Before', 'After'], 'the subscription resumed where it was');
    t.ok(errors.length > 0, 'the outage was reported, not thrown');
  });
}
