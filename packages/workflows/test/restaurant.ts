import { FLOOR_STREAM, MENU_STREAM, STAFF_STREAM, floor, menu, newId, order, orderStream, roster } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { tableNow } from '../src/index.js';

/**
 * Given: a restaurant with an admin and a waiter on the roster, one dish, a space with two tables.
 * Tests call a workflow, then read what was appended to each stream.
 */
export async function restaurant(options: { soleWriter?: boolean } = {}) {
  // soleWriter false: the log is shared, as API replicas share PostgreSQL.
  const store = new MemoryEventStore(options);
  const commands = new CommandHandler(store);
  const ids = { admin: newId(), waiter: newId(), manager: newId(), tacos: newId(), pastor: newId(), space: newId(), t1: newId(), t2: newId() };
  await commands.handle(roster, STAFF_STREAM, { type: 'createUser', userId: ids.admin, name: 'Ana', role: 'admin', pinHash: 'h', at: 1 });
  await commands.handle(roster, STAFF_STREAM, { type: 'createUser', userId: ids.waiter, name: 'Beto', role: 'waiter', pinHash: 'h', at: 1 });
  await commands.handle(roster, STAFF_STREAM, { type: 'createUser', userId: ids.manager, name: 'Carla', role: 'manager', pinHash: 'h', at: 1 });
  await commands.handle(menu, MENU_STREAM, { type: 'addCategory', categoryId: ids.tacos, name: 'Tacos' });
  await commands.handle(menu, MENU_STREAM, { type: 'addDish', dishId: ids.pastor, name: 'Taco al pastor', price: 2550, categoryId: ids.tacos });
  await commands.handle(floor, FLOOR_STREAM, { type: 'createSpace', spaceId: ids.space, name: 'Terraza' });
  for (const [id, name] of [[ids.t1, 'T1'], [ids.t2, 'T2']] as const) {
    await commands.handle(floor, FLOOR_STREAM, { type: 'addTable', tableId: id, name, spaceId: ids.space, status: 'available', orderId: null });
  }
  /** The events appended to a stream since `from` (a revision), as [type, data]. */
  const appended = async (stream: string, from = 0) => (await store.readStream(stream, from)).map((e) => ({ type: e.type, data: e.data }));
  /** A table as a client sees it: the floor's layout with its own stream's seating. */
  const table = async (id: string) => (await tableNow(commands, id))!;
  const orderOf = async (id: string) => (await commands.state(order, orderStream(id))).state;
  /** Where the log is now, for `seatings`. */
  const mark = async () => await store.headPosition();
  /** The events appended to any table's own stream after `from` (a mark), in log order, as [type, data]. */
  const seatings = async (from: bigint | null) =>
    store.readAfter(from, 1_000_000).filter((e) => e.stream.startsWith('table-')).map((e) => ({ type: e.type, data: e.data }));
  return { store, commands, ids, appended, table, orderOf, mark, seatings };
}
