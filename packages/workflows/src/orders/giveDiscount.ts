import { type Authority, type DiscountKind, order, orderStream, toCents, validationFailed } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';

export interface GiveDiscount {
  orderId: string;
  discountId: string;
  /** null: the whole order. */
  lineId: string | null;
  kind: DiscountKind;
  /** A percent (10 = 10 %) or an amount, in the base currency; at most two decimals. */
  value: number;
  reason: string;
  /** Who gives it, and a manager's approval past the waiter's limit. */
  authority: Authority;
  /** The settings' waiter discount limit in force now: what staff give without a manager, per discount and per order. */
  waiterMaxPercent: number;
  at: number;
  context: CommandContext;
}

/**
 * Gives a discount or a comp (a 100 % line discount). The value is made exact (basis points for a
 * percent, cents for an amount); the order's decider works out the amount, refuses one that would take
 * a line or the order below zero, touches a billed line, or goes past the waiter's limit without a
 * manager (403 naming the approval needed).
 */
export async function giveDiscount(commands: CommandHandler, cmd: GiveDiscount): Promise<{ discountId: string; position: Position | null }> {
  const value = toCents(cmd.value);
  if (value === null) throw validationFailed([{ field: 'value', message: 'must have at most two decimals' }]);
  const r = await commands.handle(order, orderStream(cmd.orderId), {
    type: 'giveDiscount', discountId: cmd.discountId, lineId: cmd.lineId, kind: cmd.kind, value, reason: cmd.reason, at: cmd.at, limitBp: Math.round(cmd.waiterMaxPercent * 100), authority: cmd.authority,
  }, cmd.context);
  return { discountId: cmd.discountId, position: r.position };
}
