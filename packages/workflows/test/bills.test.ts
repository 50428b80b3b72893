import t from 'tap';
import { order, orderStream, ticket, ticketStream, atMenuPrice, ownAuthority } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { ordersProjection, ticketsProjection } from '@comanda/read-models';
import { MemoryReadStore } from '@comanda/read-store';
import { cancelTicket, closeShift, issueTickets, openShift, openShiftId, refundPayment, settleBilling, takePayment, voidTicketLine } from '../src/index.js';

/** The workflows are plain functions over a command handler: a crash between their appends is simulated by doing only the first. */
async function restaurant() {
  const store = new MemoryEventStore();
  const commands = new CommandHandler(store);
  const deps = { commands, now: () => 1_000 };
  const line = (lineId: string, priceCents: number) => ({ lineId, dishId: 'd', priceCents, notes: '' });
  await commands.handle(order, orderStream('o1'), {
    type: 'placeOrder', orderId: 'o1', userId: 'u', tableId: null, waiter: 'Ana', at: 1, lines: atMenuPrice([line('l1', 1000), line('l2', 2001)]), authority: ownAuthority('u', 'waiter'),
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

/** The read models a shift report reads (tickets, orders), fed every event the store holds. */
async function readModels(store: MemoryEventStore) {
  const readStore = new MemoryReadStore();
  for (const event of store.readAfter(null, 1_000_000)) {
    for (const p of [ticketsProjection, ordersProjection]) if (p.handles.includes(event.type)) await p.apply(event, readStore);
  }
  return readStore;
}

t.test('a cashier takes payments in the open shift, refunds, voids, and the shift closes with its Z report', async (t) => {
  const { store, commands, deps } = await restaurant();
  t.equal(await openShiftId(deps), null, 'no shift open yet');
  const opened = await openShift({ ...deps, readStore: new MemoryReadStore() }, 's1', 10_000, { userId: 'cashier' });
  t.equal(opened.shift.shiftId, 's1');
  const { ticketIds: [k1] } = await issueTickets(deps, 'o1', { split: 'none' }, {});

  const cash = await takePayment(deps, k1!, { paymentId: 'p1', method: 'cash', amountCents: 3001, tipCents: 500, tenderedCents: 4000 }, { userId: 'cashier' });
  t.match(cash.payment, { paymentId: 'p1', shiftId: 's1', amountCents: 3001, tipCents: 500 }, 'counted in the open shift');
  t.ok(cash.position, 'the position a reader waits for');
  const retried = await takePayment(deps, k1!, { paymentId: 'p1', method: 'cash', amountCents: 3001, tipCents: 500, tenderedCents: 4000 }, { userId: 'cashier' });
  t.match(retried.payment, { paymentId: 'p1' }, 'the same payment id answers with the payment already taken');
  await t.rejects(takePayment(deps, k1!, { paymentId: 'p2', method: 'card', amountCents: 100, tipCents: 0 }, {}), { kind: 'conflict' }, 'a paid ticket takes no other payment');

  const refunded = await refundPayment(deps, k1!, { refundId: 'r1', paymentId: 'p1', amountCents: 1000, reason: 'cold tacos' }, { userId: 'manager' });
  t.match(refunded.state.refunds, [{ refundId: 'r1', amountCents: 1000, shiftId: 's1' }]);
  const voided = await voidTicketLine(deps, k1!, { lineId: 'l1', reason: 'never came', refundId: 'r2', paymentId: 'p1' }, { userId: 'manager' });
  t.ok(voided.position, 'the void and its refund are one append');

  const closed = await closeShift({ ...deps, readStore: await readModels(store) }, 12_000, { userId: 'cashier' });
  t.match(closed.closed, { shiftId: 's1' });
  t.ok(closed.position);
  await t.rejects(closeShift({ ...deps, readStore: new MemoryReadStore() }, 0, {}), { kind: 'conflict' }, 'no shift open: nothing to close');
});

t.test('a ticket cancelled with nothing paid frees its lines on the order', async (t) => {
  const { commands, deps } = await restaurant();
  const { ticketIds: [k1] } = await issueTickets(deps, 'o1', { split: 'none' }, {});
  const position = await cancelTicket(deps, k1!, 'wrong table', { userId: 'manager' });
  t.ok(position, 'both appends done; the later position is returned');
  t.equal((await commands.state(ticket, ticketStream(k1!))).state.status, 3, 'cancelled');
  const { state } = await commands.state(order, orderStream('o1'));
  t.notOk(Object.values(state.billing.bills).some((b) => b.live.includes(k1!)), 'the lines are free to bill again');
});

t.test('a split by seats: each ticket says the seat it is for, the shared lines say so; a crash keeps it', async (t) => {
  const store = new MemoryEventStore();
  const commands = new CommandHandler(store);
  const deps = { commands, now: () => 1_000 };
  const line = (lineId: string, seat: number | null) => ({ lineId, dishId: 'd', priceCents: 1000, notes: '', quantity: 1, course: 1, seat, modifiers: [] });
  await commands.handle(order, orderStream('o1'), {
    type: 'placeOrder', orderId: 'o1', userId: 'u', tableId: null, waiter: 'Ana', at: 1, lines: atMenuPrice([line('l1', 2), line('l2', null), line('l3', 1), line('l4', 2)]),
    authority: ownAuthority('u', 'waiter'),
  });
  const { ticketIds } = await issueTickets(deps, 'o1', { split: 'seats' }, {});
  const issues = await Promise.all(ticketIds.map(async (id) => (await commands.state(ticket, ticketStream(id))).state.issue!));
  t.same(issues.map((i) => [i.forSeat, i.lines.map((l) => l.lineId)]), [[1, ['l3']], [2, ['l1', 'l4']], [null, ['l2']]], 'seats in order, then the table\'s shared lines');
  const { state } = await commands.state(order, orderStream('o1'));
  t.same(Object.values(state.billing.bills).map((b) => b.seat), [1, 2, null], 'the order records the seat of each bill');

  await commands.handle(order, orderStream('o2'), { type: 'placeOrder', orderId: 'o2', userId: 'u', tableId: null, waiter: 'Ana', at: 1, lines: atMenuPrice([line('m1', 3)]), authority: ownAuthority('u', 'waiter') });
  await commands.handle(order, orderStream('o2'), { type: 'billLines', bills: [{ billId: 'b9', ticketIds: ['k9'], lineIds: ['m1'], seat: 3 }] });
  await settleBilling(deps, 'o2', {});
  t.equal((await commands.state(ticket, ticketStream('k9'))).state.issue!.forSeat, 3, 'a ticket issued after a crash still names its seat');
  const whole = await issueTickets(deps, 'o1', { split: 'none' }, {}).catch((e: Error) => e);
  t.match(whole, { kind: 'conflict' });
  await commands.handle(order, orderStream('o3'), { type: 'placeOrder', orderId: 'o3', userId: 'u', tableId: null, waiter: 'Ana', at: 1, lines: atMenuPrice([line('n1', 3)]), authority: ownAuthority('u', 'waiter') });
  const [plain] = (await issueTickets(deps, 'o3', { split: 'none' }, {})).ticketIds;
  t.equal((await commands.state(ticket, ticketStream(plain!))).state.issue!.forSeat, undefined, 'a bill not split by seats names none');
});
