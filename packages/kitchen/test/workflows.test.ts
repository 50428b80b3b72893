import t from 'tap';
import {
  FLOOR_STREAM, MENU_STREAM, floor, kitchenTicket, kitchenTicketStream, menu, newId, order, orderStream, preconditionFailed, ownAuthority, atMenuPrice,
} from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { autoBumpTicket, bumpTicket, fireOrder, markLineDone, orderFollowsKitchen, recallTicket, reconcileKitchen, startTicket } from '../src/index.js';

/** A restaurant with a grill (the default) and a bar, tacos and drinks, one table and an order of three lines. */
async function restaurant() {
  const store = new MemoryEventStore();
  const commands = new CommandHandler(store);
  const ids = { grill: newId(), bar: newId(), tacos: newId(), drinks: newId(), pastor: newId(), agua: newId(), tequila: newId(), space: newId(), t1: newId(), t2: newId(), order: newId() };
  const m = (c: Parameters<typeof menu.decide>[0]) => commands.handle(menu, MENU_STREAM, c);
  await m({ type: 'addStation', stationId: ids.grill, name: 'Grill' });
  await m({ type: 'addStation', stationId: ids.bar, name: 'Bar' });
  await m({ type: 'addCategory', categoryId: ids.tacos, name: 'Tacos' });
  await m({ type: 'addCategory', categoryId: ids.drinks, name: 'Drinks', stationId: ids.bar });
  await m({ type: 'addDish', dishId: ids.pastor, name: 'Taco al pastor', price: 2550, categoryId: ids.tacos });
  await m({ type: 'addDish', dishId: ids.agua, name: 'Agua de jamaica', price: 3000, categoryId: ids.drinks });
  await m({ type: 'addDish', dishId: ids.tequila, name: 'Tequila flameado', price: 9000, categoryId: ids.drinks, stationId: ids.grill });
  await commands.handle(floor, FLOOR_STREAM, { type: 'createSpace', spaceId: ids.space, name: 'Terraza' });
  for (const [id, name] of [[ids.t1, 'T1'], [ids.t2, 'T2']] as const) {
    await commands.handle(floor, FLOOR_STREAM, { type: 'addTable', tableId: id, name, spaceId: ids.space, status: 'available', orderId: null });
  }
  const lines = [ids.pastor, ids.agua, ids.tequila].map((dishId) => ({ lineId: newId(), dishId, priceCents: 100, notes: dishId === ids.pastor ? 'sin cebolla' : '' }));
  await commands.handle(order, orderStream(ids.order), { type: 'placeOrder', orderId: ids.order, userId: 'u', tableId: ids.t1, waiter: 'Ana', at: 1000, lines: atMenuPrice(lines), authority: ownAuthority('test-manager', 'manager') });
  const ticket = async (id: string) => (await commands.state(kitchenTicket, kitchenTicketStream(id))).state;
  const orderState = async () => (await commands.state(order, orderStream(ids.order))).state;
  return { store, commands, ids, lines, ticket, orderState };
}

t.test('firing routes each line (dish, else category, else default) to one ticket per station', async (t) => {
  const r = await restaurant();
  const fired = await fireOrder(r.commands, { orderId: r.ids.order, firingId: 'f1', at: 2000 });
  t.equal(fired.tickets.length, 2);
  const grill = fired.tickets.find((k) => k.stationId === r.ids.grill)!;
  const bar = fired.tickets.find((k) => k.stationId === r.ids.bar)!;
  t.same(grill.lineIds, [r.lines[0]!.lineId, r.lines[2]!.lineId], 'pastor by default, tequila by its own station');
  t.same(bar.lineIds, [r.lines[1]!.lineId], 'agua by its category');
  const g = await r.ticket(grill.id);
  t.match(g, { opened: true, orderId: r.ids.order, stationId: r.ids.grill, tableName: 'T1', waiter: 'Ana', firedAt: 2000 });
  t.same(Object.values(g.kitchenLines).map((l) => [l.dishName, l.notes, l.status]), [['Taco al pastor', 'sin cebolla', 'sent'], ['Tequila flameado', '', 'sent']]);
  const again = await fireOrder(r.commands, { orderId: r.ids.order, firingId: 'f2', at: 2100 });
  t.same(again.tickets, [], 'nothing left to fire');
  const retried = await fireOrder(r.commands, { orderId: r.ids.order, firingId: 'f1', at: 2200 });
  t.same(retried.tickets, [], 'the same firing again changes nothing');
});

t.test('two waiters firing at once: each line reaches the kitchen once', async (t) => {
  const r = await restaurant();
  const both = await Promise.all([
    fireOrder(r.commands, { orderId: r.ids.order, firingId: 'a', at: 1 }),
    fireOrder(r.commands, { orderId: r.ids.order, firingId: 'b', at: 1 }),
  ]);
  const lines = both.flatMap((f) => f.tickets.flatMap((k) => k.lineIds));
  t.same(lines.sort(), r.lines.map((l) => l.lineId).sort());
  t.equal(Object.keys((await r.orderState()).fired).length, 3);
});

t.test('a crash after the order append: reconciling opens the tickets, and changes after firing reach them', async (t) => {
  const r = await restaurant();
  const [pastor, agua] = r.lines;
  // Only the order's append happens (the process died before the tickets were opened).
  await r.commands.handle(order, orderStream(r.ids.order), {
    type: 'fireLines', firingId: 'f1', at: 5,
    lines: [{ lineId: pastor!.lineId, firingId: 'f1', dishId: r.ids.pastor, stationId: r.ids.grill, ticketId: 'k1', dishName: 'Taco al pastor' },
      { lineId: agua!.lineId, firingId: 'f1', dishId: r.ids.agua, stationId: r.ids.grill, ticketId: 'k1', dishName: 'Agua' }],
  });
  t.equal((await r.ticket('k1')).opened, false);
  await reconcileKitchen(r.commands, r.ids.order);
  t.match(await r.ticket('k1'), { opened: true, firedAt: 5, tableName: 'T1' });
  await r.commands.handle(order, orderStream(r.ids.order), { type: 'updateLine', lineId: pastor!.lineId, notes: 'extra piña', authority: ownAuthority('test-manager', 'manager') });
  await r.commands.handle(order, orderStream(r.ids.order), { type: 'removeLine', lineId: agua!.lineId, authority: ownAuthority('test-manager', 'manager') });
  await r.commands.handle(order, orderStream(r.ids.order), { type: 'updateOrder', userId: 'u', tableId: r.ids.t2, waiter: 'Ana', status: 'pending', at: 6, authority: ownAuthority('test-manager', 'manager') });
  await reconcileKitchen(r.commands, r.ids.order);
  const k = await r.ticket('k1');
  t.match(k, { tableId: r.ids.t2, tableName: 'T2' }, 'the table move reaches the ticket');
  t.same(Object.values(k.kitchenLines).map((l) => [l.notes, l.status]), [['extra piña', 'sent'], ['', 'cancelled']], 'notes changed; the removed line struck through');
  const before = (await r.commands.state(kitchenTicket, kitchenTicketStream('k1'))).revision;
  await reconcileKitchen(r.commands, r.ids.order);
  t.equal((await r.commands.state(kitchenTicket, kitchenTicketStream('k1'))).revision, before, 'reconciling again appends nothing');
});

t.test('the order follows its kitchen: started → preparing; every fired line done or cancelled → ready', async (t) => {
  const r = await restaurant();
  const fired = await fireOrder(r.commands, { orderId: r.ids.order, firingId: 'f1', at: 1 });
  const [k1, k2] = fired.tickets;
  await orderFollowsKitchen(r.commands, r.ids.order, 2);
  t.equal((await r.orderState()).status, 'pending', 'nothing started yet');
  await startTicket(r.commands, k1!.id, 3);
  await orderFollowsKitchen(r.commands, r.ids.order, 3);
  t.equal((await r.orderState()).status, 'preparing');
  await bumpTicket(r.commands, k1!.id, 4);
  await orderFollowsKitchen(r.commands, r.ids.order, 4);
  t.equal((await r.orderState()).status, 'preparing', 'the other station is still cooking');
  await markLineDone(r.commands, k2!.id, k2!.lineIds[0]!, 5);
  await orderFollowsKitchen(r.commands, r.ids.order, 5);
  await orderFollowsKitchen(r.commands, r.ids.order, 6);
  t.equal((await r.orderState()).status, 'ready');
});

t.test('an order completed, cancelled or deleted closes its tickets still on the board, once, saying why', async (t) => {
  for (const [finish, reason] of [
    [[{ type: 'changeStatus', to: 'preparing', at: 7 }, { type: 'changeStatus', to: 'ready', at: 8 }, { type: 'changeStatus', to: 'completed', at: 9 }], 'order_completed'],
    [[{ type: 'changeStatus', to: 'cancelled', at: 9 }], 'order_cancelled'],
    [[{ type: 'deleteOrder' }], 'order_deleted'],
  ] as const) {
    const r = await restaurant();
    const fired = await fireOrder(r.commands, { orderId: r.ids.order, firingId: 'f1', at: 5 });
    const [grill, bar] = fired.tickets;
    await bumpTicket(r.commands, bar!.id, 6);
    for (const c of finish) await r.commands.handle(order, orderStream(r.ids.order), c);
    await reconcileKitchen(r.commands, r.ids.order, {}, 10);
    t.match(await r.ticket(grill!.id), { closedAt: 10, closedReason: reason }, reason);
    t.match(await r.ticket(bar!.id), { closedAt: null, bumpedAt: 6 }, `${reason}: a bumped ticket is already off the board`);
    const revision = (await r.commands.state(kitchenTicket, kitchenTicketStream(grill!.id))).revision;
    await reconcileKitchen(r.commands, r.ids.order, {}, 11);
    t.equal((await r.commands.state(kitchenTicket, kitchenTicketStream(grill!.id))).revision, revision, `${reason}: again, nothing appended`);
    await t.rejects(recallTicket(r.commands, bar!.id, 12), { kind: 'conflict' }, `${reason}: a bumped ticket of a finished order is not recalled`);
  }
});

t.test('auto-bump: a ticket every line of which is done, once the wait since it became ready (or was recalled) has passed', async (t) => {
  const r = await restaurant();
  const fired = await fireOrder(r.commands, { orderId: r.ids.order, firingId: 'f1', at: 5 });
  const grill = fired.tickets.find((k) => k.stationId === r.ids.grill)!;
  await markLineDone(r.commands, grill.id, grill.lineIds[0]!, 6);
  t.equal(await autoBumpTicket(r.commands, grill.id, 50, 100), false, 'a line still cooking');
  await markLineDone(r.commands, grill.id, grill.lineIds[1]!, 70);
  t.match(await r.ticket(grill.id), { readySince: 70 });
  t.equal(await autoBumpTicket(r.commands, grill.id, 50, 119), false, 'ready for 49 of 50');
  await bumpTicket(r.commands, grill.id, 80);
  await recallTicket(r.commands, grill.id, 90);
  t.equal(await autoBumpTicket(r.commands, grill.id, 50, 120), false, 'recalled at 90: the wait starts again');
  t.equal(await autoBumpTicket(r.commands, grill.id, 50, 140), true, '50 after the recall: bumped');
  t.match(await r.ticket(grill.id), { bumpedAt: 140 });
  t.equal(await autoBumpTicket(r.commands, grill.id, 50, 200), false, 'bumped already: nothing more');

  // A cook's tap lands between the auto-bump's read and its append: the append is refused, the tap wins.
  await recallTicket(r.commands, grill.id, 300);
  const raced = { state: r.commands.state.bind(r.commands), handle: async () => { throw preconditionFailed(); } };
  t.equal(await autoBumpTicket(raced, grill.id, 50, 400), false, 'a tap meanwhile: nothing bumped');
  const broken = { state: r.commands.state.bind(r.commands), handle: async () => { throw new Error('store away'); } };
  await t.rejects(autoBumpTicket(broken, grill.id, 50, 400), /store away/, 'any other failure is thrown, for the reactor to retry');
});
