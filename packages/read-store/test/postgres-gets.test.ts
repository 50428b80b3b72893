import t from 'tap';
import { BatchedGets } from '../src/postgres-gets.js';

/** A database that records each statement and answers from a table of documents, after a turn. */
function recordingDb(tables: Record<string, Record<string, unknown>>, failOn?: string) {
  const statements: Array<{ name: string; values: unknown[] }> = [];
  const db = {
    query: async (q: { name: string; text: string; values: unknown[] }) => {
      statements.push({ name: q.name, values: q.values });
      await new Promise((r) => setTimeout(r, 1));
      const table = /FROM (\S+)/.exec(q.text)![1]!;
      if (table === failOn) throw new Error(`${table} is unavailable`);
      const ids = (Array.isArray(q.values[0]) ? q.values[0] : q.values) as string[];
      return { rows: ids.filter((id) => id in tables[table]!).map((id) => ({ id, doc: tables[table]![id] })) };
    },
  };
  return { db, statements };
}

t.test('gets of one turn: one statement per table, each id once, every caller answered', async (t) => {
  const { db, statements } = recordingDb({ t1: { a: { n: 1 }, b: { n: 2 } }, t2: { c: { n: 3 } } });
  const gets = new BatchedGets(db as never);
  const answers = await Promise.all([
    gets.get('t1', 's1', 'a'), gets.get('t1', 's1', 'b'), gets.get('t1', 's1', 'a'), gets.get('t2', 's2', 'c'), gets.get('t2', 's2', 'missing'),
  ]);
  t.same(answers, [{ n: 1 }, { n: 2 }, { n: 1 }, { n: 3 }, null]);
  t.same(statements, [{ name: 's1_get_many', values: [['a', 'b']] }, { name: 's2_get_many', values: [['c', 'missing']] }]);
  statements.length = 0;
  t.same(await gets.get('t1', 's1', 'b'), { n: 2 });
  t.same(statements, [{ name: 's1_get', values: ['b'] }], 'alone: the single-row statement');
});

t.test('at most two batches in flight: what is asked meanwhile goes in the next, together', async (t) => {
  const docs = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`d${i}`, { i }]));
  const { db, statements } = recordingDb({ t: docs });
  const gets = new BatchedGets(db as never);
  const first = gets.get('t', 's', 'd0');
  await new Promise((r) => setImmediate(r));
  const second = gets.get('t', 's', 'd1');
  await new Promise((r) => setImmediate(r));
  // Two batches are on the wire: these 28 wait, then go as one statement.
  const rest = Array.from({ length: 28 }, (_, i) => gets.get('t', 's', `d${i + 2}`));
  const all = await Promise.all([first, second, ...rest]);
  t.same(all.map((d) => (d as { i: number }).i), Array.from({ length: 30 }, (_, i) => i));
  t.equal(statements.length, 3, `three statements: ${JSON.stringify(statements.map((s) => s.name))}`);
});

t.test('a failed statement fails its callers only', async (t) => {
  const { db } = recordingDb({ ok: { a: { n: 1 } }, broken: {} }, 'broken');
  const gets = new BatchedGets(db as never);
  const [ok, broken] = await Promise.allSettled([gets.get('ok', 's', 'a'), gets.get('broken', 'b', 'a')]);
  t.same(ok, { status: 'fulfilled', value: { n: 1 } });
  t.match(broken, { status: 'rejected', reason: { message: 'broken is unavailable' } });
  t.same(await gets.get('broken', 'b', 'a').catch((e: Error) => e.message), 'broken is unavailable', 'and the next asks again');
});
