import type { Cents } from '../money.js';
import type { Approval, Authority } from '../staff/approval.js';
import type { Billing, BillingCommand, BillingEvent } from './billing.js';
import type { Discount, DiscountCommand, DiscountEvent } from './discounts.js';
import type { LineVoid, NewLine, OrderTransfer } from './exceptions.js';
import type { LineChanges, OrderLine, PriceOverride, RecordedLine } from './lines.js';

// An order's state, events and commands, apart from its decider (order.ts, which re-exports them): a
// leaf of the order's modules, which all read it and which it imports none of (issue 58).

export const ORDER_STATUSES = ['pending', 'preparing', 'ready', 'completed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Sends lines to the kitchen: named lines, or (none named) every unfired line of the order or of one course (firing.ts). */
export type FireLines = { type: 'fireLines'; firingId: string; lines: FiredLine[]; at: number; course?: number };

/**
 * Why a received payment needs a manager's eye (payment-flags.ts): it arrived for an order that had
 * already ended, was deleted, or had already been paid. The money is recorded on the order all the same.
 */
export type PaymentFlag = 'order_completed' | 'order_cancelled' | 'order_deleted' | 'order_already_paid';

/** A line sent to the kitchen: the station it went to and the kitchen ticket that carries it. */
export interface FiredLine {
  lineId: string;
  firingId: string;
  dishId: string;
  stationId: string;
  ticketId: string;
  /** The dish's name when fired, so the ticket never depends on a menu that may change. */
  dishName: string;
  /** The dish's allergens when fired (absent on lines fired before allergens were kept). */
  allergens?: string[];
  /** The line moved to that order (moves.ts): its kitchen ticket stays here, the kitchen keeps cooking it. */
  movedTo?: string;
  /** The line came from that order, whose kitchen ticket carries it. */
  movedFrom?: string;
}

export interface Order {
  orderId: string | null;
  status: OrderStatus | null;
  deleted: boolean;
  userId: string | null;
  tableId: string | null;
  waiter: string;
  placedAt: number;
  /** The order's number of its business day; null for orders placed before numbers. */
  number: number | null;
  /** How many guests sat down (covers); null when not said. */
  guests: number | null;
  lines: Record<string, OrderLine>;
  /** Lightning payments received for this order, by payment hash. */
  payments: Record<string, { amountSat: number; receivedAt: number }>;
  /** Discounts and comps given, by id (discounts.ts). */
  discounts: Record<string, Discount>;
  /** Lines on live tickets (bills): see billing.ts. Not part of `version`: billing never makes a waiter's If-Match stale. */
  billing: Billing;
  /** Lines sent to the kitchen (kept after a line is removed: the kitchen must see it cancelled). */
  fired: Record<string, FiredLine>;
  /** The time each firing happened, by firing id. */
  firings: Record<string, number>;
  /** Moves of lines in or out, by move id (moves.ts); absent until the first. */
  moves?: Record<string, true>;
  version: number;
}

export type OrderEvent =
  /** `number`: the order's number of its business day (absent on orders placed before numbers). */
  /** `transfer`: placed by a manager in another member's name (absent: placed by its own waiter, or before transfers). */
  /** `guests`: how many sat down, the covers (absent: not said, or placed before issue 59). */
  | { type: 'OrderPlaced'; data: { orderId: string; userId: string; tableId: string | null; waiter: string; placedAt: number; number?: number; transfer?: OrderTransfer; guests?: number } }
  /** The guest count corrected (a late arrival, a miscount). */
  | { type: 'OrderGuestsChanged'; data: { guests: number } }
  /** `moved`: the lines came from another order (moves.ts; absent: ordered here). */
  | { type: 'DishesAdded'; data: { lines: RecordedLine[]; moved?: LinesMovedIn } }
  /** quantity, course and seat: only when the update changed them (never on events written before them). */
  /** `override`: the price changed, with who, who approved and why (absent: the price stayed, or events before overrides). */
  | { type: 'OrderLineUpdated'; data: { lineId: string; priceCents: Cents; notes: string; override?: PriceOverride } & LineChanges }
  /**
   * `void`: the kitchen had the line, so it was voided with a manager's approval (absent on an unfired
   * line, and on voids written before approvals); `reason`: why (kept for the kitchen's readers).
   */
  /** `move`: the line went to another order, not away (moves.ts). */
  | { type: 'OrderLineRemoved'; data: { lineId: string; reason?: string; void?: LineVoid; move?: LineMovedOut } }
  /** `void`: the fired lines among them, as one void (see OrderLineRemoved). */
  | { type: 'OrderLinesCleared'; data: { lineIds: string[]; void?: LineVoid } }
  /** `paid`: closed because it was paid in full, whatever the kitchen's state (closing.ts; absent on any other change). */
  | { type: 'OrderStatusChanged'; data: { from: OrderStatus; to: OrderStatus; at: number; paid?: true } }
  | { type: 'OrderMovedToTable'; data: { from: string | null; to: string | null } }
  /** `transfer`: the order was handed to another waiter, with who, who approved and why (absent on events before transfers). */
  | { type: 'OrderDetailsChanged'; data: { userId: string; waiter: string; transfer?: OrderTransfer } }
  | { type: 'OrderDeleted'; data: { tableId: string | null } }
  | { type: 'OrderPaymentReceived'; data: { paymentHash: string; amountSat: number; receivedAt: number; flag?: PaymentFlag } }
  | BillingEvent
  | DiscountEvent
  /** `course`: the course fired, when the waiter fired one (absent: the lines named, or every unfired line). */
  | { type: 'OrderLinesFired'; data: { firingId: string; lines: FiredLine[]; at: number; course?: number } };

export type OrderCommand =
  | { type: 'placeOrder'; orderId: string; userId: string; tableId: string | null; waiter: string; at: number; lines: NewLine[]; number?: number; guests?: number; authority: Authority }
  | { type: 'addDishes'; lines: NewLine[]; authority: Authority }
  | ({ type: 'updateLine'; lineId: string; priceCents?: Cents; notes?: string; authority: Authority } & LineChanges)
  | { type: 'removeLine'; lineId: string; authority: Authority }
  | { type: 'clearLines'; authority: Authority }
  | { type: 'changeStatus'; to: OrderStatus; at: number; ifMatch?: number }
  /** `guests`: absent keeps the count. */
  | { type: 'updateOrder'; userId: string; tableId: string | null; waiter: string; status: OrderStatus; at: number; ifMatch?: number; guests?: number; authority: Authority }
  | { type: 'deleteOrder' }
  /** Money received is a fact whatever the order's state: recorded once per payment hash, never refused. */
  | { type: 'recordPayment'; paymentHash: string; amountSat: number; receivedAt: number }
  | BillingCommand
  | DiscountCommand
  | FireLines
  | MoveLinesOut
  | MoveLinesIn
  /** Completes an order paid in full, whatever the kitchen's state (closing.ts). */
  | { type: 'closeOrder'; at: number; paidBills: string[] };

export type CloseOrder = Extract<OrderCommand, { type: 'closeOrder' }>;

// Lines moved between orders (moves.ts).
/**
 * On a removal: the line went to another order, as it was (so the other half of the move can be
 * written from this event alone, after a crash); `approval` when the kitchen had it or the order is
 * another waiter's.
 */
export interface LineMovedOut { moveId: string; toOrderId: string; line: OrderLine; fired?: FiredLine; approval?: Approval }

/** On a `DishesAdded`: the lines came from another order, with their firing (the kitchen keeps cooking them on the ticket it has). */
export interface LinesMovedIn { moveId: string; fromOrderId: string; fired: FiredLine[] }

export type MoveLinesOut = { type: 'moveLinesOut'; moveId: string; lineIds: string[]; toOrderId: string; toUserId: string; authority: Authority };
export type MoveLinesIn = { type: 'moveLinesIn'; moveId: string; fromOrderId: string; lines: OrderLine[]; fired: FiredLine[] };

