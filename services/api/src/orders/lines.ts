import { MENU_STREAM, type FieldError, type OrderLine, dishPrice, isUuid, menu, toCents, validationFailed } from '@comanda/domain';
import type { CommandHandler } from '@comanda/event-store';
import { Type } from 'typebox';
import { Price } from '../http/schemas.js';

export const NewOrderDish = Type.Object({
  dish_id: Type.String({ description: 'a dish on the menu' }),
  price_at_order: Type.Optional(Price('The price of this line; the menu price when omitted', { positiveInSchema: false })),
  notes: Type.Optional(Type.String({ maxLength: 500, default: '' })),
});
export type NewOrderDishBody = { dish_id: string; price_at_order?: number; notes?: string };

/**
 * Order lines from a request: every dish must be on the menu and every price valid, or the whole
 * request is rejected with one error per offending field. Prices are copied into the line, so a later
 * menu change never rewrites an order.
 */
export async function linesFrom(
  commands: CommandHandler,
  dishes: NewOrderDishBody[],
  lineId: (index: number) => string,
  field = 'dishes',
): Promise<OrderLine[]> {
  const { state } = await commands.state(menu, MENU_STREAM);
  const errors: FieldError[] = [];
  const lines = dishes.map((d, i) => {
    const at = `${field}[${i}]`;
    const menuPrice = isUuid(d.dish_id) ? dishPrice(state, d.dish_id) : null;
    if (menuPrice === null) errors.push({ field: `${at}.dish_id`, message: 'must be a dish on the menu' });
    let priceCents = menuPrice ?? 0;
    if (d.price_at_order !== undefined) {
      const cents = toCents(d.price_at_order);
      if (cents === null || cents <= 0) errors.push({ field: `${at}.price_at_order`, message: 'must be a positive amount with at most two decimals' });
      else priceCents = cents;
    }
    return { lineId: lineId(i), dishId: d.dish_id, priceCents, notes: (d.notes ?? '').trim() };
  });
  if (errors.length) throw validationFailed(errors);
  return lines;
}
