import { type Authority, type FieldError, businessDay, forbidden, order, orderStream, validationFailed } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { givePortionsBack, holdPortions } from './dish-portions.js';
import { type DishRequest, linesFrom } from './lines.js';
import { REPLICA_NUMBER_BLOCK, takeOrderNumber } from './order-numbers.js';
import { later, seat, unseat } from './seating.js';
import { checkUserExists } from './staff-check.js';

export interface PlaceOrder {
  orderId: string;
  /**
   * The member of staff the order is for (the seed's clients send it; absent: who signed in). The order
   * records their roster name as its waiter. Another member than who signed in is a transfer at
   * placing: a manager's call (the order's decider).
   */
  userId?: string;
  /** null for a take-away order. */
  tableId: string | null;
  /** Only `pending` (or nothing) is accepted: a new order starts in the kitchen's first state. */
  status?: string;
  dishes: readonly DishRequest[];
  /** How many guests sat down (covers); absent: not said. */
  guests?: number;
  /** The id of the i-th line (derived from the Idempotency-Key when the request has one). */
  lineId: (index: number) => string;
  at: number;
  /** COMANDA_TIMEZONE: the business day that numbers the order. */
  timezone: string;
  /** How many numbers this process leases at once (see order-numbers.ts): by default 1 for the store's only writer, else REPLICA_NUMBER_BLOCK. */
  numberBlock?: number;
  /** Who signed in, and a manager's approval when the request carries one (a price override). */
  authority: Authority;
  context: CommandContext;
}

/**
 * Places an order: checks the user and the dishes, holds the portions of dishes with a count (refusing a
 * sold-out dish by name, see dish-portions.ts), seats the table (the table's own stream, refusing a
 * table another open order holds), takes the day's next order number, then writes the order (its own stream). If the order's append fails the
 * seat is given back, so a refused order never keeps a table. Returns the position a reader must wait for.
 */
export async function placeOrder(commands: CommandHandler, cmd: PlaceOrder): Promise<{ orderId: string; position: Position | null }> {
  const errors: FieldError[] = [];
  if (cmd.status !== undefined && cmd.status !== 'pending') errors.push({ field: 'status', message: 'a new order is pending' });
  // An order is its waiter's sales and tips, credited to a member of staff by id, never to a free-text name.
  const userId = cmd.userId ?? cmd.authority.userId;
  if (userId === null) throw forbidden();
  const member = await checkUserExists(commands, userId, errors);
  if (errors.length || !member) throw validationFailed(errors);
  const lines = await linesFrom(commands, cmd.dishes, cmd.lineId, { at: cmd.at, timezone: cmd.timezone });
  // Portions first, the table second, the order last; each given back if a later write refuses.
  const hold = { holdId: cmd.orderId, at: cmd.at, timezone: cmd.timezone, context: cmd.context };
  const held = await holdPortions(commands, lines, hold);
  let seated;
  try {
    seated = await seat(commands, cmd.tableId, cmd.orderId, cmd.context);
  } catch (error) {
    await givePortionsBack(commands, held, hold);
    throw error;
  }
  let placed;
  let numbered;
  try {
    // Taken after the table is held, just before the order is written: a refused order (table taken,
    // unknown user) uses no number; a crash between the two appends leaves a gap, never a duplicate.
    numbered = await takeOrderNumber(commands, cmd.orderId, businessDay(cmd.at, cmd.timezone), cmd.context, cmd.numberBlock ?? (commands.soleWriter ? 1 : REPLICA_NUMBER_BLOCK));
    placed = await commands.handle(order, orderStream(cmd.orderId), {
      type: 'placeOrder', orderId: cmd.orderId, userId, tableId: cmd.tableId, waiter: member.name, at: cmd.at, lines, number: numbered.number, ...(cmd.guests === undefined ? {} : { guests: cmd.guests }), authority: cmd.authority,
    }, cmd.context);
  } catch (error) {
    await unseat(commands, cmd.tableId, cmd.orderId, cmd.context);
    await givePortionsBack(commands, held, hold);
    throw error;
  }
  return { orderId: cmd.orderId, position: later(held.position, seated, numbered.position, placed.position) };
}
