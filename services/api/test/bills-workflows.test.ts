import t from 'tap';
import { order, orderStream, ticket, ticketStream } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { issueTickets, settleBilling } from '../src/bills/issue.js';

/** The workflows are plain functions over a command handler: a crash between their appends is simulated by doing only the first. */
async function restaurant() {
  const store = new MemoryEventStore();
  const commands = new CommandHandler(store);
  const deps = { commands, now: () => 1_000 };
  const line = (lineId: string, priceCents: number) => ({ lineId, dishId: 'd', priceCents, notes: '' });
  await commands.handle(order, orderStream('o1'), {
    type: 'placeOrder', orderId: 'o1', userId: 'u', tableId: null, waiter: 'Ana', at: 1, lines: [line('l1', 1000), line('l2', 2001)],
  });
  return { store, commands, deps };
}

t.test('a crash after the order recorded the bill: the next issue creates the missing tickets first', async (t) => {
  const { commands, deps } = await restaurant();
  await commands.handle(order, orderStream('o1'), { type: 'billLines', bills: [{ billId: 'b1', ticketIds: ['k1', 'k2'], lineIds: ['l1', 'l2'] }] });
  t.equal((await commands.state(ticket, ticketStream('k1'))).state.issue, null, 'the crash left no ticket');
  await t.rejects(issueTickets(deps, 'o1', { split: 'none' }, {}), { kind: 'conflict', message: 'The order has no unbilled lines' });
  const k1 = (await commands.state(ticket, ticketStream('k1'))).state.issue!;
  const k2 = (await commands.state(ticket, ticketStream('k2'))).state.issue!;
  t.match([k1, k2], [{ billId: 'b1', share: { part: 1, parts: 2 }, subtotalCents: 1501 }, { share: { part: 2, parts: 2 }, subtotalCents: 1500 }]);
  t.equal(await settleBilling(deps, 'o1', {}), null, 'settled: nothing more to do');
});

t.test('a crash after a ticket was cancelled, before its lines were freed: the next issue frees and bills them', async (t) => {
  const { commands, deps } = await restaurant();
  const { ticketIds } = await issueTickets(deps, 'o1', { split: 'none' }, {});
  await commands.handle(ticket, ticketStream(ticketIds[0]!), { type: 'cancelTicket', reason: 'r', by: null, at: 2 });
  const again = await issueTickets(deps, 'o1', { split: 'lines', groups: [['l1'], ['l2']] }, {});
  t.equal(again.ticketIds.length, 2);
  const { state } = await commands.state(order, orderStream('o1'));
  t.same(Object.keys(state.billing.bills).length, 2);
  t.notOk(Object.values(state.billing.bills).some((b) => b.live.includes(ticketIds[0]!)), 'the cancelled ticket is off the order');
});
