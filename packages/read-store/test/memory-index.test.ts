import t from 'tap';
import { Query } from 'mingo';
import { MemoryReadStore } from '../src/index.js';
import type { Doc, Filter, FindOptions } from '../src/index.js';

/**
 * The memory store's indexes change how a query is answered, never what: random writes and random
 * queries (equalities, ranges, null, $in, sorts with ties, pages) must give exactly what mingo gives
 * over every document in insertion order, as the store did before it had indexes.
 */
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

const statuses = ['pending', 'ready', 'completed', 'Completed', 'é'] as const;
const someValue = () => pick<unknown>([...statuses, null, undefined, 7, 'pending']);
const doc = (id: string): Doc => {
  const d: Record<string, unknown> = { _id: id, status: someValue(), placed_at: Math.floor(random() * 20), name: pick(['b', 'a', 'c', 'B', '']), total: Math.floor(random() * 5) * 100 };
  if (random() < 0.1) delete d.placed_at;
  if (random() < 0.1) d.completed_at = null;
  else d.completed_at = Math.floor(random() * 20);
  for (const [k, v] of Object.entries(d)) if (v === undefined) delete d[k];
  return d as Doc;
};

const filters: Array<() => Filter> = [
  () => ({}),
  () => ({ status: pick(statuses) }),
  () => ({ status: { $eq: pick(statuses) } }),
  () => ({ status: null }),
  () => ({ status: { $in: ['pending', 'ready'] } }),
  () => ({ status: 'completed', completed_at: { $gte: Math.floor(random() * 20), $lt: Math.floor(random() * 20) } }),
  () => ({ placed_at: { $gte: Math.floor(random() * 20), $lt: Math.floor(random() * 20) } }),
  () => ({ placed_at: { $gt: Math.floor(random() * 20) } }),
  () => ({ placed_at: { $lte: Math.floor(random() * 20) }, total: { $gte: 200 } }),
  () => ({ placed_at: { $gte: 'a' } }),
  () => ({ name: pick(['a', 'b', 'B']), status: pick(statuses) }),
  () => ({ status: 7 }),
  () => ({ $or: [{ status: 'pending' }, { name: 'a' }] }),
];
const sorts: Array<FindOptions['sort'] | undefined> = [undefined, { placed_at: -1 }, { placed_at: 1 }, { name: 1 }, { status: 1, placed_at: -1 }, { completed_at: 1 }, { total: -1, name: 1 }];

function reference(docs: Doc[], filter: Filter, options: FindOptions): Doc[] {
  let cursor = new Query(filter as never, {}).find<Doc>(docs);
  if (options.sort) cursor = cursor.sort(options.sort);
  if (options.skip) cursor = cursor.skip(options.skip);
  if (options.limit !== undefined) cursor = cursor.limit(options.limit);
  return cursor.all();
}

t.test('indexed answers equal mingo over all documents, in order', async (t) => {
  for (let round = 0; round < 20; round++) {
    const store = new MemoryReadStore();
    const indexed = store.collection('orders', [{ placed_at: -1 }, { status: 1, placed_at: -1 }, { status: 1, completed_at: 1 }, { name: 1 }]);
    const plain = new Map<string, Doc>();
    let mismatches = 0;
    for (let step = 0; step < 300; step++) {
      const id = `o${Math.floor(random() * 60)}`;
      if (random() < 0.15) {
        await indexed.delete(id);
        plain.delete(id);
      } else {
        // Often the same document again with only an unindexed field changed (an order's lines):
        // every index keeps the entry in place.
        const before = plain.get(id);
        const d = before && random() < 0.4 ? { ...before, total: Math.floor(random() * 5) * 100 } : doc(id);
        await indexed.upsert(d);
        plain.set(id, d);
      }
      if (step % 5 !== 0) continue;
      const filter = pick(filters)();
      const options: FindOptions = { sort: pick(sorts), ...(random() < 0.5 ? { skip: Math.floor(random() * 4), limit: 1 + Math.floor(random() * 6) } : {}) };
      if (!options.sort) delete options.sort;
      const want = reference([...plain.values()], filter, options).map((d) => d._id);
      const got = (await indexed.find(filter, options)).map((d) => d._id);
      const again = (await indexed.find(filter, options)).map((d) => d._id);
      const count = await indexed.count(filter);
      const wantCount = reference([...plain.values()], filter, {}).length;
      if (JSON.stringify(got) !== JSON.stringify(want) || JSON.stringify(again) !== JSON.stringify(want) || count !== wantCount) {
        mismatches++;
        t.same({ got, count }, { want, count: wantCount }, `round ${round} step ${step}: ${JSON.stringify(filter)} ${JSON.stringify(options)}`);
      }
    }
    t.equal(mismatches, 0, `round ${round}: every query agrees`);
  }
});

t.test('a cached answer is dropped by the next write', async (t) => {
  const store = new MemoryReadStore();
  const c = store.collection('tables', [{ name: 1 }]);
  await c.upsert({ _id: 't1', name: 'b' });
  t.same((await c.find({}, { sort: { name: 1 } })).map((d) => d._id), ['t1']);
  await c.upsert({ _id: 't2', name: 'a' });
  t.same((await c.find({}, { sort: { name: 1 } })).map((d) => d._id), ['t2', 't1']);
  const answer = await c.find({}, { sort: { name: 1 } });
  answer.pop();
  t.same((await c.find({}, { sort: { name: 1 } })).map((d) => d._id), ['t2', 't1'], 'a caller changing its array changes nothing for the next');
  await c.delete('t2');
  t.same((await c.find({}, { sort: { name: 1 } })).map((d) => d._id), ['t1']);
  await store.clear();
  t.same(await c.find({}), []);
});

t.test('an index added after documents exist knows them', async (t) => {
  const store = new MemoryReadStore();
  const c = store.collection('late');
  for (let i = 0; i < 10; i++) await c.upsert({ _id: `d${i}`, n: i % 3 });
  store.collection('late', [{ n: 1 }]);
  t.same((await c.find({ n: 1 })).map((d) => d._id), ['d1', 'd4', 'd7']);
});

t.test('a document with an array in an indexed field turns the index off, answers stay right', async (t) => {
  const store = new MemoryReadStore();
  const c = store.collection('tags', [{ tag: 1 }]);
  await c.upsert({ _id: 'a', tag: 'x' });
  await c.upsert({ _id: 'b', tag: ['x', 'y'] });
  t.same((await c.find({ tag: 'x' })).map((d) => d._id), ['a', 'b']);
});
