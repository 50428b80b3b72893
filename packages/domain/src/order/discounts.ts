import { conflict, validationFailed } from '../errors.js';
import { type Authority, approve } from '../staff/approval.js';
import { may } from '../staff/permissions.js';
import type { Cents } from '../money.js';
import type { Billing } from './billing.js';
import { type OrderLine, lineTotal } from './lines.js';

/**
 * Discounts and comps on an order (its own stream: they change what the order owes, as its lines do).
 * A discount is on one line or on the whole order; its amount is worked out in cents when it is given
 * (a percent: round half up of what it applies to), so the order's figures never move afterwards. A
 * comp is a 100 % line discount with its reason.
 */
export type DiscountKind = 'percent' | 'amount';

export interface Discount {
  discountId: string;
  /** null: the whole order, spread over its lines in proportion (largest remainder). */
  lineId: string | null;
  kind: DiscountKind;
  /** percent: basis points (10 % = 1000); amount: cents. */
  value: number;
  amountCents: Cents;
  reason: string;
  by: string | null;
  /** The manager who approved it (a manager's own discount: themselves); null or absent: within the waiter's limit. */
  approvedBy?: string | null;
  at: number;
}

export type DiscountEvent =
  | { type: 'DiscountGiven'; data: Discount }
  | { type: 'DiscountRemoved'; data: { discountId: string } };

export type DiscountCommand =
  /**
   * `limitBp`: COMANDA_WAITER_DISCOUNT_MAX_PERCENT in basis points: what staff give without a manager,
   * of what one discount applies to and of the order's lines all discounts together.
   */
  | { type: 'giveDiscount'; discountId: string; lineId: string | null; kind: DiscountKind; value: number; reason: string; at: number; limitBp: number; authority: Authority }
  | { type: 'removeDiscount'; discountId: string };

export const REASON_MAX_LENGTH = 200;

const roundHalfUp = (p: number, q: number): Cents => Math.floor((2 * p + q) / (2 * q));

type Lines = Record<string, OrderLine>;
type Discounts = Record<string, Discount>;

/** Each line's own discounts. */
const ownDiscounts = (discounts: Discounts, lineId: string) =>
  Object.values(discounts).filter((d) => d.lineId === lineId).reduce((sum, d) => sum + d.amountCents, 0);

/**
 * Each line's discount: its own, and its share of the order's discounts in proportion to what the
 * lines come to after their own, cents by largest remainder (ties to the earlier line), so the shares
 * add up to the order's discounts exactly and taxes per bill stay exact.
 */
export function lineDiscounts(lines: Lines, discounts: Discounts): Map<string, Cents> {
  const ids = Object.keys(lines);
  const after = ids.map((id) => lineTotal(lines[id]!) - ownDiscounts(discounts, id));
  const base = after.reduce((sum, x) => sum + x, 0);
  const orderLevel = Object.values(discounts).filter((d) => d.lineId === null).reduce((sum, d) => sum + d.amountCents, 0);
  const shares = ids.map((_, i) => (base > 0 ? Math.floor((orderLevel * after[i]!) / base) : 0));
  let left = base > 0 ? orderLevel - shares.reduce((sum, x) => sum + x, 0) : 0;
  const byRemainder = ids.map((_, i) => i).sort((a, b) => ((orderLevel * after[b]!) % base) - ((orderLevel * after[a]!) % base) || a - b);
  for (const i of byRemainder) {
    if (left <= 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return new Map(ids.map((id, i) => [id, ownDiscounts(discounts, id) + shares[i]!]));
}

/** What the order's lines come to after every discount. */
export const discountedTotal = (lines: Lines, discounts: Discounts): Cents =>
  Object.values(lines).reduce((sum, l) => sum + lineTotal(l), 0) - Object.values(discounts).reduce((sum, d) => sum + d.amountCents, 0);

/** A discount touching a line on a live ticket would change a bill already issued. */
function notBilled(billing: Billing, lineIds: string[]): void {
  if (lineIds.some((id) => billing.billedLines[id])) throw conflict('The discount touches a line already on a ticket; cancel the ticket first');
}

export function decideDiscount(command: DiscountCommand, o: { lines: Lines; discounts: Discounts; billing: Billing }): DiscountEvent[] {
  if (command.type === 'removeDiscount') {
    const d = o.discounts[command.discountId];
    if (!d) throw validationFailed([{ field: 'discount_id', message: 'must name a discount of this order' }]);
    notBilled(o.billing, d.lineId ? [d.lineId] : Object.keys(o.lines));
    return [{ type: 'DiscountRemoved', data: { discountId: d.discountId } }];
  }
  if (o.discounts[command.discountId]) return [];
  const reason = command.reason.trim();
  const errors = [];
  if (!reason || reason.length > REASON_MAX_LENGTH) errors.push({ field: 'reason', message: `must be 1 to ${REASON_MAX_LENGTH} characters` });
  if (!Number.isInteger(command.value) || command.value <= 0 || (command.kind === 'percent' && command.value > 10_000)) {
    errors.push({ field: 'value', message: command.kind === 'percent' ? 'must be a percent above 0, at most 100, with at most two decimals' : 'must be a positive amount with at most two decimals' });
  }
  const line = command.lineId === null ? null : o.lines[command.lineId];
  if (command.lineId !== null && !line) errors.push({ field: 'line_id', message: 'must name a line of this order' });
  if (errors.length) throw validationFailed(errors);
  notBilled(o.billing, line ? [line.lineId] : Object.keys(o.lines));
  // What it applies to: the line after its own discounts, or the order after every discount.
  const appliesTo = line ? lineTotal(line) - ownDiscounts(o.discounts, line.lineId) : discountedTotal(o.lines, o.discounts);
  const amountCents = command.kind === 'percent' ? roundHalfUp(appliesTo * command.value, 10_000) : command.value;
  if (amountCents > appliesTo) throw validationFailed([{ field: 'value', message: `would take the ${line ? 'line' : 'order'} below zero (at most ${(appliesTo / 100).toFixed(2)})` }]);
  // A line's discount must also leave room for the order's discounts already given (spread over every
  // line, they would otherwise take the order below zero).
  const orderLeft = discountedTotal(o.lines, o.discounts);
  if (line && amountCents > orderLeft) throw validationFailed([{ field: 'value', message: `would take the order below zero (at most ${(orderLeft / 100).toFixed(2)})` }]);
  const approval = overTheLimit(command, o, amountCents, appliesTo) || may(command.authority.role, 'approvals:give')
    ? approve(`discount over the waiter's limit of ${command.limitBp / 100} %`, { ...command.authority, reason: command.authority.reason ?? reason })
    : null;
  const { type: _type, limitBp: _limit, reason: _reason, authority, ...given } = command;
  return [{ type: 'DiscountGiven', data: { ...given, reason, by: authority.userId, approvedBy: approval?.approvedBy ?? null, amountCents } }];
}

/**
 * Past what staff give without a manager: one discount above the limit of what it applies to (a percent
 * as given, an amount as its share), or the discounts given without a manager on this order, this one
 * with them, above the limit of what its lines come to: two 10 % discounts are 19 % of the order.
 */
function overTheLimit(command: Extract<DiscountCommand, { type: 'giveDiscount' }>, o: { lines: Lines; discounts: Discounts }, amountCents: Cents, appliesTo: Cents): boolean {
  const limit = command.limitBp;
  if (command.kind === 'percent' ? command.value > limit : amountCents * 10_000 > appliesTo * limit) return true;
  const unapproved = Object.values(o.discounts).filter((d) => !d.approvedBy).reduce((sum, d) => sum + d.amountCents, 0);
  const lines = Object.values(o.lines).reduce((sum, l) => sum + lineTotal(l), 0);
  return (unapproved + amountCents) * 10_000 > lines * limit;
}

/** Lines with discounts keep their price and quantity, and the order's discounts never exceed its lines. */
export function linesMayChange(o: { lines: Lines; discounts: Discounts }, changed: Lines): void {
  const discounted = Object.values(o.discounts).some((d) => d.lineId !== null && (!changed[d.lineId] || lineTotal(changed[d.lineId]!) !== lineTotal(o.lines[d.lineId]!)));
  if (discounted) throw conflict('A line with a discount keeps its price and quantity; remove the discount first');
  if (discountedTotal(changed, Object.fromEntries(Object.entries(o.discounts).filter(([, d]) => d.lineId === null || changed[d.lineId]))) < 0) {
    throw conflict("The order's discounts would exceed what it comes to; remove a discount first");
  }
}

export function evolveDiscounts(discounts: Discounts, event: DiscountEvent): Discounts {
  if (event.type === 'DiscountGiven') return { ...discounts, [event.data.discountId]: event.data };
  const { [event.data.discountId]: _gone, ...rest } = discounts;
  return rest;
}
