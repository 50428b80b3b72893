import type { Cents } from '../money.js';
import { type Approval, type Authority, approve } from '../staff/approval.js';
import { type OrderLine, type PriceOverride, type RecordedLine, lineTotal } from './lines.js';

/**
 * The order's exceptions: what moves money away from the menu and the kitchen's work, and so needs a
 * manager (their own session, or their approval with a reason on a waiter's request). Each is
 * recorded in its event with who, who approved and why (staff/approval.ts), for the audit trail.
 */

/** A new line as a command brings it: the menu's price when it was ordered tells an override apart. */
export type NewLine = RecordedLine & { menuPriceCents: Cents };

/** Lines at the menu's price, as a tool that writes a day of service (demo data, benchmarks) orders them. */
export const atMenuPrice = (lines: readonly RecordedLine[]): NewLine[] => lines.map((l) => ({ ...l, menuPriceCents: l.priceCents }));

/**
 * Lines as they are recorded: the menu's price passes as it is (what the seed's clients send); any
 * other price is an override, refused without a manager and recorded with its approval otherwise.
 */
export function priceLines(lines: readonly NewLine[], authority: Authority): RecordedLine[] {
  return lines.map(({ menuPriceCents, ...line }) => {
    if (line.priceCents === menuPriceCents) return line;
    const override: PriceOverride = { ...approve('price override', authority), fromCents: menuPriceCents };
    return { ...line, override };
  });
}

/** A line repriced: an override from the price it had. */
export const repriced = (line: OrderLine, authority: Authority): PriceOverride =>
  ({ ...approve('price override', authority), fromCents: line.priceCents });

/** A void: lines the kitchen already has, taken off the order; what they came to before discounts. */
export interface LineVoid extends Approval { amountCents: Cents }

/** The void of the fired lines among those removed, or null when the kitchen has none of them. */
export function voidOf(lines: readonly OrderLine[], fired: Readonly<Record<string, unknown>>, authority: Authority): LineVoid | null {
  const voided = lines.filter((l) => fired[l.lineId] !== undefined);
  if (voided.length === 0) return null;
  return { ...approve('void of a line the kitchen has', authority), amountCents: voided.reduce((sum, l) => sum + lineTotal(l), 0) };
}

/** An order handed from one waiter to another. */
export interface OrderTransfer extends Approval { fromUserId: string | null }

export const transferOf = (fromUserId: string | null, authority: Authority): OrderTransfer =>
  ({ ...approve('order transfer to another waiter', authority), fromUserId });
