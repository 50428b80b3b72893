import t from 'tap';
import type { RecordedEvent } from '@comanda/event-store';
import { LocalClock, ownParts } from '../src/index.js';
import { WAITER_KEPT_DAYS, waitersReport } from '../src/reports/waiters.js';

const DAY = 86_400_000;
const start = Date.parse('2026-05-04T20:00:00Z');

/** Events for the waiters report alone, numbered as a log would. */
function log() {
  const events: RecordedEvent[] = [];
  const add = (stream: string, type: string, data: unknown) =>
    events.push({ id: `e${events.length}`, stream, revision: 0, position: BigInt(events.length + 1), type, data, metadata: { occurredAt: start }, recordedAt: start });
  return {
    events,
    order: (id: string, userId: string, waiter: string, closedAt: number) => {
      add(`order-${id}`, 'OrderPlaced', { orderId: id, userId, tableId: null, waiter, placedAt: closedAt - 3_600_000 });
      add(`order-${id}`, 'DishesAdded', { lines: [{ lineId: `${id}-1`, dishId: 'd1', priceCents: 2000, notes: '' }] });
      add(`order-${id}`, 'OrderStatusChanged', { from: 'ready', to: 'completed', at: closedAt });
    },
    billWithTip: (ticketId: string, orderId: string, name: string, at: number, tipCents: number) => {
      add(`ticket-${ticketId}`, 'TicketIssued', { ticketId, orderId, billId: `b-${ticketId}`, tableId: null, waiter: name, currencyId: 'c', lines: [{ lineId: `${orderId}-1`, dishId: 'd1', priceCents: 2000, notes: '' }], share: null, subtotalCents: 2000, issuedAt: at, issuedBy: null });
      add(`ticket-${ticketId}`, 'PaymentTaken', { paymentId: `p-${ticketId}`, method: 'cash', amountCents: 2000, tipCents, overpaidCents: 0, details: {}, shiftId: null, takenBy: null, takenAt: at });
      add(`ticket-${ticketId}`, 'TicketPaid', { at });
    },
  };
}

t.test('a bill issued days after its order still credits the order\'s waiter; one issued after a week, the user its unpaid order names (never the name on the bill)', async (t) => {
  const { events, order, billWithTip } = log();
  order('A', 'u-ana', 'Ana', start);
  billWithTip('TA', 'A', 'Ana', start + 2 * DAY, 300);
  order('B', 'u-luis', 'Luis', start);
  // Orders closing a week and more later make the report forget B's waiter.
  order('C', 'u-ana', 'Ana', start + (WAITER_KEPT_DAYS + 1) * DAY);
  billWithTip('TB', 'B', 'Luis (bill)', start + (WAITER_KEPT_DAYS + 1) * DAY, 500);
  const state = waitersReport.init(new LocalClock('UTC'), ownParts);
  for (const e of events) if (waitersReport.handles.includes(e.type)) waitersReport.apply(state, e);
  const rows = waitersReport.query(state, {}).by_waiter!;
  t.same(rows.map((r) => [r.waiter_id, r.tips, r.unpaid]), [['u-ana', 3, 20], ['u-luis', 5, 0]], "C is still unpaid; B was, until its bill was paid");
  t.same([...state.orderWaiter.keys()], ['C'], 'orders closed more than a week before the last close are forgotten');
  t.same([...state.ticketOrder.keys()], [], 'a paid bill settles its order: forgotten');
  t.same([...state.unpaid.keys()], ['C']);
});
