import { type FieldError, conflict, validationFailed } from '../errors.js';
import { type Cents, showCents } from '../money.js';
import type { Approval } from '../staff/approval.js';

/** How many of a dish one line may carry ("2 × tacos" is one line). */
export const QUANTITY = { min: 1, max: 99 } as const;
/** Courses a line may be served in: 1 (starters, and every line written before courses) to 9. */
export const COURSE = { min: 1, max: 9 } as const;
/** Seats at one table a line may be for; null: for the table (shared, or not said). */
export const SEAT = { min: 1, max: 99 } as const;

/** A modifier option chosen on a line, priced when the line was added: later menu changes never reprice it. */
export interface LineModifier {
  groupId: string;
  optionId: string;
  name: string;
  priceDeltaCents: Cents;
}

/** One line of an order as the order, its tickets and its read models know it. */
export interface OrderLine {
  lineId: string;
  dishId: string;
  /** The dish's price for one portion, without modifiers. */
  priceCents: Cents;
  notes: string;
  quantity: number;
  course: number;
  seat: number | null;
  modifiers: LineModifier[];
  /** The price level that set `priceCents` ("Happy hour", menu/availability.ts); absent: the menu's own price. */
  priceLevel?: string;
}

/**
 * A line as an event carries it. Lines written before quantities, courses, seats and modifiers existed
 * have none of them; they read as one portion, course 1, no seat, no modifiers (`completeLine`), which
 * is exactly what they were.
 */
export type RecordedLine = Pick<OrderLine, 'lineId' | 'dishId' | 'priceCents' | 'notes'> & Partial<Pick<OrderLine, 'quantity' | 'course' | 'seat' | 'modifiers' | 'priceLevel'>> & {
  /** Present when the line was priced otherwise than the menu (order/exceptions.ts). */
  override?: PriceOverride;
};

/** A price other than the menu's: what it would have been (`fromCents`), who set it, who approved it, why. */
export interface PriceOverride extends Approval { fromCents: Cents }

export const completeLine = (l: RecordedLine): OrderLine => ({
  ...l, quantity: l.quantity ?? 1, course: l.course ?? 1, seat: l.seat ?? null, modifiers: l.modifiers ?? [],
});

/** What one portion of a line costs: the dish's price and its modifiers' deltas. */
export const portionPrice = (l: Pick<RecordedLine, 'priceCents' | 'modifiers'>): Cents =>
  (l.modifiers ?? []).reduce((sum, m) => sum + m.priceDeltaCents, l.priceCents);

/** What a line comes to before discounts: (price + modifiers) × quantity, in cents. */
export const lineTotal = (l: Pick<RecordedLine, 'priceCents' | 'modifiers' | 'quantity'>): Cents => portionPrice(l) * (l.quantity ?? 1);

/** What some lines come to, in cents: the one sum the decider, the projection and the bills use. */
export const linesTotal = (lines: Iterable<Pick<RecordedLine, 'priceCents' | 'modifiers' | 'quantity'>>): Cents => {
  let sum = 0;
  for (const line of lines) sum += lineTotal(line);
  return sum;
};

const within = (v: number, range: { min: number; max: number }) => Number.isInteger(v) && v >= range.min && v <= range.max;

/**
 * A modifier may take money off ("sin queso −5.00"), but never more than the portion costs: a line
 * below zero would pay the guest. The menu keeps its own dishes above zero; this catches a price of the
 * line's own (price_at_order, a new price on an update) that its modifiers would take below zero.
 */
export function portionError(l: Pick<RecordedLine, 'priceCents' | 'modifiers'>, field: string): FieldError | null {
  if (portionPrice(l) >= 0) return null;
  const off = (l.modifiers ?? []).reduce((sum, m) => sum + m.priceDeltaCents, 0);
  return { field, message: `a portion would come to less than nothing: ${showCents(l.priceCents)} with modifiers of ${showCents(off)}` };
}

/** A line's new price must still cover what its modifiers take off (400 at `field`). */
export function keepPortionAboveZero(l: Pick<RecordedLine, 'priceCents' | 'modifiers'>, field: string): void {
  const error = portionError(l, field);
  if (error) throw validationFailed([error]);
}

/**
 * The rules every new line keeps, whoever sends it (the API's schema says the same, so a request
 * rarely gets this far): a whole quantity, course and seat within their ranges, modifiers in whole cents
 * that never take a portion below zero. One error per offending field, `lines[i].<field>`.
 */
export function checkLines(lines: readonly RecordedLine[]): void {
  const errors: FieldError[] = [];
  lines.forEach((l, i) => {
    const at = `lines[${i}]`;
    if (l.quantity !== undefined && !within(l.quantity, QUANTITY)) errors.push({ field: `${at}.quantity`, message: `must be a whole number from ${QUANTITY.min} to ${QUANTITY.max}` });
    if (l.course !== undefined && !within(l.course, COURSE)) errors.push({ field: `${at}.course`, message: `must be a whole number from ${COURSE.min} to ${COURSE.max}` });
    if (l.seat !== undefined && l.seat !== null && !within(l.seat, SEAT)) errors.push({ field: `${at}.seat`, message: `must be null or a whole number from ${SEAT.min} to ${SEAT.max}` });
    const wholeCents = (l.modifiers ?? []).every((m) => Number.isInteger(m.priceDeltaCents));
    if (!wholeCents) errors.push({ field: `${at}.modifiers`, message: 'a modifier\'s price delta is whole cents' });
    else errors.push(...[portionError(l, `${at}.modifiers`)].flatMap((e) => e ?? []));
  });
  if (errors.length) throw validationFailed(errors);
}

/**
 * A split by seats: one group per seat that has lines (seats in order), then the lines for the table
 * (no seat) together in one more group. Lines keep their order within a group.
 */
export function linesBySeat(lines: readonly Pick<OrderLine, 'lineId' | 'seat'>[]): string[][] {
  const seats = [...new Set(lines.flatMap((l) => (l.seat === null ? [] : [l.seat])))].sort((a, b) => a - b);
  const shared = lines.filter((l) => l.seat === null).map((l) => l.lineId);
  return [...seats.map((seat) => lines.filter((l) => l.seat === seat).map((l) => l.lineId)), ...(shared.length ? [shared] : [])];
}

/** What a waiter may change on a line besides its price and notes. */
export type LineChanges = Partial<Pick<OrderLine, 'quantity' | 'course' | 'seat'>>;

/**
 * The quantity, course and seat an update really changes, checked as a new line's are. A line the
 * kitchen already has keeps them: its ticket says how many, which course and which seat, so a change
 * is a new line (and the old one removed, which the kitchen sees struck through).
 */
export function lineChanges(line: OrderLine, command: LineChanges, fired: boolean): LineChanges {
  const changes: LineChanges = {};
  if (command.quantity !== undefined && command.quantity !== line.quantity) changes.quantity = command.quantity;
  if (command.course !== undefined && command.course !== line.course) changes.course = command.course;
  if (command.seat !== undefined && command.seat !== line.seat) changes.seat = command.seat;
  if (Object.keys(changes).length === 0) return changes;
  if (fired) throw conflict('The kitchen already has this line: remove it and add a new one to change its quantity, course or seat');
  checkLines([{ ...line, ...changes }]);
  return changes;
}
