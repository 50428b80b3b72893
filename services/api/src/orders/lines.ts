import { idFromKey, newId } from '@comanda/domain';
import type { CommandContext } from '@comanda/event-store';
import type { DishRequest } from '@comanda/workflows';
import { type Static, Type } from 'typebox';
import { Price } from '../http/schemas.js';

export const NewOrderDish = Type.Object({
  dish_id: Type.String({ description: 'a dish on the menu' }),
  price_at_order: Type.Optional(Price('The price of this line; the menu price when omitted', { positiveInSchema: false })),
  notes: Type.Optional(Type.String({ maxLength: 500, default: '' })),
}, { examples: [{ dish_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', notes: 'sin cebolla' }] });
export type NewOrderDishBody = Static<typeof NewOrderDish>;

/** The request's dishes in the workflow's words (linesFrom checks them against the menu). */
export const dishRequests = (dishes: readonly NewOrderDishBody[]): DishRequest[] =>
  dishes.map((d) => ({ dishId: d.dish_id, priceAtOrder: d.price_at_order, notes: d.notes }));

/** Line ids: derived from the Idempotency-Key when the request has one, so a retry meets its own lines. */
export const lineIds = (context: CommandContext) => (i: number): string =>
  (context.idempotency ? idFromKey('line', context.idempotency.key, String(i)) : newId());
