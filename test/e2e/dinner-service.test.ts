import t from 'tap';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableStream } from '@comanda/domain';
import { SqliteEventStore } from '@comanda/event-store';
import { Client } from '../src/http-client.js';
import { startStandalone } from '../src/standalone-process.js';

const env = (dataDir: string) => ({ COMANDA_DATA_DIR: dataDir, COMANDA_ADMIN_PIN: '1234', COMANDA_TIMEZONE: 'America/Mexico_City' });

t.test('a dinner service over real HTTP: floor, menu, three orders, tables freed, sales of the day', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-dinner-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const pos = await startStandalone(env(dataDir));
  t.teardown(() => pos.stop());
  const manager = new Client(pos.url);
  await manager.login('admin', '1234');
  const ok = (res: { status: number; body: unknown }, status: number) => {
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body as Record<string, unknown> & { id: string };
  };

  const waiterId = ok(await manager.post('/users', { name: 'Marisol', pin: '2580', role: 'waiter' }), 201).id;
  const space = ok(await manager.post('/spaces', { name: 'Patio' }), 201).id;
  const tables = [];
  for (const name of ['P1', 'P2', 'P3']) tables.push(ok(await manager.post('/tables', { name, status: 'available', space_id: space, order_id: null }), 201).id);
  const category = ok(await manager.post('/categories', { name: 'Platos fuertes' }), 201).id;
  const dish = async (name: string, price: number) => {
    const res = await manager.post('/dishes', { name, price, category_id: category });
    t.equal(res.body, 'Dish added successfully');
    return res.headers.get('location')!.split('/').pop()!;
  };
  const mole = await dish('Mole poblano', 185.5);
  const chiles = await dish('Chiles en nogada', 210);

  const waiter = new Client(pos.url);
  await waiter.login('marisol', '2580');
  const orders = [];
  for (const table of tables) {
    const id = ok(await waiter.post('/orders', { user_id: waiterId, table_id: table, waiter: 'Marisol', status: 'pending', total: 0 }), 201).id;
    ok(await waiter.post(`/orders/${id}/dishes`, [{ dish_id: mole, price_at_order: 185.5, notes: '' }, { dish_id: chiles, price_at_order: 210, notes: 'sin nuez' }]), 201);
    orders.push(id);
  }
  const seated = (await waiter.get(`/tables/by-space/${space}`)).body as Array<{ status: string; order_id: string | null }>;
  t.same(seated.map((x) => x.status), ['occupied', 'occupied', 'occupied']);

  const body = (i: number, status: string) => ({ user_id: waiterId, table_id: tables[i], waiter: 'Marisol', status });
  for (const status of ['preparing', 'ready', 'completed']) ok(await waiter.put(`/orders/${orders[0]}`, body(0, status)), 200);
  for (const status of ['preparing', 'ready', 'completed']) ok(await waiter.put(`/orders/${orders[1]}`, body(1, status)), 200);
  ok(await waiter.put(`/orders/${orders[2]}`, body(2, 'cancelled')), 200);

  const after = (await waiter.get(`/tables/by-space/${space}`)).body as Array<{ status: string; order_id: string | null }>;
  t.same(after.map((x) => [x.status, x.order_id]), [['available', null], ['available', null], ['available', null]], 'every table freed');
  t.same(((await waiter.get('/orders/status/completed')).body as Array<{ id: string }>).map((o) => o.id).sort(), [orders[0], orders[1]].sort());
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
  const sales = (await manager.get(`/orders/total-sales/${today}`)).body;
  t.match(sales, { date: today, total_sales: 791, orders: 2 });
  t.equal((await waiter.get(`/orders/total-sales/${today}`)).status, 403);
  t.equal(await pos.stop(), 0);
});

t.test('a crash between seating an order and writing it: the table is freed after restart', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-crash-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = await startStandalone(env(dataDir));
  t.teardown(() => first.stop());
  const admin = new Client(first.url);
  await admin.login('admin', '1234');
  const space = (await admin.post('/spaces', { name: 'Barra' })).body as { id: string };
  const table = (await admin.post('/tables', { name: 'B1', status: 'available', space_id: space.id, order_id: null })).body as { id: string };
  // The process is killed right after the table's append (its own stream), before the order's.
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));
  const log = new SqliteEventStore({ filename: join(dataDir, 'events.db') });
  await log.append(tableStream(table.id), [{
    id: randomUUID(), type: 'TableOccupied', data: { tableId: table.id, orderId: randomUUID() },
    metadata: { occurredAt: Date.now() - 60_000, schemaVersion: 1 },
  }], 'no_stream');
  await log.close();

  const second = await startStandalone(env(dataDir));
  t.teardown(() => second.stop());
  const again = new Client(second.url);
  await again.login('admin', '1234');
  let seen: { status: string; order_id: string | null } | undefined;
  for (let i = 0; i < 100; i++) {
    seen = (await again.get(`/tables/${table.id}`)).body as typeof seen;
    if (seen?.status === 'available') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  t.match(seen, { status: 'available', order_id: null }, 'the process manager released the orphaned seat');
  t.equal(await second.stop(), 0);
});
