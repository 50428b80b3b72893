import { type Authority, type Cents, type LineChanges, newId, notFound, order, orderStream } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { withPortions } from './dish-portions.js';
import { refuseIfNotServed } from './lines.js';
import { later, orderState } from './seating.js';

export type ChangeLine = {
  orderId: string;
  lineId: string;
  priceCents?: Cents;
  notes?: string;
  at: number;
  /** COMANDA_TIMEZONE: the business day a dish's count belongs to. */
  timezone: string;
  authority: Authority;
  context: CommandContext;
} & LineChanges;

/**
 * Changes one line of an order. Raising its quantity holds the extra portions first (a sold-out dish
 * refuses by name, 409; so does a dish outside its hours), given back if the order refuses the change; lowering it gives none back
 * (see docs/architecture.md, decisions: a count errs on the side of never overselling).
 */
export async function changeLine(commands: CommandHandler, cmd: ChangeLine): Promise<{ position: Position | null }> {
  const line = (await orderState(commands, cmd.orderId)).lines[cmd.lineId];
  if (!line) throw notFound();
  const more = cmd.quantity === undefined ? 0 : cmd.quantity - line.quantity;
  const extra = more > 0 ? [{ dishId: line.dishId, quantity: more }] : [];
  if (more > 0) await refuseIfNotServed(commands, line.dishId, { at: cmd.at, timezone: cmd.timezone });
  const hold = { holdId: cmd.context.idempotency?.key ?? newId(), at: cmd.at, timezone: cmd.timezone, context: cmd.context };
  const { at: _at, timezone: _tz, context, orderId, ...change } = cmd;
  const { result, held } = await withPortions(commands, extra, hold, () => commands.handle(order, orderStream(orderId), { type: 'updateLine', ...change }, context));
  return { position: later(held, result.position) };
}
