import t from 'tap';
import { baseCurrency, CURRENCIES, order, shifts, zReport, type OrderEvent, type ShiftEvent } from '../src/index.js';
import { MANAGER, WAITER, given } from './given.js';

const line = (lineId: string, priceCents = 1000) => ({ lineId, dishId: 'd', priceCents, notes: '' });
const placed: OrderEvent[] = [
  { type: 'OrderPlaced', data: { orderId: 'o1', userId: 'u', tableId: 't', waiter: 'Ana', placedAt: 1 } },
  { type: 'DishesAdded', data: { lines: [line('l1'), line('l2'), line('l3')] } },
];
const billed: OrderEvent = { type: 'OrderBilled', data: { billId: 'b1', ticketIds: ['k1', 'k2'], lineIds: ['l1', 'l2'] } };

t.test('order billing: a line is on at most one live ticket', async (t) => {
  t.same(given(order, placed).when({ type: 'billLines', bills: [{ billId: 'b1', ticketIds: ['k1', 'k2'], lineIds: ['l1', 'l2'] }] }), { events: [billed] });
  const g = given(order, [...placed, billed]);
  t.same(g.when({ type: 'billLines', bills: [{ billId: 'b1', ticketIds: ['k1', 'k2'], lineIds: ['l1', 'l2'] }] }), { events: [] }, 'the same bill again: nothing (a retried issue)');
  t.same(g.when({ type: 'billLines', bills: [{ billId: 'b2', ticketIds: ['k3'], lineIds: ['l2', 'l3'] }] }), { error: { kind: 'conflict', message: 'These lines are already on a ticket: l2', details: { lineIds: ['l2'] } } });
  t.match(g.when({ type: 'billLines', bills: [{ billId: 'b2', ticketIds: ['k3'], lineIds: ['zz'] }] }), { error: { kind: 'validation' } });
  t.same(g.when({ type: 'billLines', bills: [{ billId: 'b2', ticketIds: ['k3'], lineIds: [] }] }), { error: { kind: 'conflict', message: 'The order has no unbilled lines' } });
  t.same(given(order, placed).when({ type: 'billLines', bills: [{ billId: 'b1', ticketIds: ['k1'], lineIds: ['l1'] }, { billId: 'b2', ticketIds: ['k2'], lineIds: ['l2', 'l3'] }] }), {
    events: [{ type: 'OrderBilled', data: { billId: 'b1', ticketIds: ['k1'], lineIds: ['l1'] } }, { type: 'OrderBilled', data: { billId: 'b2', ticketIds: ['k2'], lineIds: ['l2', 'l3'] } }],
  }, 'a split by lines: one bill per group, in one append');
  t.same(given(order, placed).when({ type: 'billLines', bills: [{ billId: 'b1', ticketIds: ['k1'], lineIds: ['l1'] }, { billId: 'b2', ticketIds: ['k2'], lineIds: ['l1'] }] }), {
    error: { kind: 'validation', message: 'Validation failed', details: { errors: [{ field: 'groups', message: 'l1 is in more than one group' }] } },
  });
  t.equal(g.state.version, 2, 'billing does not change the version a waiter pins');
});

t.test('billed lines do not change; the order keeps its tickets until they are cancelled', async (t) => {
  const g = given(order, [...placed, billed]);
  t.match(g.when({ type: 'removeLine', lineId: 'l1', authority: WAITER }), { error: { kind: 'conflict', message: 'A line on a ticket cannot change; cancel the ticket first' } });
  t.match(g.when({ type: 'updateLine', lineId: 'l2', priceCents: 5, authority: WAITER }), { error: { kind: 'conflict' } });
  t.match(g.when({ type: 'clearLines', authority: WAITER }), { error: { kind: 'conflict' } });
  t.match(g.when({ type: 'removeLine', lineId: 'l3', authority: WAITER }), { events: [{ type: 'OrderLineRemoved' }] }, 'an unbilled line still can');
  t.match(g.when({ type: 'changeStatus', to: 'cancelled', at: 2 }), { error: { kind: 'conflict', message: 'The order has live tickets; cancel them first' } });
  t.match(g.when({ type: 'deleteOrder' }), { error: { kind: 'conflict' } });
  t.match(given(order, [...placed, { type: 'OrderStatusChanged', data: { from: 'pending', to: 'cancelled', at: 2 } }]).when({ type: 'billLines', bills: [{ billId: 'b', ticketIds: ['k'], lineIds: ['l1'] }] }), { error: { kind: 'conflict', message: 'A cancelled order cannot be billed' } });
});

t.test('cancelling tickets: the lines come back when the last ticket of their bill is cancelled', async (t) => {
  const first = given(order, [...placed, billed]).when({ type: 'releaseTicket', ticketId: 'k1' });
  t.same(first, { events: [{ type: 'OrderTicketCancelled', data: { billId: 'b1', ticketId: 'k1', releasedLineIds: [] } }] });
  const after = [...placed, billed, ...(first as { events: OrderEvent[] }).events];
  const second = given(order, after).when({ type: 'releaseTicket', ticketId: 'k2' });
  t.same(second, { events: [{ type: 'OrderTicketCancelled', data: { billId: 'b1', ticketId: 'k2', releasedLineIds: ['l1', 'l2'] } }] });
  const free = given(order, [...after, ...(second as { events: OrderEvent[] }).events]);
  t.same(free.state.billing, { billedLines: {}, bills: {} });
  t.same(free.when({ type: 'releaseTicket', ticketId: 'k2' }), { events: [] }, 'releasing twice changes nothing');
  t.match(free.when({ type: 'billLines', bills: [{ billId: 'b2', ticketIds: ['k3'], lineIds: ['l1', 'l2', 'l3'] }] }), { events: [{ type: 'OrderBilled' }] });
});

t.test('shifts: one open at a time; closing needs the open one', async (t) => {
  const opened: ShiftEvent = { type: 'ShiftOpened', data: { shiftId: 's1', number: 1, cashFloatCents: 50000, openedAt: 1, openedBy: 'm' } };
  t.same(given(shifts, []).when({ type: 'openShift', shiftId: 's1', cashFloatCents: 50000, at: 1, by: 'm' }), { events: [opened] });
  t.same(given(shifts, [opened]).when({ type: 'openShift', shiftId: 's2', cashFloatCents: 0, at: 2, by: 'm' }), { error: { kind: 'conflict', message: 'Shift 1 is already open; close it first' } });
  t.same(given(shifts, [opened]).when({ type: 'openShift', shiftId: 's1', cashFloatCents: 50000, at: 1, by: 'm' }), { events: [] });
  t.match(given(shifts, []).when({ type: 'openShift', shiftId: 's1', cashFloatCents: -1, at: 1, by: 'm' }), { error: { kind: 'validation' } });
  const report = zReport({ cashFloatCents: 50000, countedCashCents: 50000, openCents: 0, payments: [], refunds: [] });
  t.same(given(shifts, []).when({ type: 'closeShift', shiftId: 's1', countedCashCents: 0, report, at: 3, by: 'm' }), { error: { kind: 'conflict', message: 'No open shift' } });
  t.match(given(shifts, [opened]).when({ type: 'closeShift', shiftId: 's0', countedCashCents: 0, report, at: 3, by: 'm' }), { error: { kind: 'conflict' } });
  const closed = given(shifts, [opened]).when({ type: 'closeShift', shiftId: 's1', countedCashCents: 50000, report, at: 3, by: 'm' });
  t.match(closed, { events: [{ type: 'ShiftClosed', data: { shiftId: 's1', closedAt: 3 } }] });
  const next = given(shifts, [opened, ...(closed as { events: ShiftEvent[] }).events]);
  t.same(next.state, { open: null, count: 1, lastClosedAt: 3, lastClosed: { shiftId: 's1', paymentIds: [], refundIds: [] } });
  t.match(next.when({ type: 'openShift', shiftId: 's2', cashFloatCents: 0, at: 4, by: 'm' }), { events: [{ data: { number: 2 } }] });
});

t.test('Z report: sales, tips by waiter, methods, refunds, expected and counted cash', async (t) => {
  const report = zReport({
    cashFloatCents: 50000, countedCashCents: 60000, openCents: 1234,
    payments: [
      { id: 'p1', method: 'cash', amountCents: 3334, tipCents: 0, overpaidCents: 0, waiter: 'Ana' },
      { id: 'p2', method: 'credit_card', amountCents: 3333, tipCents: 0, overpaidCents: 0, waiter: 'Ana' },
      { id: 'p3', method: 'credit_card', amountCents: 3333, tipCents: 500, overpaidCents: 0, waiter: 'Ana' },
      { id: 'p4', method: 'cash', amountCents: 2000, tipCents: 300, overpaidCents: 0, waiter: 'Luis' },
    ],
    refunds: [{ id: 'r1', method: 'cash', amountCents: 100 }, { id: 'r2', method: 'credit_card', amountCents: 33 }],
  });
  t.same(report, {
    salesCents: 12000, tipsCents: 800, tipsByWaiter: { Ana: 500, Luis: 300 }, overpaidCents: 0,
    byMethod: {
      cash: { count: 2, amountCents: 5334, tipCents: 300, refundsCents: 100 },
      credit_card: { count: 2, amountCents: 6666, tipCents: 500, refundsCents: 33 },
    },
    refundsCents: 133, netCents: 12667, openCents: 1234, cashFloatCents: 50000,
    expectedCashCents: 50000 + 5334 + 300 - 100, countedCashCents: 60000, differenceCents: 60000 - 55534,
    serviceChargeCents: 0, serviceChargeByStaff: {},
    taxesByRate: [], counted: { paymentIds: ['p1', 'p2', 'p3', 'p4'], refundIds: ['r1', 'r2'] },
  });
});

t.test('base currency: known ids only, not while tickets are unpaid', async (t) => {
  t.same(given(baseCurrency, []).when({ type: 'setBaseCurrency', currencyId: CURRENCIES.USD.id, unpaidTickets: 0 }), { events: [{ type: 'BaseCurrencyChanged', data: { from: CURRENCIES.MXN.id, to: CURRENCIES.USD.id } }] });
  t.same(given(baseCurrency, []).when({ type: 'setBaseCurrency', currencyId: CURRENCIES.USD.id, unpaidTickets: 2 }), { error: { kind: 'conflict', message: 'The base currency cannot change while tickets are unpaid (2)' } });
  t.same(given(baseCurrency, []).when({ type: 'setBaseCurrency', currencyId: CURRENCIES.MXN.id, unpaidTickets: 2 }), { events: [] });
  t.match(given(baseCurrency, []).when({ type: 'setBaseCurrency', currencyId: 'nope', unpaidTickets: 0 }), { error: { kind: 'validation' } });
});
