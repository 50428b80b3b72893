import t from 'tap';
import { type KitchenTicketEvent, type TicketOpening, kitchenTicket, kitchenTicketId, ticketFinished } from '../src/index.js';
import { given } from './given.js';

const about = { ticketId: 'k1', orderId: 'o1' };
const opening: TicketOpening = {
  ticketId: 'k1', orderId: 'o1', stationId: 's1', tableId: 't1', tableName: 'T1', waiter: 'Ana', firedAt: 100,
  lines: [{ lineId: 'l1', dishId: 'd1', dishName: 'Taco', notes: 'sin cebolla' }, { lineId: 'l2', dishId: 'd2', dishName: 'Agua', notes: '' }],
};
const opened: KitchenTicketEvent = { type: 'KitchenTicketOpened', data: opening };
const started: KitchenTicketEvent = { type: 'KitchenTicketStarted', data: { ...about, at: 200 } };
const bumped: KitchenTicketEvent = { type: 'KitchenTicketBumped', data: { ...about, at: 300, lineIds: ['l1', 'l2'] } };

t.test('a ticket is opened once: a second opening (crash recovery) changes nothing', async (t) => {
  t.same(given(kitchenTicket, []).when({ type: 'openTicket', ...opening }), { events: [opened] });
  t.same(given(kitchenTicket, [opened]).when({ type: 'openTicket', ...opening }), { events: [] });
  const s = given(kitchenTicket, [opened]).state;
  t.same(Object.values(s.kitchenLines).map((l) => l.status), ['sent', 'sent']);
  t.equal(kitchenTicketId('o1', 'f1', 's1'), kitchenTicketId('o1', 'f1', 's1'), 'derived: a retried firing meets its ticket');
  t.not(kitchenTicketId('o1', 'f1', 's1'), kitchenTicketId('o1', 'f1', 's2'));
});

t.test('every kitchen action on a ticket that was never opened is not found', async (t) => {
  for (const c of [{ type: 'startTicket', at: 1 }, { type: 'bumpTicket', at: 1 }, { type: 'recallTicket', at: 1 }, { type: 'markLineDone', lineId: 'l1', at: 1 }] as const) {
    t.match(given(kitchenTicket, []).when(c), { error: { kind: 'not_found' } }, c.type);
  }
});

t.test('start: lines go in progress; starting twice (two screens) changes nothing', async (t) => {
  t.same(given(kitchenTicket, [opened]).when({ type: 'startTicket', at: 200 }), { events: [started] });
  t.same(given(kitchenTicket, [opened, started]).when({ type: 'startTicket', at: 201 }), { events: [] });
  t.same(Object.values(given(kitchenTicket, [opened, started]).state.kitchenLines).map((l) => l.status), ['in_progress', 'in_progress']);
  t.same(given(kitchenTicket, [opened, started, bumped]).when({ type: 'startTicket', at: 400 }), { events: [] }, 'a late tap after a bump');
});

t.test('a line done: starts the ticket if needed, once; cancelled lines refuse; unknown line not found', async (t) => {
  t.same(given(kitchenTicket, [opened]).when({ type: 'markLineDone', lineId: 'l1', at: 250 }), {
    events: [{ type: 'KitchenTicketStarted', data: { ...about, at: 250 } }, { type: 'KitchenLineDone', data: { ...about, lineId: 'l1', at: 250 } }],
  });
  const done: KitchenTicketEvent = { type: 'KitchenLineDone', data: { ...about, lineId: 'l1', at: 250 } };
  t.same(given(kitchenTicket, [opened, started, done]).when({ type: 'markLineDone', lineId: 'l1', at: 260 }), { events: [] });
  t.match(given(kitchenTicket, [opened]).when({ type: 'markLineDone', lineId: 'nope', at: 1 }), { error: { kind: 'not_found' } });
  const cancelled: KitchenTicketEvent = { type: 'KitchenLineCancelled', data: { ...about, lineId: 'l2' } };
  t.match(given(kitchenTicket, [opened, cancelled]).when({ type: 'markLineDone', lineId: 'l2', at: 1 }), { error: { kind: 'conflict' } });
});

t.test('bump: every unfinished line done, once; recall brings it back, once', async (t) => {
  t.same(given(kitchenTicket, [opened, started]).when({ type: 'bumpTicket', at: 300 }), { events: [bumped] });
  t.same(given(kitchenTicket, [opened, started, bumped]).when({ type: 'bumpTicket', at: 301 }), { events: [] }, 'a second screen bumping changes nothing');
  const cancelled: KitchenTicketEvent = { type: 'KitchenLineCancelled', data: { ...about, lineId: 'l2' } };
  t.same(given(kitchenTicket, [opened, cancelled]).when({ type: 'bumpTicket', at: 300 }), {
    events: [{ type: 'KitchenTicketStarted', data: { ...about, at: 300 } }, { type: 'KitchenTicketBumped', data: { ...about, at: 300, lineIds: ['l1'] } }],
  }, 'a cancelled line stays cancelled');
  const after = given(kitchenTicket, [opened, started, bumped]);
  t.ok(ticketFinished(after.state));
  t.equal(after.state.bumpedAt, 300);
  const recalled: KitchenTicketEvent = { type: 'KitchenTicketRecalled', data: { ...about, at: 400 } };
  t.same(after.when({ type: 'recallTicket', at: 400 }), { events: [recalled] });
  t.same(given(kitchenTicket, [opened, started, bumped, recalled]).when({ type: 'recallTicket', at: 401 }), { events: [] });
  t.same(given(kitchenTicket, [opened]).when({ type: 'recallTicket', at: 1 }), { events: [] }, 'an open ticket needs no recall');
  t.equal(given(kitchenTicket, [opened, started, bumped, recalled]).state.bumpedAt, null);
});

t.test('changes from the order: notes, cancellation (not of a cooked dish), table moves', async (t) => {
  const g = given(kitchenTicket, [opened]);
  t.same(g.when({ type: 'changeLineNotes', lineId: 'l2', notes: 'sin hielo' }), { events: [{ type: 'KitchenLineNotesChanged', data: { ...about, lineId: 'l2', notes: 'sin hielo' } }] });
  t.same(g.when({ type: 'changeLineNotes', lineId: 'l1', notes: 'sin cebolla' }), { events: [] });
  t.same(g.when({ type: 'cancelLine', lineId: 'l1' }), { events: [{ type: 'KitchenLineCancelled', data: { ...about, lineId: 'l1' } }] });
  const done: KitchenTicketEvent = { type: 'KitchenLineDone', data: { ...about, lineId: 'l1', at: 250 } };
  t.same(given(kitchenTicket, [opened, started, done]).when({ type: 'cancelLine', lineId: 'l1' }), { events: [] });
  t.same(g.when({ type: 'moveTicket', tableId: 't2', tableName: 'T2' }), { events: [{ type: 'KitchenTicketMoved', data: { ...about, tableId: 't2', tableName: 'T2' } }] });
  t.same(g.when({ type: 'moveTicket', tableId: 't1', tableName: 'T1' }), { events: [] });
  const cancelled = given(kitchenTicket, [opened, { type: 'KitchenLineCancelled', data: { ...about, lineId: 'l1' } }]);
  t.equal(cancelled.state.kitchenLines.l1!.status, 'cancelled');
  t.notOk(ticketFinished(cancelled.state));
});

t.test('closed when its order finishes: once, with the reason; a bumped ticket is already off the board', async (t) => {
  const closed: KitchenTicketEvent = { type: 'KitchenTicketClosed', data: { ...about, at: 500, reason: 'order_completed' } };
  t.same(given(kitchenTicket, [opened, started]).when({ type: 'closeTicket', reason: 'order_completed', at: 500 }), { events: [closed] });
  t.same(given(kitchenTicket, [opened, started, closed]).when({ type: 'closeTicket', reason: 'order_deleted', at: 600 }), { events: [] }, 'closing again (a redelivered order event) changes nothing');
  t.same(given(kitchenTicket, [opened, started, bumped]).when({ type: 'closeTicket', reason: 'order_cancelled', at: 600 }), { events: [] }, 'bumped: nothing to take off');
  t.match(given(kitchenTicket, []).when({ type: 'closeTicket', reason: 'order_deleted', at: 1 }), { error: { kind: 'not_found' } });
  const after = given(kitchenTicket, [opened, started, closed]);
  t.match(after.state, { closedAt: 500, closedReason: 'order_completed' });
  // Nothing a cook or the order does reaches a closed ticket: late taps and the order's reconciliation are no-ops, a line done or a recall is refused.
  for (const c of [
    { type: 'startTicket', at: 1 }, { type: 'bumpTicket', at: 1 }, { type: 'cancelLine', lineId: 'l1', at: 1 },
    { type: 'changeLineNotes', lineId: 'l1', notes: 'x' }, { type: 'moveTicket', tableId: null, tableName: null },
  ] as const) t.same(after.when(c), { events: [] }, c.type);
  t.match(after.when({ type: 'markLineDone', lineId: 'l1', at: 1 }), { error: { kind: 'conflict' } });
  t.match(after.when({ type: 'recallTicket', at: 1 }), { error: { kind: 'conflict' } });
});

t.test('an automatic bump says so; a cancellation records its time when given one', async (t) => {
  const done: KitchenTicketEvent[] = [{ type: 'KitchenLineDone', data: { ...about, lineId: 'l1', at: 250 } }, { type: 'KitchenLineDone', data: { ...about, lineId: 'l2', at: 260 } }];
  t.same(given(kitchenTicket, [opened, started, ...done]).when({ type: 'bumpTicket', at: 900, auto: true }), { events: [{ type: 'KitchenTicketBumped', data: { ...about, at: 900, lineIds: [], auto: true } }] });
  t.same(given(kitchenTicket, [opened]).when({ type: 'cancelLine', lineId: 'l1', at: 70 }), { events: [{ type: 'KitchenLineCancelled', data: { ...about, lineId: 'l1', at: 70 } }] });
});
