import t from 'tap';
import { MENU_STREAM, PRINTERS_STREAM, kitchenTicket, kitchenTicketStream, menu, newId, printJob, printJobId, printJobStream, printers } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { MemoryReadStore } from '@comanda/read-store';
import { allReactions, kitchenPaper } from '../src/index.js';

t.test('kitchen paper: an opened ticket and a cancelled line each queue a job named by the event; a station whose screen never came prints', async (t) => {
  const store = new MemoryEventStore();
  const commands = new CommandHandler(store);
  const [grill, ticketId, lineId] = [newId(), newId(), newId()];
  await commands.handle(menu, MENU_STREAM, { type: 'addStation', stationId: grill, name: 'Grill' });
  await commands.handle(printers, PRINTERS_STREAM, {
    type: 'addPrinter', printerId: newId(), stations: [grill], name: 'Grill', host: '10.0.0.9', port: 9100, paperWidth: 80, codePage: 'cp437', stationId: grill, stationMode: 'screen', till: false,
  });
  await commands.handle(kitchenTicket, kitchenTicketStream(ticketId), {
    type: 'openTicket', ticketId, orderId: newId(), stationId: grill, tableId: null, tableName: null, waiter: 'Ana', firedAt: 1,
    lines: [{ lineId, dishId: newId(), dishName: 'Rib-eye', notes: '' }],
  });
  await commands.handle(kitchenTicket, kitchenTicketStream(ticketId), { type: 'cancelLine', lineId, at: 2 });
  const events = await store.readStream(kitchenTicketStream(ticketId));
  const screenThere = kitchenPaper(commands, { timezone: 'UTC', screenGone: async () => false });
  for (const e of events) await screenThere.react(e);
  t.equal((await commands.state(printJob, printJobStream(printJobId(events[0]!.id)))).state.queued, false, 'a screen-mode station with its screen: nothing');
  // As the standalone composes it: the screens' presence from the read store, where no screen ever connected.
  const paper = allReactions(commands, { kitchenAutoBumpMinutes: 0, closePaidOrders: false, timezone: 'UTC', kitchenPaperFallbackSeconds: 60 }, new MemoryReadStore()).find((r) => r.name === 'kitchen-paper')!;
  t.same(paper.handles, ['KitchenTicketOpened', 'KitchenLineCancelled']);
  for (const e of events) await paper.react(e);
  const jobs = await Promise.all(events.map(async (e) => (await commands.state(printJob, printJobStream(printJobId(e.id)))).state));
  t.same(jobs.map((j) => [j.queued, j.title]), [[true, 'Takeaway · Grill'], [true, 'VOID 1 x Rib-eye · Takeaway']]);
});
