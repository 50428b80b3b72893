import t from 'tap';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { MENU_STREAM, kitchenTicket, kitchenTicketStream, menu, order, orderStream, ownAuthority, atMenuPrice } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { type CheckpointStore, Reactor, autoBump, kitchenReactions } from '../src/index.js';

const memoryCheckpoint = (): CheckpointStore => {
  let p: bigint | null = null;
  return { get: async () => p, set: async (x) => void (p = x), flush: async () => {} };
};

/** A grill, a taco, an order of one taco, fired (ticket `k1`, not opened yet: the process manager opens it). */
async function firedOrder() {
  const store = new MemoryEventStore();
  const commands = new CommandHandler(store);
  const [station, category, dish, orderId, lineId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  await commands.handle(menu, MENU_STREAM, { type: 'addStation', stationId: station, name: 'Grill' });
  await commands.handle(menu, MENU_STREAM, { type: 'addCategory', categoryId: category, name: 'Tacos' });
  await commands.handle(menu, MENU_STREAM, { type: 'addDish', dishId: dish, name: 'Taco', price: 100, categoryId: category });
  await commands.handle(order, orderStream(orderId), { type: 'placeOrder', orderId, userId: 'u', tableId: null, waiter: 'Ana', at: 1, lines: atMenuPrice([{ lineId, dishId: dish, priceCents: 100, notes: '' }]), authority: ownAuthority('test-manager', 'manager') });
  await commands.handle(order, orderStream(orderId), { type: 'fireLines', firingId: 'f', at: 2, lines: [{ lineId, firingId: 'f', dishId: dish, stationId: station, ticketId: 'k1', dishName: 'Taco' }] });
  return { store, commands, station, orderId, lineId };
}

const settle = async (check: () => Promise<boolean>) => {
  const end = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

t.test('after a crash between the firing and its tickets, the process managers open them; the order then follows its kitchen', async (t) => {
  // The API appended the firing and died before opening the ticket.
  const { store, commands, station, orderId, lineId } = await firedOrder();

  const checkpoint = memoryCheckpoint();
  const reactor = new Reactor(store, checkpoint, kitchenReactions(new CommandHandler(store), () => 9), pino({ level: 'silent' }));
  await reactor.start();
  t.teardown(() => reactor.stop());
  const ticket = async () => (await commands.state(kitchenTicket, kitchenTicketStream('k1'))).state;
  const status = async () => (await new CommandHandler(store).state(order, orderStream(orderId))).state.status;
  await settle(async () => (await ticket()).opened);
  t.match(await ticket(), { orderId, stationId: station, firedAt: 2, kitchenLines: { [lineId]: { dishName: 'Taco', status: 'sent' } } });

  await commands.handle(kitchenTicket, kitchenTicketStream('k1'), { type: 'startTicket', at: 3 });
  await settle(async () => (await status()) === 'preparing');
  await commands.handle(kitchenTicket, kitchenTicketStream('k1'), { type: 'bumpTicket', at: 4 });
  await settle(async () => (await status()) === 'ready');
  t.pass('pending → preparing → ready, following the ticket');

  // Redelivery from an older checkpoint (a crash before the checkpoint was stored) changes nothing.
  await reactor.stop();
  const before = (await store.readStream(orderStream(orderId))).length;
  const again = new Reactor(store, memoryCheckpoint(), kitchenReactions(new CommandHandler(store), () => 9), pino({ level: 'silent' }));
  await again.start();
  await new Promise((r) => setTimeout(r, 300));
  await again.stop();
  t.equal((await store.readStream(orderStream(orderId))).length, before, 'every event redelivered: nothing appended twice');
  t.equal((await store.readStream(kitchenTicketStream('k1'))).length, 3, 'opened, started, bumped: once each');
});

t.test('an order completed, cancelled or deleted: its open ticket is closed once, even when every event is delivered again', async (t) => {
  for (const [finish, reason] of [
    [[{ type: 'changeStatus', to: 'preparing', at: 3 }, { type: 'changeStatus', to: 'ready', at: 4 }, { type: 'changeStatus', to: 'completed', at: 5 }], 'order_completed'],
    [[{ type: 'changeStatus', to: 'cancelled', at: 5 }], 'order_cancelled'],
    [[{ type: 'deleteOrder' }], 'order_deleted'],
  ] as const) {
    const { store, commands, orderId } = await firedOrder();
    for (const c of finish) await commands.handle(order, orderStream(orderId), c);
    const closes = async () => (await store.readStream(kitchenTicketStream('k1'))).filter((e) => e.type === 'KitchenTicketClosed');
    for (let run = 0; run < 2; run++) {
      // The second run starts from no checkpoint: the process died after the close, before its checkpoint.
      const reactor = new Reactor(store, memoryCheckpoint(), kitchenReactions(new CommandHandler(store), () => 9), pino({ level: 'silent' }));
      await reactor.start();
      await settle(async () => (await closes()).length > 0);
      await new Promise((r) => setTimeout(r, 100));
      await reactor.stop();
    }
    t.match((await closes()).map((e) => e.data), [{ ticketId: 'k1', orderId, reason, at: 9 }], `${reason}: closed exactly once`);
  }
});

t.test('auto-bump: a ticket left done is bumped once the configured minutes have passed since, from the due-time queue', async (t) => {
  const store = new MemoryEventStore();
  const commands = new CommandHandler(store);
  const opening = { ticketId: 'k1', orderId: 'o1', stationId: 's', tableId: null, tableName: null, waiter: 'Ana', firedAt: 0, lines: [{ lineId: 'l1', dishId: 'd', dishName: 'Taco', notes: '' }] };
  await commands.handle(kitchenTicket, kitchenTicketStream('k1'), { type: 'openTicket', ...opening });
  const readyAt = Date.now();
  await commands.handle(kitchenTicket, kitchenTicketStream('k1'), { type: 'markLineDone', lineId: 'l1', at: readyAt });
  const minutes = 0.005; // 300 ms
  const reactor = new Reactor(store, memoryCheckpoint(), [autoBump(new CommandHandler(store), minutes)], pino({ level: 'silent' }));
  await reactor.start();
  t.teardown(() => reactor.stop());
  await settle(async () => reactor.scheduled === 1);
  t.equal((await commands.state(kitchenTicket, kitchenTicketStream('k1'))).state.bumpedAt, null, 'waiting');
  await settle(async () => (await commands.state(kitchenTicket, kitchenTicketStream('k1'))).state.bumpedAt !== null);
  const bumped = (await store.readStream(kitchenTicketStream('k1'))).filter((e) => e.type === 'KitchenTicketBumped');
  t.equal(bumped.length, 1);
  t.match(bumped[0]!.data, { auto: true });
  t.ok((bumped[0]!.data as { at: number }).at >= readyAt + 300, 'not before its time');
});
