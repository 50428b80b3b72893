import t from 'tap';
import type { KitchenTicketEvent } from '@comanda/domain';
import { type TicketFields, nextTicketView, ticketForScreens } from '../src/index.js';

const about = { ticketId: 'k1', orderId: 'o1' };
const opened: KitchenTicketEvent = {
  type: 'KitchenTicketOpened',
  data: { ...about, stationId: 's1', tableId: null, tableName: null, waiter: 'Ana', firedAt: 1000, lines: [{ lineId: 'l1', dishId: 'd1', dishName: 'Taco', notes: '' }, { lineId: 'l2', dishId: 'd1', dishName: 'Taco', notes: '' }] },
};
const fold = (events: KitchenTicketEvent[]) => events.reduce<TicketFields | null>((v, e) => nextTicketView(v, e) ?? null, null)!;

t.test('ready_at: set by the change that finishes the last line, reset by a recall; closed says why', async (t) => {
  const done1: KitchenTicketEvent = { type: 'KitchenLineDone', data: { ...about, lineId: 'l1', at: 2000 } };
  t.equal(fold([opened, done1]).ready_at, null, 'a line still open');
  const cancelled: KitchenTicketEvent = { type: 'KitchenLineCancelled', data: { ...about, lineId: 'l2', at: 3000 } };
  t.equal(fold([opened, done1, cancelled]).ready_at, 3000, 'the cancellation finished it');
  const oldCancel: KitchenTicketEvent = { type: 'KitchenLineCancelled', data: { ...about, lineId: 'l2' } };
  t.equal(fold([opened, done1, oldCancel]).ready_at, 1000, 'a cancellation without a time counts from the firing');
  const bumped: KitchenTicketEvent = { type: 'KitchenTicketBumped', data: { ...about, at: 4000, lineIds: [] } };
  const recalled: KitchenTicketEvent = { type: 'KitchenTicketRecalled', data: { ...about, at: 5000 } };
  t.match(fold([opened, done1, cancelled, bumped, recalled]), { status: 'open', ready_at: 5000, bumped_at: null }, 'the recall restarts the wait');
  t.equal(fold([opened, recalled]).ready_at, null, 'recalling a ticket still cooking: not ready');

  const closed: KitchenTicketEvent = { type: 'KitchenTicketClosed', data: { ...about, at: 6000, reason: 'order_deleted' } };
  const view = fold([opened, done1, closed]);
  t.match(view, { status: 'closed', closed_at: 6000, closed_reason: 'order_deleted', version: 3 });
  t.match(ticketForScreens(view), { status: 'closed', closed_at: new Date(6000).toISOString(), closed_reason: 'order_deleted', ready_at: null });
  const before = { ...fold([opened]) } as Partial<TicketFields>;
  delete before.ready_at;
  delete before.closed_at;
  delete before.closed_reason;
  t.match(ticketForScreens(before as TicketFields), { ready_at: null, closed_at: null, closed_reason: null }, 'a view stored before these fields reads as null');
});
