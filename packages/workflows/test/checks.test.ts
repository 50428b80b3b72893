import t from 'tap';
import { order, orderStream, ticket, ticketStream, atMenuPrice, ownAuthority } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { issueTickets, mergeOrders, moveLines, reopenTicket } from '../src/index.js';

// Issue 59's use cases over the memory store: a crash between two appends is simulated by doing only the first.

const WAITER = ownAuthority('u', 'waiter');
const MANAGER = ownAuthority('m', 'manager');

async function restaurant() {
  const commands = new CommandHandler(new MemoryEventStore());
  const deps = { commands, now: () => 1_000 };
  const line = (lineId: string, priceCents: number) => ({ lineId, dishId: 'd', priceCents, notes: '' });
  const place = (orderId: string, lines: Array<[string, number]>) => commands.handle(order, orderStream(orderId), {
    type: 'placeOrder', orderId, userId: 'u', tableId: null, waiter: 'Ana', at: 1, lines: atMenuPrice(lines.map(([id, cents]) => line(id, cents))), authority: WAITER,
  });
  await place('A', [['a1', 1000], ['a2', 2001]]);
  await place('B', [['b1', 500]]);
  return { commands, deps, lines: async (id: string) => Object.keys((await commands.state(order, orderStream(id))).state.lines).sort() };
}

const context = (key: string) => ({ userId: 'u', idempotency: { key, fingerprint: key } });

t.test('a move: the lines leave one order and join the other; a retry after a crash between the two appends completes it once', async (t) => {
  const { commands, lines } = await restaurant();
  // The crash: only the first half written, as the workflow writes it.
  await commands.handle(order, orderStream('A'), { type: 'moveLinesOut', moveId: 'm-crash', lineIds: ['a1'], toOrderId: 'B', toUserId: 'u', authority: WAITER }, context('k1'));
  t.same([await lines('A'), await lines('B')], [['a2'], ['b1']], 'the line is in flight');
  const moved = await moveLines(commands, { fromOrderId: 'A', toOrderId: 'B', lineIds: ['a1'], authority: WAITER, at: 2, context: context('k1') });
  t.same(moved.moved, ['a1'], 'the retry answers the first half and writes the second');
  t.same([await lines('A'), await lines('B')], [['a2'], ['a1', 'b1']]);
  await moveLines(commands, { fromOrderId: 'A', toOrderId: 'B', lineIds: ['a1'], authority: WAITER, at: 2, context: context('k1') });
  t.same(await lines('B'), ['a1', 'b1'], 'once');
});

t.test('a move to a closed order is refused before anything is written', async (t) => {
  const { commands, lines } = await restaurant();
  await commands.handle(order, orderStream('B'), { type: 'changeStatus', to: 'cancelled', at: 2 });
  await t.rejects(moveLines(commands, { fromOrderId: 'A', toOrderId: 'B', lineIds: ['a1'], authority: WAITER, at: 3, context: {} }), { kind: 'conflict' });
  t.same(await lines('A'), ['a1', 'a2'], 'nothing moved');
});

t.test('a merge: every line on the other order, this one cancelled; a retry answers the same lines', async (t) => {
  const { commands, lines } = await restaurant();
  const merged = await mergeOrders(commands, { fromOrderId: 'B', toOrderId: 'A', authority: WAITER, at: 2, context: context('k2') });
  t.same(merged.moved, ['b1']);
  t.same(await lines('A'), ['a1', 'a2', 'b1']);
  t.equal((await commands.state(order, orderStream('B'))).state.status, 'cancelled');
  t.same((await mergeOrders(commands, { fromOrderId: 'B', toOrderId: 'A', authority: WAITER, at: 2, context: context('k2') })).moved, ['b1']);
});

t.test('reopening a paid check: refunded and cancelled, its lines billable again; a retry refunds nothing twice', async (t) => {
  const { commands, deps } = await restaurant();
  const { ticketIds } = await issueTickets(deps, 'B', { split: 'none' }, {});
  const k = ticketIds[0]!;
  await commands.handle(ticket, ticketStream(k), { type: 'takePayment', paymentId: 'p1', method: 'credit_card', amountCents: 500, tipCents: 50, shiftId: null, by: 'u', at: 2 });
  await reopenTicket(deps, k, 'wrong card', MANAGER, context('k3'));
  await reopenTicket(deps, k, 'wrong card', MANAGER, context('k3'));
  const { state } = await commands.state(ticket, ticketStream(k));
  t.same([state.status, state.refunds.map((r) => r.amountCents)], [3, [550]]);
  t.same((await commands.state(order, orderStream('B'))).state.billing.billedLines, {}, 'the line bills again');
});

t.test('an item split between checks: one bill of three checks, each its share; the shares add up to the item', async (t) => {
  const { commands, deps } = await restaurant();
  const { ticketIds } = await issueTickets(deps, 'A', { split: 'lines', groups: [['a1', 'a2'], ['a2'], ['a2']] }, context('k4'));
  const issues = await Promise.all(ticketIds.map(async (k) => (await commands.state(ticket, ticketStream(k))).state.issue!));
  t.same(issues.map((i) => i.subtotalCents), [1000 + 667, 667, 667], '20.01 over three: 6.67 each');
  t.same(issues.map((i) => i.lines.map((l) => l.share ?? null)), [[null, { part: 1, parts: 3 }], [{ part: 2, parts: 3 }], [{ part: 3, parts: 3 }]]);
  t.equal(new Set(issues.map((i) => i.billId)).size, 1, 'one bill: its lines bill again once every check is cancelled');
  t.same((await issueTickets(deps, 'A', { split: 'lines', groups: [['a1', 'a2'], ['a2'], ['a2']] }, context('k4'))).ticketIds, ticketIds, 'a retry: the same checks');
});
