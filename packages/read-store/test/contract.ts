import t from 'tap';
import { randomUUID } from 'node:crypto';
import type { ReadStore } from '../src/index.js';

type Order = { _id: string; status: string; total: number; waiter: string; created: number };

/** The ReadStore contract; collection names are unique per run so a shared server can be used. */
export function readStoreContract(name: string, open: () => Promise<ReadStore>): void {
  t.test(`ReadStore contract: ${name}`, async (t) => {
    const store = await open();
    t.teardown(() => store.close());
    const orders = store.collection<Order>(`orders_${randomUUID().slice(0, 8)}`, [{ status: 1, created: -1 }]);
    const seed: Order[] = [
      { _id: 'o1', status: 'pending', total: 1000, waiter: 'Ana', created: 1 },
      { _id: 'o2', status: 'ready', total: 2500, waiter: 'Bruno', created: 2 },
      { _id: 'o3', status: 'completed', total: 400, waiter: 'Ana María', created: 3 },
      { _id: 'o4', status: 'pending', total: 9900, waiter: 'carla', created: 4 },
    ];
    for (const o of seed) await orders.upsert(o);

    t.test('get, upsert replaces, delete', async (t) => {
      t.same(await orders.get('o2'), seed[1]);
      t.equal(await orders.get('nope'), null);
      await orders.upsert({ ...seed[1]!, status: 'completed' });
      t.equal((await orders.get('o2'))?.status, 'completed');
      await orders.upsert(seed[1]!);
      const temp = store.collection<Order>(`tmp_${randomUUID().slice(0, 8)}`);
      await temp.upsert({ ...seed[0]!, _id: 'x' });
      await temp.delete('x');
      t.equal(await temp.get('x'), null);
      await temp.delete('x');
    });

    t.test('filters with $in, $gte and $regex', async (t) => {
      const ids = (docs: Order[]) => docs.map((d) => d._id).sort();
      t.same(ids(await orders.find({ status: { $in: ['pending', 'ready'] } })), ['o1', 'o2', 'o4']);
      t.same(ids(await orders.find({ total: { $gte: 2500 } })), ['o2', 'o4']);
      t.same(ids(await orders.find({ waiter: { $regex: '^ana', $options: 'i' } })), ['o1', 'o3']);
      t.same(ids(await orders.find({ created: { $gte: 2, $lt: 4 }, status: 'ready' })), ['o2']);
      t.equal(await orders.count({ status: 'pending' }), 2);
      t.equal(await orders.count(), 4);
    });

    t.test('sort, skip and limit', async (t) => {
      const page = await orders.find({}, { sort: { created: -1 }, skip: 1, limit: 2 });
      t.same(page.map((d) => d._id), ['o3', 'o2']);
      const byTotal = await orders.find({ status: 'pending' }, { sort: { total: 1 } });
      t.same(byTotal.map((d) => d._id), ['o1', 'o4']);
      t.same(await orders.find({}, { sort: { created: 1 }, skip: 10 }), []);
    });

    t.test('a transaction commits documents and checkpoint together, or neither', async (t) => {
      if (!store.transaction) {
        t.comment(`${name} has no transactions: the projector relies on per-document guards (at least once)`);
        return;
      }
      const name_ = `tx_${randomUUID().slice(0, 8)}`;
      const docs = (s: ReadStore) => s.collection<Order>(name_, [{ status: 1 }]);
      await store.transaction(async (tx) => {
        await docs(tx).upsert({ ...seed[0]!, _id: 'kept' });
        await tx.setCheckpoint(name_, 7n);
        t.equal((await docs(tx).get('kept'))?._id, 'kept', 'the transaction reads its own writes');
      });
      t.equal((await docs(store).get('kept'))?._id, 'kept');
      await t.rejects(
        store.transaction(async (tx) => {
          await docs(tx).upsert({ ...seed[0]!, _id: 'lost' });
          await docs(tx).delete('kept');
          await tx.setCheckpoint(name_, 8n);
          throw new Error('crash mid-batch');
        }),
        /crash mid-batch/,
      );
      t.equal(await docs(store).get('lost'), null, 'no document of a failed transaction');
      t.ok(await docs(store).get('kept'), 'no delete of a failed transaction');
      t.equal(await store.getCheckpoint(name_), 7n, 'no checkpoint of a failed transaction');
      // A query in a batch sees the batch's writes so far (PostgreSQL sends writes at commit, and
      // a query makes it a real transaction first), and a failure after it still undoes them all.
      await t.rejects(
        store.transaction(async (tx) => {
          await docs(tx).upsert({ ...seed[0]!, _id: 'seen', status: 'held' });
          await docs(tx).delete('kept');
          t.same((await docs(tx).find({ status: 'held' })).map((d) => d._id), ['seen'], 'a find sees the upsert before it');
          t.equal(await docs(tx).count({ status: seed[0]!.status }), 0, 'and the delete');
          await docs(tx).upsert({ ...seed[0]!, _id: 'after' });
          t.equal((await docs(tx).get('after'))?._id, 'after', 'writes after the query are read too');
          throw new Error('crash after a query');
        }),
        /crash after a query/,
      );
      t.equal(await docs(store).get('seen'), null, 'nothing of it was committed');
      t.equal(await docs(store).get('after'), null);
      t.ok(await docs(store).get('kept'));
      await store.transaction(async (tx) => {
        await docs(tx).upsert({ ...seed[0]!, _id: 'queried', status: 'held' });
        t.equal(await docs(tx).count({ status: 'held' }), 1);
        await docs(tx).upsert({ ...seed[0]!, _id: 'later' });
        await tx.setCheckpoint(name_, 9n);
      });
      t.ok(await docs(store).get('queried'), 'a batch that queried commits what it wrote before the query');
      t.ok(await docs(store).get('later'), 'and after it');
      t.equal(await store.getCheckpoint(name_), 9n);
    });

    t.test('generation: moves on when a write becomes visible, and only then', async (t) => {
      if (!store.generation) {
        t.comment(`${name} is shared with other processes: no generation, so the API caches no answer from it`);
        return;
      }
      const c = `gen_${randomUUID().slice(0, 8)}`;
      const other = `gen_${randomUUID().slice(0, 8)}`;
      const at = () => [store.generation!(c), store.generation!(other)];
      const [g0, o0] = at();
      await store.collection<Order>(c).upsert({ ...seed[0]!, _id: 'g' });
      t.not(store.generation(c), g0, 'an upsert moves it on');
      t.equal(store.generation(other), o0, 'another collection keeps its own');
      const g1 = store.generation(c);
      await store.collection<Order>(c).delete('g');
      t.not(store.generation(c), g1, 'so does a delete');
      if (store.transaction) {
        const g2 = store.generation(c);
        await store.transaction(async (tx) => {
          await tx.collection<Order>(c).upsert({ ...seed[0]!, _id: 'h' });
          t.equal(store.generation!(c), g2, 'not before the transaction commits: readers do not see it yet');
        });
        t.not(store.generation(c), g2, 'moved on at commit');
        const g3 = store.generation(c);
        await t.rejects(store.transaction(async (tx) => {
          await tx.collection<Order>(c).upsert({ ...seed[0]!, _id: 'i' });
          throw new Error('rolled back');
        }));
        t.equal(store.generation(c), g3, 'a rolled-back transaction changes nothing');
      }
      const g4 = store.generation(c);
      await store.drop(c);
      t.not(store.generation(c), g4, 'drop moves it on');
    });

    t.test('more operators: $ne, $nin, $lte, $exists, $or, null', async (t) => {
      const ids = (docs: Order[]) => docs.map((d) => d._id).sort();
      t.same(ids(await orders.find({ status: { $ne: 'pending' } })), ['o2', 'o3']);
      t.same(ids(await orders.find({ status: { $nin: ['pending', 'ready'] } })), ['o3']);
      t.same(ids(await orders.find({ total: { $lte: 1000 } })), ['o1', 'o3']);
      t.same(ids(await orders.find({ $or: [{ waiter: 'carla' }, { total: 400 }] })), ['o3', 'o4']);
      t.same(ids(await orders.find({ missing: { $exists: false }, created: { $gt: 3 } })), ['o4']);
      t.same(ids(await orders.find({ missing: null, total: { $lt: 1000 } })), ['o3']);
      t.same(ids(await orders.find({ _id: { $in: ['o2', 'o9'] } })), ['o2']);
      t.same(await orders.find({ total: { $gte: '1000' } }), [], 'a string bound does not match numbers');
      const sorted = await orders.find({}, { sort: { waiter: 1 } });
      t.same(sorted.map((d) => d.waiter), ['Ana', 'Ana María', 'Bruno', 'carla'], 'strings sort by code point');
    });

    t.test('drop empties one collection, and leaves the others and the checkpoints', async (t) => {
      const names = [`drop_a_${randomUUID().slice(0, 8)}`, `drop_b_${randomUUID().slice(0, 8)}`];
      const a = store.collection<Order>(names[0]!, [{ status: 1 }]);
      const b = store.collection<Order>(names[1]!);
      await a.upsert(seed[0]!);
      await b.upsert(seed[1]!);
      await store.setCheckpoint(names[0]!, 4n);
      await store.drop(names[0]!);
      t.equal(await a.count(), 0);
      t.equal(await b.count(), 1);
      t.equal(await store.getCheckpoint(names[0]!), 4n);
      await a.upsert(seed[2]!);
      t.same((await a.find({ status: 'completed' })).map((d) => d._id), ['o3'], 'the collection works again, indexes and all');
      await store.drop(`never_${randomUUID().slice(0, 8)}`);
    });

    t.test('holds only what the log rebuilds: no login attempt counters (issue 58: their own port, @comanda/attempts)', async (t) => {
      t.notOk('admitAttempt' in store, 'no admitAttempt');
      t.notOk('settleAttempt' in store, 'no settleAttempt');
    });

    t.test('checkpoints keep bigints exactly', async (t) => {
      const name = `proj_${randomUUID().slice(0, 8)}`;
      t.equal(await store.getCheckpoint(name), null);
      const big = (1n << 70n) + 3n;
      await store.setCheckpoint(name, big);
      t.equal(await store.getCheckpoint(name), big);
      await store.setCheckpoint(name, 5n);
      t.equal(await store.getCheckpoint(name), 5n);
      await store.ping();
    });
  });
}
