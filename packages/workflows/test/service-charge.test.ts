import t from 'tap';
import { atMenuPrice, order, orderStream, ownAuthority, ticket, ticketStream } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { ordersProjection, ticketsProjection } from '@comanda/read-models';
import { MemoryReadStore } from '@comanda/read-store';
import { closeShift, issueTickets, openShift, takeOffServiceCharge, takePayment } from '../src/index.js';

/** A party of three (seats 1 to 3, 10.00 each) in a restaurant that charges parties of three 10 %, untaxed. */
async function party() {
  const store = new MemoryEventStore();
  const commands = new CommandHandler(store);
  const clock = { now: 1_000 };
  const deps = { commands, now: () => clock.now, serviceCharge: { rateBp: 1000, minParty: 3, taxable: false } };
  const line = (lineId: string, seat: number) => ({ lineId, dishId: 'd', priceCents: 1000, notes: '', quantity: 1, course: 1, seat, modifiers: [] });
  for (const orderId of ['o1', 'o2']) {
    await commands.handle(order, orderStream(orderId), {
      type: 'placeOrder', orderId, userId: 'u-ana', tableId: null, waiter: 'Ana', at: 1, lines: atMenuPrice([line(`${orderId}a`, 1), line(`${orderId}b`, 2), line(`${orderId}c`, 3)]),
      authority: ownAuthority('u-ana', 'waiter'),
    });
  }
  const readModels = async () => {
    const readStore = new MemoryReadStore();
    for (const event of store.readAfter(null, 1_000_000)) {
      for (const p of [ticketsProjection, ordersProjection]) if (p.handles.includes(event.type)) await p.apply(event, readStore);
    }
    return readStore;
  };
  return { commands, clock, deps, readModels };
}

t.test('a party\'s automatic charge; set by hand, lowering it is a manager\'s', async (t) => {
  const { commands, deps } = await party();
  await t.rejects(issueTickets(deps, 'o1', { split: 'none' }, { userId: 'u-ana' }, { rateBp: 500, role: 'waiter' }), { kind: 'forbidden' }, 'a waiter does not lower it');
  const raised = await issueTickets(deps, 'o1', { split: 'none' }, { userId: 'u-ana' }, { rateBp: 1500, role: 'waiter' });
  t.match((await commands.state(ticket, ticketStream(raised.ticketIds[0]!))).state.issue, { subtotalCents: 3450, serviceCharge: { rateBp: 1500, reason: 'staff', setBy: 'u-ana', creditedTo: 'u-ana' } }, 'raising it is anyone\'s');
  const waived = await issueTickets(deps, 'o2', { split: 'none' }, { userId: 'u-boss' }, { rateBp: 0, role: 'manager' });
  t.match((await commands.state(ticket, ticketStream(waived.ticketIds[0]!))).state.issue, { subtotalCents: 3000, serviceCharge: { rateBp: 0, amountCents: 0, setBy: 'u-boss' } }, 'a manager waives it');
});

t.test('taken off a bill paid in part: the Z report takes back what the payment carried of it', async (t) => {
  const { commands, clock, deps, readModels } = await party();
  await openShift({ ...deps, readStore: new MemoryReadStore() }, 's1', 0, { userId: 'cashier' });
  const [k1] = (await issueTickets(deps, 'o1', { split: 'none' }, { userId: 'u-ana' })).ticketIds;
  t.match((await commands.state(ticket, ticketStream(k1!))).state.issue, { subtotalCents: 3300, serviceCharge: { rateBp: 1000, reason: 'party', partySize: 3, amountCents: 300 } });
  clock.now = 2_000;
  await takePayment(deps, k1!, { paymentId: 'p1', method: 'cash', amountCents: 1000, tipCents: 0 }, { userId: 'cashier' });
  clock.now = 3_000;
  const removed = await takeOffServiceCharge(deps, k1!, 'slow service', { userId: 'u-boss' });
  t.ok(removed.position);
  t.match((await commands.state(ticket, ticketStream(k1!))).state.serviceChargeRemoved, { amountCents: 300, chargeCents: 300, reason: 'slow service', by: 'u-boss', at: 3_000 });
  clock.now = 4_000;
  await takePayment(deps, k1!, { paymentId: 'p2', method: 'cash', amountCents: 2000, tipCents: 0 }, { userId: 'cashier' });
  // The first payment carried 3.00 × 10 / 33 = 0.91 of the charge; taking it off took that back; the second carries none.
  const { closed } = await closeShift({ ...deps, readStore: await readModels() }, 3000, { userId: 'cashier' });
  t.match(closed.report, { salesCents: 3000, serviceChargeCents: 0, serviceChargeByStaff: {} });
});
