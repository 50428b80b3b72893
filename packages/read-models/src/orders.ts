import { type Discount, type KitchenStatus, type OrderEvent, type OrderLine, completeLine, discountedTotal, lineDiscounts, orderVersionAfter } from '@comanda/domain';
import type { FiredLine } from '@comanda/domain';
import type { ReadStore } from '@comanda/read-store';
import { KITCHEN_TICKETS, ORDERS } from './collections.js';
import type { KitchenTicketView } from './kitchen-tickets.js';
import { projectionOf, type Tracked, updateDocument } from './projection.js';

/**
 * An order as the screens show it, its lines embedded: one document changes per event, so every
 * change of lines and total is applied atomically and idempotently. Money stays in cents here.
 */
export type OrderView = Tracked & {
  id: string;
  user_id: string;
  table_id: string | null;
  waiter: string;
  status: string;
  total_cents: number;
  /** The order's number of its business day; null for orders placed before numbers. */
  number: number | null;
  /** How many guests sat down (covers); null when not said (absent on documents written before issue 59). */
  guests?: number | null;
  placed_at: number;
  created_at: string;
  completed_at: number | null;
  /** `discount_cents`: the line's discount, its own and its share of the order's (absent: none). */
  lines: Array<OrderLine & { discount_cents?: number }>;
  /** Discounts and comps given (absent on documents written before discounts: none). */
  discounts?: Discount[];
  payments: Array<{ payment_hash: string; amount_sat: number; received_at: number }>;
  paid_sat: number;
  /** Kitchen status by line id (kitchen-tickets.ts); a line not in it is `pending`. */
  kitchen_status?: Record<string, KitchenStatus>;
  /**
   * Fired lines moved to another order, by line id: their kitchen ticket stays this order's, so its
   * changes are passed on to the order the line is on now (kitchen-tickets.ts). Absent: none.
   */
  moved_lines?: Record<string, string>;
  version: number;
};

export { ORDERS };

const byId = <T>(items: T[], id: (x: T) => string): Record<string, T> => Object.fromEntries(items.map((x) => [id(x), x]));

/**
 * Version, total and each line's discount as the order decider counts them (orderVersionAfter,
 * discountedTotal, lineDiscounts): the ETag a GET serves is the version If-Match checks.
 */
const withLines = (order: OrderView, lines: OrderLine[], event: OrderEvent, discounts: Discount[] = order.discounts ?? []): Omit<OrderView, '_position'> => {
  const lineRecord = byId(lines, (l) => l.lineId);
  const discountRecord = byId(discounts, (d) => d.discountId);
  const shares = lineDiscounts(lineRecord, discountRecord);
  return {
    ...order,
    lines: lines.map(({ discount_cents: _old, ...l }: OrderLine & { discount_cents?: number }) => (shares.get(l.lineId) ? { ...l, discount_cents: shares.get(l.lineId)! } : l)),
    ...(discounts.length || order.discounts ? { discounts } : {}),
    total_cents: discountedTotal(lineRecord, discountRecord),
    version: orderVersionAfter(order.version, event),
  };
};

export const ordersProjection = projectionOf<OrderEvent>({
  name: 'orders',
  // 2: lines carry quantity, course, seat and modifiers (completed for lines written before them), the total counts them; orders carry their number.
  version: 2,
  handles: [
    'OrderPlaced', 'DishesAdded', 'OrderLineUpdated', 'OrderLineRemoved', 'OrderLinesCleared', 'OrderStatusChanged', 'OrderMovedToTable', 'OrderDetailsChanged', 'OrderDeleted',
    'OrderPaymentReceived', 'OrderGuestsChanged', 'DiscountGiven', 'DiscountRemoved',
  ],
  collections: {
    [ORDERS]: [{ placed_at: -1 }, { status: 1, placed_at: -1 }, { user_id: 1, placed_at: -1 }, { table_id: 1, placed_at: -1 }, { status: 1, completed_at: 1 }],
  },
  async apply(e, store) {
    const orderId = e.stream.slice('order-'.length);
    // Fired lines moved in arrive as their ticket has them now (sent, cooking, done), not as "not sent".
    const movedIn = e.type === 'DishesAdded' && e.data.moved?.fired.length ? await kitchenStatusOf(store, e.data.moved.fired) : undefined;
    await updateDocument(store.collection<OrderView>(ORDERS), orderId, e, (order) => {
      if (e.type === 'OrderPlaced') {
        const { userId, tableId, waiter, placedAt, number = null, guests = null } = e.data;
        return {
          _id: orderId, id: orderId, user_id: userId, table_id: tableId, waiter, status: 'pending', total_cents: 0, number, guests,
          placed_at: placedAt, created_at: new Date(placedAt).toISOString(), completed_at: null, lines: [], payments: [], paid_sat: 0, version: orderVersionAfter(0, e),
        };
      }
      if (!order) return undefined;
      switch (e.type) {
        case 'DishesAdded': {
          const added = withLines(order, [...order.lines, ...e.data.lines.map(completeLine)], e);
          if (!movedIn) return added;
          // Back where they were fired from (a move undone): no longer passed on to the other order.
          const away = order.moved_lines && Object.fromEntries(Object.entries(order.moved_lines).filter(([lineId]) => !(lineId in movedIn)));
          return { ...added, kitchen_status: { ...order.kitchen_status, ...movedIn }, ...(away ? { moved_lines: away } : {}) };
        }
        case 'OrderLineUpdated':
          return withLines(order, order.lines.map((l) => (l.lineId === e.data.lineId ? { ...completeLine(l), ...e.data } : l)), e);
        case 'OrderLineRemoved': {
          const rest = withLines(order, order.lines.filter((l) => l.lineId !== e.data.lineId), e);
          const to = e.data.move?.fired ? e.data.move.toOrderId : undefined;
          return to ? { ...rest, moved_lines: { ...order.moved_lines, [e.data.lineId]: to } } : rest;
        }
        case 'OrderLinesCleared':
          return withLines(order, [], e);
        case 'DiscountGiven':
          return withLines(order, order.lines, e, [...(order.discounts ?? []), e.data]);
        case 'DiscountRemoved':
          return withLines(order, order.lines, e, (order.discounts ?? []).filter((d) => d.discountId !== e.data.discountId));
        case 'OrderStatusChanged':
          return { ...order, status: e.data.to, completed_at: e.data.to === 'completed' ? e.data.at : order.completed_at, version: orderVersionAfter(order.version, e) };
        case 'OrderMovedToTable':
          return { ...order, table_id: e.data.to, version: orderVersionAfter(order.version, e) };
        case 'OrderDetailsChanged':
          return { ...order, user_id: e.data.userId, waiter: e.data.waiter, version: orderVersionAfter(order.version, e) };
        case 'OrderGuestsChanged':
          return { ...order, guests: e.data.guests, version: orderVersionAfter(order.version, e) };
        case 'OrderDeleted':
          return null;
        case 'OrderPaymentReceived': {
          const { paymentHash, amountSat, receivedAt } = e.data;
          const payments = [...order.payments, { payment_hash: paymentHash, amount_sat: amountSat, received_at: receivedAt }];
          return { ...order, payments, paid_sat: order.paid_sat + amountSat, version: orderVersionAfter(order.version, e) };
        }
      }
    });
  },
});

/** The kitchen's status of lines fired elsewhere, read from their tickets (which the log order has already brought up to here). */
async function kitchenStatusOf(store: ReadStore, fired: FiredLine[]): Promise<Record<string, KitchenStatus>> {
  const tickets = store.collection<KitchenTicketView>(KITCHEN_TICKETS);
  const status: Record<string, KitchenStatus> = {};
  for (const ticketId of new Set(fired.map((l) => l.ticketId))) {
    const ticket = await tickets.get(ticketId);
    for (const l of ticket?.lines ?? []) if (fired.some((f) => f.lineId === l.line_id)) status[l.line_id] = l.kitchen_status;
  }
  for (const l of fired) status[l.lineId] ??= 'sent';
  return status;
}

