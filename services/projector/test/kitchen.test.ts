import t from 'tap';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { MENU_STREAM, kitchenTicket, kitchenTicketStream, menu, order, orderStream } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { type CheckpointStore, Reactor, kitchenReactions } from '../src/index.js';

const memoryCheckpoint = (): CheckpointStore => {
  let p: bigint | null = null;
  return { get: async () => p, set: async (x) => void (p = x), flush: async () => {} };
};

const settle = async (check: () => Promise<boolean>) => {
  const end = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

t.test('after a crash between the firing and its tickets, the process managers open them; the order then follows its kitchen', async (t) => {
  const store = new MemoryEventStore();
  const commands = new CommandHandler(store);
  const [station, category, dish, orderId, lineId] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  await commands.handle(menu, MENU_STREAM, { type: 'addStation', stationId: station, name: 'Grill' });
  await commands.handle(menu, MENU_STREAM, { type: 'addCategory', categoryId: category, name: 'Tacos' });
  await commands.handle(menu, MENU_STREAM, { type: 'addDish', dishId: dish, name: 'Taco', price: 100, categoryId: category });
  await commands.handle(order, orderStream(orderId), { type: 'placeOrder', orderId, userId: 'u', tableId: null, waiter: 'Ana', at: 1, lines: [{ lineId, dishId: dish, priceCents: 100, notes: '' }] });
  // The API appended the firing and died before opening the ticket.
  await commands.handle(order, orderStream(orderId), { type: 'fireLines', firingId: 'f', at: 2, lines: [{ lineId, firingId: 'f', dishId: dish, stationId: station, ticketId: 'k1', dishName: 'Taco' }] });

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
