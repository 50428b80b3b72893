import t, { type Test } from 'tap';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { freshDatabase, postgresAvailable, sharedPostgres } from '@comanda/postgres';
import { PostgresReadStore } from '../src/postgres.js';
import { SqlParams, orderBy, where } from '../src/postgres-filter.js';

if (!postgresAvailable() && !process.env.COMANDA_TEST_POSTGRES_URL) {
  t.fail('PostgreSQL is not installed (apt-get install postgresql, or set COMANDA_TEST_POSTGRES_URL)');
} else {
  const { url } = await sharedPostgres();

  /** A store and a plain client on the same database (to read plans), both closed after the test. */
  const storeAndDirect = async (t: Test) => {
    const store = PostgresReadStore.open(url);
    const direct = new pg.Client({ connectionString: url });
    await direct.connect();
    t.teardown(async () => {
      await store.close();
      await direct.end();
    });
    return { store, direct };
  };

  t.test('the read models\' queries use the indexes their projections declare', async (t) => {
    const { store, direct } = await storeAndDirect(t);
    const name = `orders_${randomUUID().slice(0, 8)}`;
    const orders = store.collection(name, [{ status: 1, placed_at: -1 }]);
    for (let i = 0; i < 600; i++) {
      await orders.upsert({ _id: `o${i}`, status: i % 30 === 0 ? 'ready' : 'completed', placed_at: new Date(1_700_000_000_000 + i * 60_000).toISOString() });
    }
    await direct.query(`ANALYZE rm_${name}`);
    const p = new SqlParams();
    const sql = `EXPLAIN SELECT doc FROM rm_${name} WHERE ${where({ status: 'ready', placed_at: { $gte: '2023-11-15' } }, p)} ${orderBy({ placed_at: -1 })}`;
    const text = literal(sql, p.values);
    const plan = (await direct.query(text)).rows.map((r) => r['QUERY PLAN']).join('\n');
    t.match(plan, /Index|Bitmap/, `an index serves status + placed_at:\n${plan}`);
    t.equal((await orders.find({ status: 'ready' })).length, 20);
  });

  t.test('checkpoints are announced as they commit: written together, seen together; rolled back, never seen', async (t) => {
    const writer = PostgresReadStore.open(url);
    const watcher = PostgresReadStore.open(url);
    const seen: Array<Record<string, string>> = [];
    let listening!: () => void;
    const started = new Promise<void>((resolve) => (listening = resolve));
    const mine = new Set<string>();
    // Other test files write checkpoints to the same database: only this test's names count.
    const watch = watcher.watchCheckpoints((checkpoints) => {
      const ours = [...checkpoints].filter(([name]) => mine.has(name));
      if (ours.length) seen.push(Object.fromEntries(ours.map(([name, p]) => [name, String(p)])));
    }, (on) => on && listening());
    t.teardown(async () => {
      await watch.close();
      await writer.close();
      await watcher.close();
    });
    await started;
    const n = (k: string) => `${k}_${randomUUID().slice(0, 6)}`;
    const [a, b, c] = [n('a'), n('b'), n('c')];
    for (const name of [a, b, c]) mine.add(name);
    await writer.setCheckpoints([[a, 5n], [b, 7n]]);
    await t.rejects(writer.transaction(async (tx) => {
      await tx.setCheckpoint(c, 1n);
      throw new Error('rolled back');
    }));
    await writer.transaction(async (tx) => {
      await tx.collection('announced').upsert({ _id: 'x' });
      await tx.setCheckpoint(c, 2n);
    });
    await writer.setCheckpoint(a, 6n);
    const deadline = Date.now() + 5000;
    while (seen.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    t.same(seen, [{ [a]: '5', [b]: '7' }, { [c]: '2' }, { [a]: '6' }], 'one announcement per write, in commit order, none for the rollback');
    t.equal(await watcher.getCheckpoint(b), 7n);
  });

  t.test('a batch (the projector\'s transaction) answers like the store: its checkpoints, a dropped collection, a ping', async (t) => {
    const store = PostgresReadStore.open(url);
    t.teardown(() => store.close());
    const name = `batch_${randomUUID().slice(0, 8)}`;
    const docs = store.collection(name);
    await docs.upsert({ _id: 'old' });
    await store.setCheckpoint(name, 3n);
    await store.transaction(async (tx) => {
      await tx.ping();
      t.equal(await tx.getCheckpoint(name), 3n, 'the committed checkpoint until the batch sets one');
      await tx.setCheckpoint(name, 4n);
      t.equal(await tx.getCheckpoint(name), 4n, 'then its own');
      t.equal(await store.getCheckpoint(name), 3n, 'which nobody else sees before the commit');
      await tx.drop(name);
      t.equal(await tx.collection(name).get('old'), null, 'a drop in a batch is seen by it');
      await tx.collection(name).upsert({ _id: 'new' });
      await tx.close();
    });
    t.equal(await docs.get('old'), null);
    t.ok(await docs.get('new'), 'the batch committed its drop and what it wrote after');
    t.equal(await store.getCheckpoint(name), 4n);
  });

  t.test('gets asked together go as one statement per table, each caller answered its own document', async (t) => {
    const { store, direct } = await storeAndDirect(t);
    const [a, b] = [`ga_${randomUUID().slice(0, 8)}`, `gb_${randomUUID().slice(0, 8)}`];
    const as = store.collection(a);
    const bs = store.collection(b);
    for (let i = 0; i < 20; i++) {
      await as.upsert({ _id: `a${i}`, n: i });
      await bs.upsert({ _id: `b${i}`, n: 100 + i });
    }
    // 60 reads at once: both tables, ids asked twice, ids that exist in the other table only, missing ones.
    const asked = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? ([as, `a${i % 25}`] as const) : i % 3 === 1 ? ([bs, `b${i % 22}`] as const) : ([as, `b${i % 20}`] as const)));
    const together = await Promise.all(asked.map(([c, id]) => c.get(id)));
    const alone: unknown[] = [];
    for (const [c, id] of asked) alone.push(await c.get(id));
    t.same(together, alone, 'as the same reads one at a time');
    t.ok(together.some((d) => d === null) && together.some((d) => d !== null), 'found and missing alike');
    // An upsert answered before a read is in it.
    await as.upsert({ _id: 'a1', n: 'changed' });
    t.same((await Promise.all([as.get('a1'), as.get('a2')])).map((d) => d?.n), ['changed', 2]);

    // The statement a batch sends uses the primary key on a large table.
    await direct.query(`INSERT INTO rm_${a} (id, doc) SELECT 'x' || g, '{}'::jsonb FROM generate_series(1, 10000) g`);
    await direct.query(`ANALYZE rm_${a}`);
    const plan = (await direct.query(`EXPLAIN SELECT id, doc FROM rm_${a} WHERE id = ANY('{a1,a2,x5}'::text[])`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    t.match(plan, /Index/, `the primary key serves the batch:\n${plan}`);
    t.notMatch(plan, /Seq Scan/);
  });

  t.test('operators outside the supported subset are refused, not misread', async (t) => {
    const store = PostgresReadStore.open(url);
    t.teardown(() => store.close());
    const c = store.collection(`x_${randomUUID().slice(0, 8)}`);
    await t.rejects(c.find({ tags: { $elemMatch: { a: 1 } } }), /Unsupported operator/);
    await t.rejects(c.find({ $where: 'true' }), /Unsupported operator/);
    await t.rejects(c.find({ 'a;drop': 1 }), /Unsupported field/);
    t.throws(() => store.collection('bad name'), /letters, digits/);
  });

  t.test('clear empties every collection and checkpoint, and the store works after', async (t) => {
    const store = PostgresReadStore.open(await freshDatabase(url));
    t.teardown(() => store.close());
    await store.collection('a').upsert({ _id: '1', n: 1 });
    await store.setCheckpoint('projector', 12n);
    await store.clear();
    t.equal(await store.collection('a').count(), 0);
    t.equal(await store.getCheckpoint('projector'), null);
    await store.collection('a').upsert({ _id: '2', n: 2 });
    t.equal(await store.collection('a').count(), 1);
  });
}

/** EXPLAIN cannot take bind parameters: inline them as literals (test data only). */
function literal(sql: string, values: unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, i: string) => {
    const v = values[Number(i) - 1];
    const text = Array.isArray(v) ? `{${v.map((x) => JSON.stringify(x)).join(',')}}` : String(v);
    return `'${text.replace(/'/g, "''")}'`;
  });
}
