import { MENU_STREAM, businessDay, dishStock, dishStockStream, menu } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { later } from './seating.js';

/** Portions of one dish an order (or an addition to it) asks for. */
export interface Portions {
  dishId: string;
  /** Absent: one portion. */
  quantity?: number;
}

/** The dishes a call newly held portions of, and the position a reader must wait for. */
export interface Held {
  dishIds: readonly string[];
  position: Position | null;
}

/** Where portions are held: the day they count against, and a hold id a retry repeats (the order's id, or the request's key). */
export interface Hold {
  holdId: string;
  at: number;
  timezone: string;
  context: CommandContext;
}

/**
 * The dish streams are idempotent by hold id in their decider; the request's Idempotency-Key stays off
 * them, or giving portions back under the same key would replay the hold instead of undoing it.
 */
const dishContext = ({ idempotency: _, ...context }: CommandContext): CommandContext => context;

const byDish = (lines: readonly Portions[]): Map<string, number> => {
  const sum = new Map<string, number>();
  for (const l of lines) sum.set(l.dishId, (sum.get(l.dishId) ?? 0) + (l.quantity ?? 1));
  return sum;
};

/**
 * Holds the portions of every sold-out-able dish before the order is written (a reservation, as a
 * table is seated first): a dish sold out, or with fewer left than asked, refuses with a 409 naming it.
 * If one dish refuses, those already held are given back: nothing half-written. Each dish's own stream
 * is written only while it has a count, so an order for dishes without one appends nothing here.
 */
export async function holdPortions(commands: CommandHandler, lines: readonly Portions[], hold: Hold): Promise<Held> {
  const names = (await commands.state(menu, MENU_STREAM)).state.dishes;
  const day = businessDay(hold.at, hold.timezone);
  const held: string[] = [];
  let position: Position | null = null;
  try {
    // In dish order: two orders for the same two dishes never hold one each and refuse each other.
    for (const [dishId, portions] of [...byDish(lines)].sort(([a], [b]) => a.localeCompare(b))) {
      const r = await commands.handle(dishStock, dishStockStream(dishId), {
        type: 'holdPortions', dishId, dishName: names[dishId]?.name ?? 'This dish', holdId: hold.holdId, portions, day,
      }, dishContext(hold.context));
      if (r.events.length) held.push(dishId);
      position = later(position, r.position);
    }
  } catch (error) {
    await givePortionsBack(commands, { dishIds: held, position }, hold);
    throw error;
  }
  return { dishIds: held, position };
}

/**
 * Gives back what this call held (the order that held them was not written). Only what it held
 * itself: a hold found already there belongs to an earlier request with the same key or order id
 * (a retry, or a key reused for another request), whose order may well be written.
 */
export async function givePortionsBack(commands: CommandHandler, held: Held, hold: Pick<Hold, 'holdId' | 'context'>): Promise<void> {
  for (const dishId of held.dishIds) {
    await commands.handle(dishStock, dishStockStream(dishId), { type: 'giveBack', dishId, holdId: hold.holdId }, dishContext(hold.context));
  }
}

/** Holds the portions, runs the write, and gives them back when the write fails. */
export async function withPortions<T>(commands: CommandHandler, lines: readonly Portions[], hold: Hold, write: () => Promise<T>): Promise<{ result: T; held: Position | null }> {
  const held = await holdPortions(commands, lines, hold);
  try {
    return { result: await write(), held: held.position };
  } catch (error) {
    await givePortionsBack(commands, held, hold);
    throw error;
  }
}
