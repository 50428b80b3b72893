import t from 'tap';
import pg from 'pg';
import { freshDatabase, postgresAvailable, sharedPostgres } from '@comanda/postgres';
import type { Filter, FindOptions } from '@comanda/read-store';
import { PostgresReadStore, countQuery, findQuery } from '@comanda/read-store/postgres';
import { DISHES, KITCHEN_TICKETS, ORDERS, STATIONS, TABLES, TICKETS, UNMATCHED_PAYMENTS, allProjections } from '../src/index.js';

/**
 * Realistic read models, large enough that the planner prefers an index wherever one fits: a year of
 * orders, mostly completed; kitchen tickets, mostly closed, a few on the boards; bills mostly paid.
 */
const ROWS = 40_000;
const T0 = 1_700_000_000_000;
const FILL: Record<string, string> = {
  [ORDERS]: `SELECT 'o' || i, jsonb_build_object('_id', 'o' || i, 'id', 'o' || i,
      'status', CASE i % 50 WHEN 0 THEN 'pending' WHEN 1 THEN 'preparing' WHEN 2 THEN 'ready' WHEN 3 THEN 'cancelled' ELSE 'completed' END,
      'user_id', 'u' || (i % 20), 'table_id', CASE WHEN i % 10 = 0 THEN NULL ELSE 't' || (i % 200) END,
      'placed_at', ${T0} + i * 60000::bigint, 'completed_at', CASE WHEN i % 50 > 3 THEN ${T0} + i * 60000::bigint + 1800000 END, 'total_cents', 1250)
    FROM generate_series(1, ${ROWS}) i`,
  [KITCHEN_TICKETS]: `SELECT 'k' || i, jsonb_build_object('_id', 'k' || i, 'id', 'k' || i, 'order_id', 'o' || (i / 2), 'station_id', 's' || (i % 6),
      'status', CASE WHEN i % 100 = 0 THEN 'open' WHEN i % 100 < 20 THEN 'done' ELSE 'closed' END,
      'fired_at', ${T0} + i * 30000::bigint, 'bumped_at', CASE WHEN i % 100 <> 0 THEN ${T0} + i * 30000::bigint + 600000 END,
      'closed_at', CASE WHEN i % 100 >= 20 THEN ${T0} + i * 30000::bigint + 1200000 END, '_position', lpad((i::bigint * 1048576)::text, 40, '0'))
    FROM generate_series(1, ${ROWS}) i`,
  [TICKETS]: `SELECT 'b' || i, jsonb_build_object('_id', 'b' || i, 'id', 'b' || i, 'order_id', 'o' || (i * 7 % 30000),
      'status', CASE i % 20 WHEN 0 THEN 1 WHEN 1 THEN 3 ELSE 2 END, 'issued_at', ${T0} + i * 60000::bigint, 'subtotal_cents', 1250, 'applied_cents', 0)
    FROM generate_series(1, ${ROWS}) i`,
  [UNMATCHED_PAYMENTS]: `SELECT 'p' || i, jsonb_build_object('_id', 'p' || i, 'received_at', ${T0} + i * 1000::bigint) FROM generate_series(1, ${ROWS / 4}) i`,
  [TABLES]: `SELECT 't' || i, jsonb_build_object('_id', 't' || i, 'space_id', 'sp' || (i % 50), 'name', 'Table ' || i) FROM generate_series(1, ${ROWS / 8}) i`,
  [STATIONS]: `SELECT 's' || i, jsonb_build_object('_id', 's' || i, 'name', 'Station ' || i, 'chosen', i = 1) FROM generate_series(1, ${ROWS / 8}) i`,
  [DISHES]: `SELECT 'd' || i, jsonb_build_object('_id', 'd' || i, 'name', 'Dish ' || i) FROM generate_series(1, ${ROWS / 8}) i`,
};

interface ListQuery {
  /** Who reads it: the route or use case. */
  by: string;
  collection: string;
  filter: Filter;
  options?: FindOptions;
  /** Also its X-Total-Count (findPage counts what it pages). */
  counted?: boolean;
}

const day = { $gte: T0 + 10_000 * 60_000, $lt: T0 + 10_000 * 60_000 + 86_400_000 };
const page = (sort: FindOptions['sort'], limit = 20): FindOptions => ({ sort, limit });
/**
 * Every list query of the API and the use cases that reads part of a large collection. Lists that
 * answer a whole collection by design (the floor's tables, the menu, spaces, users) read every row
 * whatever the plan, and are left out; so are unfiltered counts (X-Total-Count of GET /orders).
 */
const QUERIES: ListQuery[] = [
  { by: 'GET /orders', collection: ORDERS, filter: {}, options: page({ placed_at: -1 }) },
  { by: 'GET /orders?offset=200', collection: ORDERS, filter: {}, options: { sort: { placed_at: -1 }, skip: 200, limit: 20 } },
  { by: 'GET /orders/user/{id}', collection: ORDERS, filter: { user_id: 'u3' }, options: page({ placed_at: -1 }), counted: true },
  { by: 'GET /orders/table/{id}', collection: ORDERS, filter: { table_id: 't7' }, options: page({ placed_at: -1 }), counted: true },
  { by: 'GET /orders/status/{status}', collection: ORDERS, filter: { status: 'pending' }, options: page({ placed_at: -1 }), counted: true },
  { by: 'GET /orders/date-range', collection: ORDERS, filter: { placed_at: day }, options: page({ placed_at: -1 }), counted: true },
  { by: 'GET /orders/total-sales/{date}, the Z report', collection: ORDERS, filter: { status: 'completed', completed_at: day } },
  { by: 'GET /kitchen/tickets', collection: KITCHEN_TICKETS, filter: { status: 'open' }, options: { sort: { fired_at: 1 } }, counted: true },
  { by: 'GET /kitchen/tickets?station_id', collection: KITCHEN_TICKETS, filter: { status: 'open', station_id: 's1' }, options: { sort: { fired_at: 1 } }, counted: true },
  { by: 'GET /kitchen/tickets?status=done', collection: KITCHEN_TICKETS, filter: { status: 'done' }, options: page({ bumped_at: -1 }, 50) },
  { by: 'GET /kitchen/tickets?status=done&station_id', collection: KITCHEN_TICKETS, filter: { status: 'done', station_id: 's1' }, options: page({ bumped_at: -1 }, 50) },
  { by: 'GET /kitchen/tickets?status=closed', collection: KITCHEN_TICKETS, filter: { status: 'closed' }, options: page({ closed_at: -1 }, 50) },
  { by: 'GET /kitchen/tickets?status=closed&station_id', collection: KITCHEN_TICKETS, filter: { status: 'closed', station_id: 's1' }, options: page({ closed_at: -1 }, 50) },
  { by: 'kitchen SSE catch-up', collection: KITCHEN_TICKETS, filter: { _position: { $gt: String((ROWS - 100) * 1048576).padStart(40, '0') } }, options: page({ _position: 1 }, 201) },
  { by: 'kitchen SSE catch-up of a station', collection: KITCHEN_TICKETS, filter: { station_id: 's1', _position: { $gt: String((ROWS - 100) * 1048576).padStart(40, '0') } }, options: page({ _position: 1 }, 201) },
  { by: 'kitchen SSE recently bumped', collection: KITCHEN_TICKETS, filter: { station_id: 's1', status: 'done' }, options: page({ bumped_at: -1 }, 10) },
  { by: 'GET /orders/{id}/tickets', collection: TICKETS, filter: { order_id: 'o70' }, options: { sort: { issued_at: 1, _id: 1 } }, counted: true },
  { by: 'GET /tickets', collection: TICKETS, filter: {}, options: page({ issued_at: 1, _id: 1 }) },
  { by: 'GET /tickets?status', collection: TICKETS, filter: { status: 1 }, options: page({ issued_at: 1, _id: 1 }), counted: true },
  { by: 'Z report: bills of an order', collection: TICKETS, filter: { order_id: 'o70', status: { $ne: 3 } } },
  { by: 'GET /wallet/unmatched', collection: UNMATCHED_PAYMENTS, filter: {}, options: page({ received_at: -1 }) },
  { by: 'GET /spaces/{id}/tables', collection: TABLES, filter: { space_id: 'sp7' }, options: { sort: { name: 1 } }, counted: true },
  { by: 'the chosen station', collection: STATIONS, filter: { chosen: true } },
  { by: 'a receipt\'s dishes', collection: DISHES, filter: { _id: { $in: ['d1', 'd2', 'd3'] } } },
];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
const describe = (n: PlanNode, depth = 0): string =>
  [`${'  '.repeat(depth)}${n['Node Type']}${n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}`, ...(n.Plans ?? []).map((c) => describe(c, depth + 1))].join('\n');

if (!postgresAvailable() && !process.env.COMANDA_TEST_POSTGRES_URL) {
  t.fail('PostgreSQL is not installed (apt-get install postgresql, or set COMANDA_TEST_POSTGRES_URL)');
} else {
  const url = await freshDatabase((await sharedPostgres()).url);
  const [store, direct] = [PostgresReadStore.open(url), new pg.Client({ connectionString: url })];
  await direct.connect();
  t.teardown(() => Promise.all([store.close(), direct.end()]));
  // As in the projector: its projections declare their indexes at start, then every write goes
  // through an instance that declares none; the first use creates the table.
  for (const p of allProjections) for (const [name, indexes] of Object.entries(p.collections ?? {})) store.collection(name, indexes);
  for (const [name, fill] of Object.entries(FILL)) {
    await store.collection(name).count();
    await direct.query(`INSERT INTO rm_${name} (id, doc) ${fill}`);
    await direct.query(`ANALYZE rm_${name}`);
  }
  const plan = async (q: { text: string; values: unknown[] }) => {
    const r = await direct.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) ${q.text}`, q.values);
    return r.rows[0]!['QUERY PLAN'][0]!.Plan;
  };

  t.test('every list query reads an index, never the whole table, and a page is read in order', async (t) => {
    for (const q of QUERIES) {
      const found = await plan(findQuery(q.collection, q.filter, q.options));
      const scans = nodes(found).filter((n) => n['Node Type'] === 'Seq Scan');
      t.same(scans, [], `${q.by}: no sequential scan\n${describe(found)}`);
      if (q.options?.limit !== undefined) t.notOk(nodes(found).some((n) => n['Node Type'] === 'Sort'), `${q.by}: the page comes in order from the index, unsorted\n${describe(found)}`);
      if (q.counted) {
        const counted = await plan(countQuery(q.collection, q.filter));
        t.notOk(nodes(counted).some((n) => n['Node Type'] === 'Seq Scan'), `${q.by}: its count reads an index\n${describe(counted)}`);
      }
    }
  });

  t.test('the indexed queries answer what they answered before: filters and order unchanged', async (t) => {
    const orders = store.collection(ORDERS);
    const pending = await orders.find({ status: 'pending' }, page({ placed_at: -1 }, 3));
    t.same(pending.map((o) => o._id), ['o40000', 'o39950', 'o39900']);
    t.equal(await orders.count({ table_id: 't7' }), 200);
    const bills = store.collection(TICKETS);
    t.same((await bills.find({ status: 1 }, page({ issued_at: 1, _id: 1 }, 2))).map((b) => b._id), ['b20', 'b40'], 'a number equals a number');
    t.same((await store.collection(STATIONS).find({ chosen: true })).map((s) => s._id), ['s1'], 'a boolean equals a boolean');
    t.same((await store.collection(DISHES).find({ _id: { $in: ['d2', 'd1', 'nope'] } }, { sort: { _id: -1 } })).map((d) => d._id), ['d2', 'd1'], '_id is the key');
    t.equal((await orders.find({ placed_at: day })).length, 1440, 'a day of orders by range');
  });
}
