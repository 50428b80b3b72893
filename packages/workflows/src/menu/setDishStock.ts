import { MENU_STREAM, businessDay, dishStock, dishStockStream, menu, notFound, stockOn, validationFailed } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';

export interface SetDishStock {
  dishId: string;
  /** true: sold out now ("86"); false: back on sale (with `remaining`: counted instead). */
  soldOut?: boolean;
  /** Portions left today; each ordered portion takes one, 0 is sold out. */
  remaining?: number;
  /** Who did it (the audit trail names them). */
  by: string | null;
  at: number;
  /** COMANDA_TIMEZONE: the business day the setting holds for. */
  timezone: string;
  context: CommandContext;
}

/**
 * A manager stops a dish ("86 now"), counts it, or puts it back on sale. The setting holds until it is
 * changed or the next business day starts. A dish not on the menu is 404.
 */
export async function setDishStock(commands: CommandHandler, cmd: SetDishStock): Promise<{ soldOut: boolean; remaining: number | null; position: Position | null }> {
  if (cmd.soldOut === true && cmd.remaining !== undefined) throw validationFailed([{ field: 'remaining', message: 'a dish sold out has no count: send sold_out or remaining' }]);
  if (cmd.soldOut === undefined && cmd.remaining === undefined) throw validationFailed([{ field: 'sold_out', message: 'send sold_out, remaining, or both' }]);
  if (!(await commands.state(menu, MENU_STREAM)).state.dishes[cmd.dishId]) throw notFound();
  const day = businessDay(cmd.at, cmd.timezone);
  const { dishId, by } = cmd;
  const command = cmd.remaining !== undefined
    ? { type: 'setCount' as const, dishId, day, remaining: cmd.remaining, by }
    : cmd.soldOut ? { type: 'markSoldOut' as const, dishId, day, by } : { type: 'putBackOnSale' as const, dishId, day, by };
  const result = await commands.handle(dishStock, dishStockStream(dishId), command, cmd.context);
  return { ...stockOn(result.state, day), position: result.position };
}
