import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sqlite, type Database, type Statement } from '@comanda/sqlite';
import { MemoryReadStore, SqliteReadStore, openReadStore, readModelsPath, type Filter, type FindOptions } from '../src/index.js';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { sqliteOrderBy, sqliteWhere } from '../src/sqlite-filter.js';

const dir = mkdtempSync(join(tmpdir(), 'comanda-sqlite-rs-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => new SqliteReadStore({ filename: join(dir, `rm-${++n}.db`) });

t.test('the read models\' queries use the indexes their projections declare', async (t) => {
  const file = join(dir, 'plan.db');
  const store = new SqliteReadStore({ filename: file });
  t.teardown(() => store.close());
  const orders = store.collection('orders', [{ status: 1, placed_at: -1 }, { placed_at: -1 }]);
  for (let i = 0; i < 300; i++) await orders.upsert({ _id: `o${i}`, status: i % 30 === 0 ? 'ready' : 'completed', placed_at: 1_700_000_000_000 + i });
  const direct = new Sqlite(file, { readonly: true });
  t.teardown(() => direct.close());
  const plan = (filter: Filter, sort: FindOptions['sort']) => {
    const p: unknown[] = [];
    const sql = `EXPLAIN QUERY PLAN SELECT doc FROM rm_orders WHERE ${sqliteWhere(filter, p)} ${sqliteOrderBy(sort)}`;
    return (direct.prepare(sql).all(...p) as Array<{ detail: string }>).map((r) => r.detail).join('\n');
  };
  t.match(plan({ status: 'ready', placed_at: { $gte: 1_700_000_000_100 } }, { placed_at: -1 }), /USING INDEX rm_orders_/, 'status + placed_at');
  t.match(plan({}, { placed_at: -1 }), /SCAN rm_orders USING INDEX/, 'a sort by placed_at walks its index');
  t.equal((await orders.find({ status: 'ready' })).length, 10);
});

t.test('operators outside the supported subset are refused, not misread', async (t) => {
  const store = fresh();
  t.teardown(() => store.close());
  const c = store.collection('x');
  await t.rejects(c.find({ tags: { $elemMatch: { a: 1 } } }), /Unsupported operator/);
  await t.rejects(c.find({ $where: 'true' }), /Unsupported operator/);
  await t.rejects(c.find({ "a');drop": 1 }), /Unsupported field/);
  await t.rejects(c.find({ a: { $gt: true } }), /strings and numbers only/);
  await t.rejects(c.find({ a: { $regex: 'x', $options: 'g' } }), /flags/);
  t.throws(() => store.collection('bad name'), /letters, digits/);
});

t.test('the same answers as the memory store (mingo) on the subset, types kept apart', async (t) => {
  const sqlite = fresh();
  const memory = new MemoryReadStore();
  t.teardown(() => sqlite.close());
  const docs = [
    { _id: 'a', n: 1, s: 'Ana', flag: true, nested: { k: 'x' }, tags: ['p'] },
    { _id: 'b', n: 1.5, s: 'ana', flag: false, nested: { k: 'y' } },
    { _id: 'c', n: '1', s: 'Émile', flag: null },
    { _id: 'd', s: 'Zoë', nested: null },
    { _id: 'e', n: 10, s: '😀 emoji', flag: 1 },
    { _id: 'f', n: -3, s: 'Ａ fullwidth' },
  ];
  for (const store of [sqlite, memory]) for (const d of docs) await store.collection('m').upsert(d);
  const filters: Filter[] = [
    { n: 1 }, { n: '1' }, { flag: true }, { flag: 1 }, { flag: null }, { nested: null }, { 'nested.k': 'y' },
    { n: { $gt: 1 } }, { n: { $gte: '1' } }, { n: { $lt: 2, $ne: 1 } }, { n: { $in: [1, '1', 10] } }, { n: { $nin: [1, null] } },
    { s: { $gt: 'Zoë' } }, { s: { $lt: 'a' } }, { s: { $regex: '^an', $options: 'i' } }, { s: /mile$/ }, { flag: { $exists: true } },
    { flag: { $exists: false } }, { $or: [{ n: 10 }, { s: 'Ana' }] }, { $nor: [{ n: 1 }, { flag: false }] }, { $and: [{ n: { $gt: 0 } }, { n: { $lt: 5 } }] },
    { flag: { $ne: null } }, { _id: { $in: ['a', 'z'] } },
  ];
  for (const f of filters) {
    const got = (await sqlite.collection('m').find(f)).map((d) => d._id).sort();
    const want = (await memory.collection('m').find(f)).map((d) => d._id).sort();
    t.same(got, want, JSON.stringify(f, (_, v) => (v instanceof RegExp ? String(v) : v)));
    t.equal(await sqlite.collection('m').count(f), want.length);
  }
  const byS = (await sqlite.collection('m').find({}, { sort: { s: 1 } })).map((d) => d.s);
  t.same(byS, ['Ana', 'Zoë', 'ana', 'Émile', 'Ａ fullwidth', '😀 emoji'], 'strings in code point order');
  const byN = (await sqlite.collection('m').find({ n: { $exists: true } }, { sort: { n: -1 } })).map((d) => d._id);
  t.same(byN, ['c', 'e', 'b', 'a', 'f'], 'descending: strings after numbers, numbers numerically');
});

t.test('documents and checkpoints outlive the process; a transaction is invisible until it commits', async (t) => {
  const file = join(dir, 'persist.db');
  const store = new SqliteReadStore({ filename: file });
  const orders = store.collection('orders', [{ status: 1 }]);
  let inside!: () => void;
  const reached = new Promise<void>((r) => (inside = r));
  let resume!: () => void;
  const gate = new Promise<void>((r) => (resume = r));
  const tx = store.transaction(async (view) => {
    await view.collection('orders').upsert({ _id: 'o1', status: 'pending' });
    t.equal((await view.collection('orders').find({ status: 'pending' })).length, 1, 'the transaction queries its own writes');
    await view.setCheckpoint('projector', 9n);
    inside();
    await gate;
  });
  await reached;
  t.equal(await orders.get('o1'), null, 'a reader does not see a batch in progress');
  t.equal(await store.getCheckpoint('projector'), null);
  const later = orders.upsert({ _id: 'o2', status: 'ready' });
  resume();
  await tx;
  await later;
  t.equal((await orders.get('o1'))?.status, 'pending');
  await store.close();

  const again = new SqliteReadStore({ filename: file });
  t.teardown(() => again.close());
  t.equal(await again.getCheckpoint('projector'), 9n);
  t.same((await again.collection('orders').find({}, { sort: { status: 1 } })).map((d) => d._id), ['o1', 'o2']);
  await again.clear();
  t.equal(await again.getCheckpoint('projector'), null);
  t.equal(await again.collection('orders').count(), 0);
  await again.collection('orders').upsert({ _id: 'o3', status: 'ready' });
  t.equal(await again.collection('orders').count({ status: 'ready' }), 1, 'usable after clear');
});

t.test('a failed transaction leaves nothing, not even a table it created', async (t) => {
  const store = fresh();
  t.teardown(() => store.close());
  await t.rejects(store.transaction(async (view) => {
    await view.collection('brand_new', [{ a: 1 }]).upsert({ _id: '1', a: 1 });
    await view.collection('brand_new').find({ a: 1 });
    throw new Error('crash');
  }), /crash/);
  t.equal(await store.collection('brand_new').count(), 0);
  await store.collection('brand_new').upsert({ _id: '2', a: 2 });
  t.equal(await store.collection('brand_new').count({ a: 2 }), 1, 'the table is created again on next use');
});

t.test('the standalone opens <data dir>/read-models.db; a damaged one is moved aside and started afresh', async (t) => {
  const dataDir = join(dir, 'data');
  const first = await openReadStore({ dataDir, readStoreUrl: null, embeddedReadStore: 'sqlite' });
  t.ok(first instanceof SqliteReadStore);
  await first.close();
  t.ok(existsSync(readModelsPath(dataDir)));
  t.ok((await openReadStore({ dataDir, embeddedReadStore: 'memory' })) instanceof MemoryReadStore, 'memory: stays selectable');
  writeFileSync(readModelsPath(dataDir), 'not a database at all, but long enough to have a header of sorts...........................................');
  const again = await openReadStore({ dataDir, embeddedReadStore: 'sqlite' });
  t.teardown(() => again.close());
  await again.collection('a').upsert({ _id: '1' });
  t.equal(await again.collection('a').count(), 1);
  t.ok(readdirSync(dataDir).some((f) => f.startsWith('read-models.db.damaged-')), 'the damaged file is kept aside');
});

t.test('inside a transaction: nested transactions join it; drop and clear are refused', async (t) => {
  const store = fresh();
  t.teardown(() => store.close());
  await store.transaction(async (view) => {
    await view.transaction!(async (inner) => {
      await inner.collection('n').upsert({ _id: '1' });
      t.equal(await inner.getCheckpoint('p'), null);
    });
    await t.rejects(view.drop('n'), /not available inside/);
    await t.rejects(view.clear(), /not available inside/);
    await view.ping();
    await view.close();
  });
  t.equal(await store.collection('n').count(), 1);
  await store.ping();
});

t.test('a collection nothing has written, or whose table is dropped after it was read, answers empty', async (t) => {
  const store = fresh();
  t.teardown(() => store.close());
  const dishes = store.collection('dishes');
  t.same(await dishes.find({}), []);
  t.equal(await dishes.count(), 0);
  t.equal(await dishes.get('x'), null);
  await dishes.upsert({ _id: 'd1', name: 'Tacos' });
  t.equal(await dishes.count(), 1, 'the table is seen once written');
  await store.drop('dishes');
  t.same(await dishes.find({}), [], 'a table seen earlier and dropped since is empty again');
  t.equal(await dishes.count(), 0);
  await dishes.upsert({ _id: 'd2', name: 'Agua' });
  t.same((await dishes.find({})).map((d) => d._id), ['d2']);
});
