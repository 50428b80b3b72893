import { notFound, validationFailed } from '../errors.js';
import type { FireLines, Order, OrderEvent } from './order-types.js';

export type { FireLines } from './order-types.js';

/**
 * The lines a "fire" sends when the waiter names none: every line not fired yet, or only those of
 * one course (starters now, mains when the table is ready for them).
 */
export const linesToFire = (o: Pick<Order, 'lines' | 'fired'>, course?: number): string[] =>
  Object.values(o.lines).filter((l) => !o.fired[l.lineId] && (course === undefined || l.course === course)).map((l) => l.lineId);

/**
 * Lines fired meanwhile (two waiters tapping "fire") are left out, so a line reaches the kitchen once;
 * a line that does not exist (any more) is not found; a firing of one course carries that course's
 * lines only, and says which course it fired.
 */
export function decideFiring(o: Order, command: FireLines): OrderEvent[] {
  for (const l of command.lines) if (!o.lines[l.lineId]) throw notFound();
  const { course } = command;
  if (course !== undefined) {
    const others = command.lines.filter((l) => o.lines[l.lineId]!.course !== course);
    if (others.length) throw validationFailed(others.map((l) => ({ field: 'course', message: `line ${l.lineId} is in course ${o.lines[l.lineId]!.course}, not ${course}` })));
  }
  const lines = command.lines.filter((l) => !o.fired[l.lineId]);
  if (!lines.length) return [];
  return [{ type: 'OrderLinesFired', data: { firingId: command.firingId, lines, at: command.at, ...(course !== undefined ? { course } : {}) } }];
}
