import type { Decider } from '../decider.js';
import { conflict, notFound, validationFailed } from '../errors.js';
import type { Cents } from '../money.js';
import { unchangedSince } from '../versions.js';
import { decideFiring } from './firing.js';
import { decideClose } from './closing.js';
import { decideDiscount, discountedTotal, evolveDiscounts, linesMayChange } from './discounts.js';
import { paymentFlag } from './payment-flags.js';
import { checkLines, completeLine, keepPortionAboveZero, lineChanges } from './lines.js';
import { decideBilling, emptyBilling, evolveBilling, lineNotBilled } from './billing.js';
import { priceLines, repriced, transferOf, voidOf } from './exceptions.js';
import { decideMoveIn, decideMoveOut, firedAfterMove } from './moves.js';
import { ORDER_STATUSES, type Order, type OrderCommand, type OrderEvent, type OrderStatus } from './order-types.js';

export type { FiredLine, Order, OrderCommand, OrderEvent, OrderStatus } from './order-types.js';
export { ORDER_STATUSES } from './order-types.js';

/**
 * One order (`order-<id>`): its lines, its state in the kitchen's lifecycle and its table. Every rule
 * about an order's own lines and status is decided against this stream alone, so two waiters adding
 * dishes at once both land (the handler decides again after a conflict) and no line is lost.
 */
export const orderStream = (orderId: string) => `order-${orderId}`;

/**
 * The lifecycle: forward through the kitchen, or cancelled before completion; the ends are final. A
 * ready order goes back to preparing when the next course is fired (the starters were ready, the mains
 * are now cooking).
 */
export const TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['preparing', 'cancelled'],
  preparing: ['ready', 'cancelled'],
  ready: ['preparing', 'completed', 'cancelled'],
  completed: [],
  cancelled: [],
};

export const isOrderStatus = (v: unknown): v is OrderStatus => (ORDER_STATUSES as readonly unknown[]).includes(v);
export const isActive = (status: OrderStatus) => status !== 'completed' && status !== 'cancelled';
/** An order is open while it exists, is not deleted and has not finished: it holds its table. */
export const isOpen = (o: Pick<Order, 'orderId' | 'deleted' | 'status'>): boolean =>
  o.orderId !== null && !o.deleted && o.status !== null && isActive(o.status);
/** A dinner goes course by course: dessert is ordered when the mains are ready. */
const dishesMayChange = (status: OrderStatus) => status === 'pending' || status === 'preparing' || status === 'ready';

/** What the order comes to: its lines in menu prices, after discounts. */
export const orderTotal = (order: Pick<Order, 'lines' | 'discounts'>): Cents => discountedTotal(order.lines, order.discounts);

/**
 * Events that are not a change of the order as waiters edit it (billing and firing): its version
 * (ETag) stays, so no If-Match goes stale. Every other event moves the version on by one.
 */
const UNVERSIONED: ReadonlySet<string> = new Set<OrderEvent['type']>(['OrderBilled', 'OrderTicketCancelled', 'OrderLinesFired']);

/** An order's version after an event: the decider's If-Match and the projection's ETag both count with this. */
export const orderVersionAfter = (version: number, event: { type: string }): number => (UNVERSIONED.has(event.type) ? version : version + 1);

/** Covers: a party of 1 to 99 (a banquet is split over tables). */
export const MAX_GUESTS = 99;
function checkGuests(guests: number | undefined): void {
  if (guests !== undefined && (!Number.isInteger(guests) || guests < 1 || guests > MAX_GUESTS)) throw validationFailed([{ field: 'guests', message: `must be a whole number from 1 to ${MAX_GUESTS}` }]);
}

function existing(state: Order): Order & { status: OrderStatus } {
  if (!state.orderId || state.deleted || !state.status) throw notFound();
  return state as Order & { status: OrderStatus };
}

function mayChangeDishes(order: Order & { status: OrderStatus }): void {
  if (!dishesMayChange(order.status)) {
    throw conflict(`Dishes can change only while the order is open (pending, preparing or ready); it is ${order.status}`);
  }
}

/** An order with live tickets is neither cancelled nor deleted: its tickets are cancelled first. */
function noLiveTickets(o: Order): void {
  if (Object.keys(o.billing.bills).length) throw conflict('The order has live tickets; cancel them first');
}

function transition(from: OrderStatus, to: OrderStatus, at: number, o?: Order): OrderEvent[] {
  if (from === to) return [];
  if (to === 'cancelled' && o) noLiveTickets(o);
  if (!TRANSITIONS[from].includes(to)) throw conflict(`An order cannot go from ${from} to ${to}`, { from, to });
  return [{ type: 'OrderStatusChanged', data: { from, to, at } }];
}

export const order: Decider<OrderCommand, OrderEvent, Order> = {
  initialState: () => ({
    orderId: null, status: null, deleted: false, userId: null, tableId: null, waiter: '', placedAt: 0, number: null, guests: null, lines: {}, discounts: {}, payments: {}, billing: emptyBilling(), fired: {}, firings: {}, version: 0,
  }),

  decide(command, state) {
    switch (command.type) {
      case 'placeOrder': {
        if (state.orderId) throw conflict('This order already exists');
        const { orderId, userId, tableId, waiter, at, number, guests } = command;
        checkGuests(guests);
        checkLines(command.lines);
        const lines = priceLines(command.lines, command.authority);
        // In another member's name: a manager's call, recorded as the order's first transfer.
        const transfer = userId === command.authority.userId ? {} : { transfer: transferOf(command.authority.userId, command.authority) };
        const placed: OrderEvent = { type: 'OrderPlaced', data: { orderId, userId, tableId, waiter, placedAt: at, ...(number === undefined ? {} : { number }), ...transfer, ...(guests === undefined ? {} : { guests }) } };
        return lines.length ? [placed, { type: 'DishesAdded', data: { lines } }] : [placed];
      }
      case 'addDishes': {
        const o = existing(state);
        mayChangeDishes(o);
        checkLines(command.lines);
        const lines = priceLines(command.lines, command.authority);
        return lines.length ? [{ type: 'DishesAdded', data: { lines } }] : [];
      }
      case 'updateLine': {
        const o = existing(state);
        const line = o.lines[command.lineId];
        if (!line) throw notFound();
        mayChangeDishes(o);
        lineNotBilled(o.billing, [line.lineId]);
        const priceCents = command.priceCents ?? line.priceCents;
        const notes = command.notes ?? line.notes;
        const changes = lineChanges(line, command, o.fired[line.lineId] !== undefined);
        keepPortionAboveZero({ ...line, priceCents }, 'price_at_order');
        if (priceCents === line.priceCents && notes === line.notes && Object.keys(changes).length === 0) return [];
        linesMayChange(o, { ...o.lines, [line.lineId]: { ...line, priceCents, ...changes } });
        const override = priceCents === line.priceCents ? {} : { override: repriced(line, command.authority) };
        return [{ type: 'OrderLineUpdated', data: { lineId: line.lineId, priceCents, notes, ...changes, ...override } }];
      }
      case 'removeLine': {
        const o = existing(state);
        const line = o.lines[command.lineId];
        if (!line) throw notFound();
        mayChangeDishes(o);
        lineNotBilled(o.billing, [command.lineId]);
        const { [command.lineId]: _gone, ...rest } = o.lines;
        linesMayChange(o, rest);
        const voided = voidOf([line], o.fired, command.authority);
        const reason = voided?.reason ?? null;
        return [{ type: 'OrderLineRemoved', data: { lineId: command.lineId, ...(reason ? { reason } : {}), ...(voided ? { void: voided } : {}) } }];
      }
      case 'clearLines': {
        const o = existing(state);
        mayChangeDishes(o);
        const lineIds = Object.keys(o.lines);
        lineNotBilled(o.billing, lineIds);
        linesMayChange(o, {});
        const voided = voidOf(Object.values(o.lines), o.fired, command.authority);
        return lineIds.length ? [{ type: 'OrderLinesCleared', data: { lineIds, ...(voided ? { void: voided } : {}) } }] : [];
      }
      case 'changeStatus': {
        const o = existing(state);
        unchangedSince(o.version, command.ifMatch);
        return transition(o.status, command.to, command.at, o);
      }
      case 'updateOrder': {
        const o = existing(state);
        unchangedSince(o.version, command.ifMatch);
        const events: OrderEvent[] = [];
        // The waiter is a member of staff, named as the roster names them: a new name alone is no change,
        // another member is a transfer.
        if (command.userId !== o.userId) {
          events.push({ type: 'OrderDetailsChanged', data: { userId: command.userId, waiter: command.waiter, transfer: transferOf(o.userId, command.authority) } });
        }
        if (command.tableId !== o.tableId) {
          if (!isActive(o.status)) throw conflict(`A ${o.status} order cannot move to another table`);
          events.push({ type: 'OrderMovedToTable', data: { from: o.tableId, to: command.tableId } });
        }
        if (command.guests !== undefined && command.guests !== o.guests) {
          checkGuests(command.guests);
          if (!isActive(o.status)) throw conflict(`A ${o.status} order's guest count no longer changes`);
          events.push({ type: 'OrderGuestsChanged', data: { guests: command.guests } });
        }
        return [...events, ...transition(o.status, command.status, command.at, o)];
      }
      case 'deleteOrder': {
        const o = existing(state);
        if (o.status === 'completed') throw conflict('A completed order is a sales record and cannot be deleted');
        if (o.status !== 'pending' && o.status !== 'cancelled') {
          throw conflict(`Only pending or cancelled orders can be deleted; this one is ${o.status}`);
        }
        noLiveTickets(o);
        return [{ type: 'OrderDeleted', data: { tableId: o.tableId } }];
      }
      case 'billLines': {
        const o = existing(state);
        if (o.status === 'cancelled') throw conflict('A cancelled order cannot be billed');
        return decideBilling(command, o.billing, new Set(Object.keys(o.lines)));
      }
      case 'releaseTicket':
        return decideBilling(command, state.billing, new Set());
      case 'recordPayment': {
        if (!state.orderId) throw notFound();
        if (state.payments[command.paymentHash]) return [];
        const { paymentHash, amountSat, receivedAt } = command;
        const flag = paymentFlag(state);
        return [{ type: 'OrderPaymentReceived', data: { paymentHash, amountSat, receivedAt, ...(flag ? { flag } : {}) } }];
      }
      case 'giveDiscount':
      case 'removeDiscount': {
        const o = existing(state);
        if (!isActive(o.status)) throw conflict(`A ${o.status} order takes no discount`);
        return decideDiscount(command, o);
      }
      case 'closeOrder':
        return decideClose(existing(state), command);
      case 'fireLines': {
        const o = existing(state);
        if (o.firings[command.firingId] !== undefined) return [];
        mayChangeDishes(o);
        const fired = decideFiring(o, command);
        // The kitchen has work for a ready order again: it is preparing until that is done too.
        return fired.length && o.status === 'ready' ? [...fired, ...transition('ready', 'preparing', command.at)] : fired;
      }
      case 'moveLinesOut': {
        const o = existing(state);
        mayChangeDishes(o);
        return decideMoveOut(o, command);
      }
      case 'moveLinesIn': {
        const o = existing(state);
        mayChangeDishes(o);
        return decideMoveIn(o, command);
      }
    }
  },

  evolve(state, event) {
    const version = orderVersionAfter(state.version, event);
    switch (event.type) {
      case 'OrderPlaced': {
        const { orderId, userId, tableId, waiter, placedAt, number = null, guests = null } = event.data;
        return { ...state, orderId, userId, tableId, waiter, placedAt, number, guests, status: 'pending', version };
      }
      case 'OrderGuestsChanged':
        return { ...state, guests: event.data.guests, version };
      case 'DishesAdded': {
        const lines = { ...state.lines };
        for (const line of event.data.lines) lines[line.lineId] = completeLine(line);
        return { ...state, lines, ...(event.data.moved ? firedAfterMove(state, event) : {}), version };
      }
      case 'OrderLineUpdated': {
        const line = state.lines[event.data.lineId]!;
        return { ...state, lines: { ...state.lines, [line.lineId]: { ...line, ...event.data } }, version };
      }
      case 'OrderLineRemoved': {
        const { [event.data.lineId]: _gone, ...lines } = state.lines;
        return { ...state, lines, ...(event.data.move ? firedAfterMove(state, event) : {}), version };
      }
      case 'OrderLinesCleared':
        return { ...state, lines: {}, version };
      case 'OrderStatusChanged':
        return { ...state, status: event.data.to, version };
      case 'OrderMovedToTable':
        return { ...state, tableId: event.data.to, version };
      case 'OrderDetailsChanged':
        return { ...state, userId: event.data.userId, waiter: event.data.waiter, version };
      case 'OrderDeleted':
        return { ...state, deleted: true, version };
      case 'OrderPaymentReceived': {
        const { paymentHash, amountSat, receivedAt } = event.data;
        return { ...state, payments: { ...state.payments, [paymentHash]: { amountSat, receivedAt } }, version };
      }
      case 'DiscountGiven':
      case 'DiscountRemoved':
        return { ...state, discounts: evolveDiscounts(state.discounts, event), version };
      case 'OrderBilled':
      case 'OrderTicketCancelled':
        return { ...state, billing: evolveBilling(state.billing, event), version };
      case 'OrderLinesFired': {
        const fired = { ...state.fired };
        for (const l of event.data.lines) fired[l.lineId] = l;
        return { ...state, fired, firings: { ...state.firings, [event.data.firingId]: event.data.at }, version };
      }
    }
  },
};
