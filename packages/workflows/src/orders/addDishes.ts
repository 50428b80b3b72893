import { type Authority, newId, order, orderStream } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { withPortions } from './dish-portions.js';
import { type DishRequest, linesFrom } from './lines.js';
import { later } from './seating.js';

export interface AddDishes {
  orderId: string;
  dishes: readonly DishRequest[];
  lineId: (index: number) => string;
  at: number;
  /** COMANDA_TIMEZONE: the business day a dish's count belongs to. */
  timezone: string;
  authority: Authority;
  context: CommandContext;
}

/**
 * Adds dishes to an order: their portions are held first (a sold-out dish refuses by name, 409) and
 * given back if the order refuses them. A retry with the same Idempotency-Key holds nothing twice.
 */
export async function addDishes(commands: CommandHandler, cmd: AddDishes): Promise<{ lineIds: string[]; position: Position | null }> {
  const lines = await linesFrom(commands, cmd.dishes, cmd.lineId, { at: cmd.at, timezone: cmd.timezone });
  const hold = { holdId: cmd.context.idempotency?.key ?? newId(), at: cmd.at, timezone: cmd.timezone, context: cmd.context };
  const { result, held } = await withPortions(commands, lines, hold, () =>
    commands.handle(order, orderStream(cmd.orderId), { type: 'addDishes', lines, authority: cmd.authority }, cmd.context));
  const lineIds = result.events.flatMap((e) => (e.type === 'DishesAdded' ? e.data.lines.map((l) => l.lineId) : []));
  return { lineIds, position: later(held, result.position) };
}
