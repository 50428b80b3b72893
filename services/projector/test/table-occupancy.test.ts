import t from 'tap';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { FLOOR_STREAM, floor, order, orderStream, tableStream, ownAuthority } from '@comanda/domain';
import { seat, tableNow, unseat } from '@comanda/workflows';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { type CheckpointStore, Reactor, tableOccupancy } from '../src/index.js';

const memoryCheckpoint = (): CheckpointStore => {
  let p: bigint | null = null;
  return { get: async () => p, set: async (x) => void (p = x), flush: async () => {} };
};

async function restaurant() {
  const store = new MemoryEventStore();
  const commands = new CommandHandler(store);
  const space = randomUUID();
  await commands.handle(floor, FLOOR_STREAM, { type: 'createSpace', spaceId: space, name: 'Salón' });
  const tables = [randomUUID(), randomUUID()];
  for (const [i, tableId] of tables.entries()) {
    await commands.handle(floor, FLOOR_STREAM, { type: 'addTable', tableId, name: `T${i}`, spaceId: space, status: 'available', orderId: null });
  }
  const tableOf = async (tableId: string) => (await tableNow(commands, tableId))!;
  const place = async (orderId: string, tableId: string) => {
    await seat(commands, tableId, orderId, {});
    await commands.handle(order, orderStream(orderId), { type: 'placeOrder', orderId, userId: 'u', tableId, waiter: 'w', at: 1, lines: [], authority: ownAuthority('test-manager', 'manager') });
  };
  return { store, commands, tables, tableOf, place };
}

const settle = async (check: () => Promise<boolean>) => {
  const end = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

t.test('a seat taken by an order that was never written is released (crash between the appends)', async (t) => {
  const r = await restaurant();
  const ghost = randomUUID();
  // What a process that died after seating left behind.
  await seat(r.commands, r.tables[0]!, ghost, {});
  const live = randomUUID();
  await r.place(live, r.tables[1]!);
  const reactor = new Reactor(r.store, memoryCheckpoint(), [tableOccupancy(r.commands, Date.now, 0)], pino({ level: 'silent' }));
  await reactor.start();
  t.teardown(() => reactor.stop());
  await settle(async () => (await r.tableOf(r.tables[0]!)).orderId === null);
  t.match(await r.tableOf(r.tables[0]!), { status: 'available', orderId: null });
  t.match(await r.tableOf(r.tables[1]!), { status: 'occupied', orderId: live }, 'a real order keeps its table');
});

t.test('a finished order frees its table even if the API died before releasing it', async (t) => {
  const r = await restaurant();
  const reactor = new Reactor(r.store, memoryCheckpoint(), [tableOccupancy(r.commands, Date.now, 0)], pino({ level: 'silent' }));
  await reactor.start();
  t.teardown(() => reactor.stop());
  const cancelled = randomUUID();
  const deleted = randomUUID();
  await r.place(cancelled, r.tables[0]!);
  await r.place(deleted, r.tables[1]!);
  await r.commands.handle(order, orderStream(cancelled), { type: 'changeStatus', to: 'cancelled', at: 2 });
  await r.commands.handle(order, orderStream(deleted), { type: 'deleteOrder' });
  await settle(async () => (await r.tableOf(r.tables[0]!)).orderId === null && (await r.tableOf(r.tables[1]!)).orderId === null);
  t.pass('both tables released');
});

t.test('moves: the old table is released, but never one the order came back to', async (t) => {
  const r = await restaurant();
  const o = randomUUID();
  const [a, b] = r.tables as [string, string];
  await r.place(o, a);
  // Moved to b and back to a, releasing as the API does.
  await seat(r.commands, b, o, {});
  await r.commands.handle(order, orderStream(o), { type: 'updateOrder', userId: 'u', tableId: b, waiter: 'w', status: 'pending', at: 2, authority: ownAuthority('test-manager', 'manager') });
  await unseat(r.commands, a, o, {});
  await seat(r.commands, a, o, {});
  await r.commands.handle(order, orderStream(o), { type: 'updateOrder', userId: 'u', tableId: a, waiter: 'w', status: 'pending', at: 3, authority: ownAuthority('test-manager', 'manager') });
  // The API died here, before releasing b. Replaying every event must leave the order on a only.
  const reactor = new Reactor(r.store, memoryCheckpoint(), [tableOccupancy(r.commands, Date.now, 0)], pino({ level: 'silent' }));
  await reactor.start();
  t.teardown(() => reactor.stop());
  await settle(async () => (await r.tableOf(b)).orderId === null);
  t.match(await r.tableOf(a), { status: 'occupied', orderId: o });
});

t.test('a fresh seat waits out the grace period before judging', async (t) => {
  const r = await restaurant();
  let clock = 1_000_000;
  const reactor = new Reactor(r.store, memoryCheckpoint(), [tableOccupancy(r.commands, () => clock, 50)], pino({ level: 'silent' }));
  const o = randomUUID();
  await r.store.append(tableStream(r.tables[0]!), [{ id: randomUUID(), type: 'TableOccupied', data: { tableId: r.tables[0], orderId: o }, metadata: { occurredAt: clock } }], 'any');
  await reactor.start();
  t.teardown(() => reactor.stop());
  await new Promise((res) => setTimeout(res, 20));
  await r.commands.handle(order, orderStream(o), { type: 'placeOrder', orderId: o, userId: 'u', tableId: r.tables[0]!, waiter: 'w', at: 1, lines: [], authority: ownAuthority('test-manager', 'manager') });
  clock += 1000;
  await new Promise((res) => setTimeout(res, 100));
  t.match(await r.tableOf(r.tables[0]!), { orderId: o }, 'the order arrived within the grace period and keeps the table');
});

t.test('a seat in its grace period does not hold back the reactions after it', async (t) => {
  const r = await restaurant();
  const reactor = new Reactor(r.store, memoryCheckpoint(), [tableOccupancy(r.commands, Date.now, 60_000)], pino({ level: 'silent' }));
  await reactor.start();
  t.teardown(() => reactor.stop());
  // A ghost seat (an order never written): judged only after 60 s of grace.
  await seat(r.commands, r.tables[0]!, randomUUID(), {});
  // Meanwhile an order on another table is cancelled, and the API died before releasing its table.
  const cancelled = randomUUID();
  await r.place(cancelled, r.tables[1]!);
  const started = Date.now();
  await r.commands.handle(order, orderStream(cancelled), { type: 'changeStatus', to: 'cancelled', at: 2 });
  await settle(async () => (await r.tableOf(r.tables[1]!)).orderId === null);
  t.ok(Date.now() - started < 5_000, 'the cancelled order’s table was released without waiting out the other seat’s grace');
  t.match(await r.tableOf(r.tables[0]!), { status: 'occupied' }, 'the ghost seat is still in its grace period');
  t.equal(reactor.scheduled, 2, 'both seats wait in the due-time queue');
});

t.test('a table seated by the older code (in the floor stream) is released when its order is deleted', async (t) => {
  const r = await restaurant();
  const o = randomUUID();
  await r.commands.handle(order, orderStream(o), { type: 'placeOrder', orderId: o, userId: 'u', tableId: r.tables[0]!, waiter: 'w', at: 1, lines: [], authority: ownAuthority('test-manager', 'manager') });
  await r.store.append(FLOOR_STREAM, [{ id: randomUUID(), type: 'TableOccupied', data: { tableId: r.tables[0], orderId: o }, metadata: { occurredAt: Date.now() } }], 'any');
  const reactor = new Reactor(r.store, memoryCheckpoint(), [tableOccupancy(r.commands, Date.now, 0)], pino({ level: 'silent' }));
  await reactor.start();
  t.teardown(() => reactor.stop());
  t.match(await r.tableOf(r.tables[0]!), { status: 'occupied', orderId: o, version: 2 });
  // The API died after deleting the order, before releasing its table: the process manager does it.
  await r.commands.handle(order, orderStream(o), { type: 'deleteOrder' });
  await settle(async () => (await r.tableOf(r.tables[0]!)).orderId === null);
  t.match(await r.tableOf(r.tables[0]!), { status: 'available', version: 3 });
  t.same((await r.store.readStream(tableStream(r.tables[0]!))).map((e) => e.type), ['TableReleased'], 'released in the table\'s own stream');
});
