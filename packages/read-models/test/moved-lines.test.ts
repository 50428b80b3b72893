import t from 'tap';
import { type OrderLine, atMenuPrice, kitchenTicket, kitchenTicketStream, order, orderStream, ownAuthority } from '@comanda/domain';
import { CommandHandler, MemoryEventStore, type RecordedEvent } from '@comanda/event-store';
import { MemoryReadStore, type ReadStore } from '@comanda/read-store';
import { ORDERS, type OrderView, allProjections } from '../src/index.js';

// Issue 59: a fired line moved to another table shows there as the kitchen has it (not "not sent"),
// and follows its ticket, which stays the first order's: given the log of such a dinner, when the
// projections read it, then each order's lines say what the kitchen is doing.

const WAITER = ownAuthority('u', 'waiter');

async function dinner() {
  const log = new MemoryEventStore();
  const commands = new CommandHandler(log);
  for (const id of ['A', 'B', 'C']) {
    await commands.handle(order, orderStream(id), { type: 'placeOrder', orderId: id, userId: 'u', tableId: null, waiter: 'Ana', at: 1, lines: [], authority: WAITER });
  }
  await commands.handle(order, orderStream('A'), { type: 'addDishes', lines: atMenuPrice([{ lineId: 'l1', dishId: 'd', priceCents: 900, notes: '' }]), authority: WAITER });
  const fired = { lineId: 'l1', firingId: 'f1', dishId: 'd', stationId: 's', ticketId: 'k1', dishName: 'Mole' };
  await commands.handle(order, orderStream('A'), { type: 'fireLines', firingId: 'f1', lines: [fired], at: 2 });
  await commands.handle(kitchenTicket, kitchenTicketStream('k1'), { type: 'openTicket', ticketId: 'k1', orderId: 'A', stationId: 's', tableId: null, tableName: null, waiter: 'Ana', firedAt: 2, lines: [{ lineId: 'l1', dishId: 'd', dishName: 'Mole', notes: '' }] });
  const move = async (moveId: string, from: string, to: string) => {
    const { state } = await commands.state(order, orderStream(from));
    const line: OrderLine = state.lines.l1!;
    const firedHere = state.fired.l1!;
    await commands.handle(order, orderStream(from), { type: 'moveLinesOut', moveId, lineIds: ['l1'], toOrderId: to, toUserId: 'u', authority: ownAuthority('m', 'manager') });
    await commands.handle(order, orderStream(to), { type: 'moveLinesIn', moveId, fromOrderId: from, lines: [line], fired: [firedHere] });
  };
  const kitchen = (command: Parameters<typeof kitchenTicket.decide>[0]) => commands.handle(kitchenTicket, kitchenTicketStream('k1'), command);
  return { log, move, kitchen };
}

/** Applies the log after `from` to the read store, as the projector does: each event to every projection, in order. */
async function project(log: MemoryEventStore, store: ReadStore, from: bigint | null): Promise<bigint | null> {
  let last = from;
  for (const e of log.readAfter(from, 1_000)) {
    for (const p of allProjections.filter((p) => p.handles.includes(e.type))) await p.apply(e, store);
    last = e.position;
  }
  return last;
}

const status = async (store: ReadStore, orderId: string) => (await store.collection<OrderView>(ORDERS).get(orderId))?.kitchen_status?.l1 ?? 'pending';

t.test('a fired line moved twice: each order it reached shows the kitchen\'s status of it, as its ticket moves', async (t) => {
  const { log, move, kitchen } = await dinner();
  const store = new MemoryReadStore();
  await move('m1', 'A', 'B');
  let at = await project(log, store, null);
  t.equal(await status(store, 'B'), 'sent', 'moved in as the kitchen has it');
  await kitchen({ type: 'startTicket', at: 3 });
  at = await project(log, store, at);
  t.equal(await status(store, 'B'), 'in_progress', 'the ticket started: table B sees it cooking');
  await move('m2', 'B', 'C');
  at = await project(log, store, at);
  t.equal(await status(store, 'C'), 'in_progress');
  await kitchen({ type: 'markLineDone', lineId: 'l1', at: 4 });
  await project(log, store, at);
  t.same([await status(store, 'A'), await status(store, 'B'), await status(store, 'C')], ['done', 'done', 'done'], 'passed along the line\'s way');
});

t.test('a crash between the first order\'s write and the next: the event again completes it', async (t) => {
  const { log, move, kitchen } = await dinner();
  const store = new MemoryReadStore();
  await move('m1', 'A', 'B');
  const at = await project(log, store, null);
  await kitchen({ type: 'startTicket', at: 3 });
  const [started] = log.readAfter(at, 10) as RecordedEvent[];
  // The first delivery dies writing order B (after order A's document took the event).
  const orders = store.collection<OrderView>(ORDERS);
  const crashing: ReadStore = {
    ...store,
    collection: <T extends { _id: string }>(name: string) => {
      const c = store.collection<T>(name);
      return name !== ORDERS ? c : { ...c, get: c.get.bind(c), upsert: async (doc: T) => { if (doc._id === 'B') throw new Error('crash'); return c.upsert(doc); } };
    },
  };
  for (const p of allProjections.filter((p) => p.handles.includes(started!.type))) await p.apply(started!, crashing).catch(() => undefined);
  t.equal(await status(store, 'A'), 'in_progress', 'order A took it');
  t.equal(await status(store, 'B'), 'sent', 'order B did not');
  await project(log, store, at);
  t.equal(await status(store, 'B'), 'in_progress', 'redelivered: order B takes it too');
  t.ok(await orders.get('A'));
});

t.test('a line moved back where it was fired: no longer passed on; an unfired line moved: nothing to pass on', async (t) => {
  const { log, move, kitchen } = await dinner();
  const store = new MemoryReadStore();
  await move('m1', 'A', 'B');
  await move('m2', 'B', 'A');
  let at = await project(log, store, null);
  t.same((await store.collection<OrderView>(ORDERS).get('A'))?.moved_lines, {}, 'back on A: A passes nothing to B');
  t.equal(await status(store, 'A'), 'sent');
  await kitchen({ type: 'startTicket', at: 3 });
  at = await project(log, store, at);
  t.same([await status(store, 'A'), await status(store, 'B')], ['in_progress', 'sent'], 'B no longer has it and is left alone');
  const { state } = await new CommandHandler(log).state(order, orderStream('A'));
  t.ok(state.lines.l1, 'the line is on A');
});

t.test('a ticket the read model never saw (a log pruned before it): the moved line shows sent', async (t) => {
  const { log, move } = await dinner();
  const store = new MemoryReadStore();
  await move('m1', 'A', 'B');
  for (const e of log.readAfter(null, 1_000)) {
    if (e.stream === kitchenTicketStream('k1')) continue;
    for (const p of allProjections.filter((p) => p.handles.includes(e.type))) await p.apply(e, store);
  }
  t.equal(await status(store, 'B'), 'sent');
});

t.test('an order\'s document follows the rest of its life: table, guests, waiter, status, payment, lines cleared, deleted', async (t) => {
  const { log } = await dinner();
  const commands = new CommandHandler(log);
  const manager = ownAuthority('m', 'manager');
  await commands.handle(order, orderStream('C'), { type: 'addDishes', lines: atMenuPrice([{ lineId: 'c1', dishId: 'd', priceCents: 450, notes: '' }]), authority: WAITER });
  await commands.handle(order, orderStream('C'), { type: 'updateOrder', userId: 'u2', tableId: 't9', waiter: 'Beto', status: 'preparing', at: 5, guests: 3, authority: manager });
  await commands.handle(order, orderStream('C'), { type: 'recordPayment', paymentHash: 'h', amountSat: 1200, receivedAt: 6 });
  await commands.handle(order, orderStream('C'), { type: 'changeStatus', to: 'ready', at: 7 });
  await commands.handle(order, orderStream('C'), { type: 'changeStatus', to: 'completed', at: 8 });
  await commands.handle(order, orderStream('B'), { type: 'addDishes', lines: atMenuPrice([{ lineId: 'b1', dishId: 'd', priceCents: 100, notes: '' }]), authority: WAITER });
  await commands.handle(order, orderStream('B'), { type: 'clearLines', authority: WAITER });
  await commands.handle(order, orderStream('B'), { type: 'deleteOrder' });
  const store = new MemoryReadStore();
  await project(log, store, null);
  t.match(await store.collection<OrderView>(ORDERS).get('C'), {
    table_id: 't9', guests: 3, user_id: 'u2', status: 'completed', completed_at: 8, paid_sat: 1200, total_cents: 450, payments: [{ payment_hash: 'h', amount_sat: 1200 }],
  });
  t.equal(await store.collection<OrderView>(ORDERS).get('B'), null, 'deleted');
});
