import type { RecordedEvent } from '@comanda/event-store';

/**
 * A hand-built log of a night across a daylight-saving change in Madrid (2026-03-29: 02:00 CET →
 * 03:00 CEST at 01:00 UTC). The figures the tests expect are worked out by hand in reports.test.ts.
 */
export const TZ = 'Europe/Madrid';
export const at = (iso: string): number => Date.parse(iso);

export function restaurantNight(): RecordedEvent[] {
  const log: RecordedEvent[] = [];
  const revisions = new Map<string, number>();
  const add = (stream: string, type: string, data: unknown, occurredAt = at('2026-03-01T00:00:00Z')) => {
    const revision = (revisions.get(stream) ?? -1) + 1;
    revisions.set(stream, revision);
    log.push({ id: `e${log.length + 1}`, stream, revision, position: BigInt(log.length + 1), type, data, metadata: { occurredAt, schemaVersion: 1 }, recordedAt: occurredAt });
  };
  const dish = (dishId: string, name: string, price: number, categoryId: string) => add('menu', 'DishAdded', { dishId, name, price, categoryId, stationId: null });
  add('menu', 'StationAdded', { stationId: 's1', name: 'Grill' });
  add('menu', 'CategoryAdded', { categoryId: 'c1', name: 'Mains' });
  add('menu', 'CategoryAdded', { categoryId: 'c2', name: 'Drinks' });
  dish('d1', 'Tacos', 10000, 'c1');
  dish('d2', 'Agua', 2500, 'c2');
  add('floor', 'SpaceCreated', { spaceId: 'sp1', name: 'Terraza' });
  add('floor', 'TableAdded', { tableId: 't1', name: 'T1', spaceId: 'sp1', status: 'available', orderId: null });

  const line = (lineId: string, dishId: string, priceCents: number) => ({ lineId, dishId, priceCents, notes: '' });
  const place = (id: string, userId: string, waiter: string, tableId: string | null, placedAt: number, guests?: number) =>
    add(`order-${id}`, 'OrderPlaced', { orderId: id, userId, tableId, waiter, placedAt, ...(guests ? { guests } : {}) });
  const complete = (id: string, when: number) => add(`order-${id}`, 'OrderStatusChanged', { from: 'ready', to: 'completed', at: when });
  const issue = (ticketId: string, orderId: string, lines: ReturnType<typeof line>[], issuedAt: number) =>
    add(`ticket-${ticketId}`, 'TicketIssued', {
      ticketId, orderId, billId: `bill-${ticketId}`, tableId: null, waiter: 'x', currencyId: 'f1a7c2e0-3b5d-4c8e-9a61-2d4b6e8f0a01', lines, share: null,
      subtotalCents: lines.reduce((s, l) => s + l.priceCents, 0), issuedAt, issuedBy: null,
    });
  const pay = (ticketId: string, paymentId: string, method: string, amountCents: number, tipCents: number, takenAt: number, details: unknown) =>
    add(`ticket-${ticketId}`, 'PaymentTaken', { paymentId, method, amountCents, tipCents, overpaidCents: 0, details, shiftId: null, takenBy: null, takenAt });

  // Order D: Luis, lunch on Saturday the 28th (13:00 local).
  place('D', 'u2', 'Luis', null, at('2026-03-28T11:30:00Z'));
  add('order-D', 'DishesAdded', { lines: [line('d-1', 'd1', 10000)] });
  add('kitchenticket-K3', 'KitchenTicketOpened', { ticketId: 'K3', orderId: 'D', stationId: 's1', tableId: null, tableName: null, waiter: 'Luis', firedAt: at('2026-03-28T11:00:00Z'), lines: [{ lineId: 'd-1', dishId: 'd1', dishName: 'Tacos', notes: '' }] });
  add('kitchenticket-K3', 'KitchenLineCancelled', { ticketId: 'K3', orderId: 'D', lineId: 'd-1' });
  complete('D', at('2026-03-28T12:00:00Z'));
  issue('TD', 'D', [line('d-1', 'd1', 10000)], at('2026-03-28T12:05:00Z'));
  pay('TD', 'pD', 'lightning', 10000, 0, at('2026-03-28T12:10:00Z'), { method: 'lightning', sats: 5000, rate: '2000000', paymentHash: 'h1' });
  add('ticket-TD', 'TicketPaid', { at: at('2026-03-28T12:10:00Z') });

  // Order A: Ana at T1, dinner, completed after local midnight (00:30 on the 29th).
  add('floor', 'TableOccupied', { tableId: 't1', orderId: 'A' }, at('2026-03-28T20:00:00Z'));
  place('A', 'u1', 'Ana', 't1', at('2026-03-28T20:00:00Z'), 2);
  add('order-A', 'OrderGuestsChanged', { guests: 3 }); // a late arrival: three covers
  add('order-A', 'DishesAdded', { lines: [line('a-1', 'd1', 10000), line('a-2', 'd2', 2500), line('a-3', 'd2', 2500)] });
  add('order-A', 'OrderLineRemoved', { lineId: 'a-3' });
  add('kitchenticket-K1', 'KitchenTicketOpened', {
    ticketId: 'K1', orderId: 'A', stationId: 's1', tableId: 't1', tableName: 'T1', waiter: 'Ana', firedAt: at('2026-03-28T20:05:00Z'),
    lines: [{ lineId: 'a-1', dishId: 'd1', dishName: 'Tacos', notes: '' }, { lineId: 'a-2', dishId: 'd2', dishName: 'Agua', notes: '' }],
  });
  add('kitchenticket-K1', 'KitchenTicketStarted', { ticketId: 'K1', orderId: 'A', at: at('2026-03-28T20:06:00Z') });
  add('kitchenticket-K1', 'KitchenLineDone', { ticketId: 'K1', orderId: 'A', lineId: 'a-2', at: at('2026-03-28T20:10:00Z') });
  add('kitchenticket-K1', 'KitchenTicketBumped', { ticketId: 'K1', orderId: 'A', lineIds: ['a-1'], at: at('2026-03-28T20:30:00Z') });
  complete('A', at('2026-03-28T23:30:00Z'));
  issue('TA', 'A', [line('a-1', 'd1', 10000), line('a-2', 'd2', 2500)], at('2026-03-28T23:35:00Z'));
  pay('TA', 'pA', 'cash', 12500, 1000, at('2026-03-28T23:40:00Z'), { method: 'cash', tenderedCents: 13500, changeCents: 0 });
  add('ticket-TA', 'TicketPaid', { at: at('2026-03-28T23:40:00Z') });
  add('floor', 'TableReleased', { tableId: 't1', orderId: 'A' }, at('2026-03-28T23:45:00Z'));
  add('ticket-TA', 'TicketLineVoided', { lineId: 'a-2', amountCents: 2500, reason: 'wrong drink', by: 'm1', at: at('2026-03-29T00:10:00Z') });
  add('ticket-TA', 'PaymentRefunded', { refundId: 'r1', paymentId: 'pA', method: 'cash', amountCents: 2500, reason: 'void: wrong drink', shiftId: 'sh1', by: 'm1', at: at('2026-03-29T00:10:00Z') });

  // Order B: Luis, a late table; completed at 03:30 CEST, after the clocks went forward.
  place('B', 'u2', 'Luis', null, at('2026-03-29T00:30:00Z'));
  add('order-B', 'DishesAdded', { lines: [line('b-1', 'd1', 10000), line('b-2', 'd1', 10000)] });
  add('order-B', 'OrderLineUpdated', { lineId: 'b-2', priceCents: 9000, notes: 'staff price' });
  add('kitchenticket-K2', 'KitchenTicketOpened', {
    ticketId: 'K2', orderId: 'B', stationId: 's1', tableId: null, tableName: null, waiter: 'Luis', firedAt: at('2026-03-29T00:40:00Z'),
    lines: [{ lineId: 'b-1', dishId: 'd1', dishName: 'Tacos', notes: '' }, { lineId: 'b-2', dishId: 'd1', dishName: 'Tacos', notes: '' }],
  });
  add('kitchenticket-K2', 'KitchenLineDone', { ticketId: 'K2', orderId: 'B', lineId: 'b-1', at: at('2026-03-29T00:50:00Z') });
  add('kitchenticket-K2', 'KitchenLineDone', { ticketId: 'K2', orderId: 'B', lineId: 'b-2', at: at('2026-03-29T00:50:00Z') });
  complete('B', at('2026-03-29T01:30:00Z'));
  issue('TB', 'B', [line('b-1', 'd1', 10000), line('b-2', 'd1', 9000)], at('2026-03-29T01:35:00Z'));
  pay('TB', 'pB', 'credit_card', 19000, 0, at('2026-03-29T01:40:00Z'), { method: 'credit_card' });
  add('ticket-TB', 'TicketPaid', { at: at('2026-03-29T01:40:00Z') });
  add('ticket-TB', 'PaymentRefunded', { refundId: 'r2', paymentId: 'pB', method: 'credit_card', amountCents: 3000, reason: 'cold food', shiftId: null, by: 'm1', at: at('2026-03-29T02:00:00Z') });

  // Order C: Ana; billed, the bill cancelled, then the order cancelled.
  place('C', 'u1', 'Ana', null, at('2026-03-29T09:00:00Z'));
  add('order-C', 'DishesAdded', { lines: [line('c-1', 'd2', 2500)] });
  issue('TC', 'C', [line('c-1', 'd2', 2500)], at('2026-03-29T09:30:00Z'));
  add('ticket-TC', 'TicketCancelled', { reason: 'guest left', by: 'm1', at: at('2026-03-29T09:50:00Z') });
  add('order-C', 'OrderStatusChanged', { from: 'pending', to: 'cancelled', at: at('2026-03-29T10:00:00Z') });
  return log;
}
