import { COURSE, QUANTITY, SEAT, idFromKey, newId } from '@comanda/domain';
import type { CommandContext } from '@comanda/event-store';
import type { DishRequest } from '@comanda/workflows';
import { type Static, Type } from 'typebox';
import { Price } from '../../http/schemas.js';

export const Quantity = () => Type.Integer({ minimum: QUANTITY.min, maximum: QUANTITY.max, description: 'how many portions this line carries (default 1)' });
export const Course = () => Type.Integer({ minimum: COURSE.min, maximum: COURSE.max, description: 'the course the line is served in: 1 starters (the default), 2 mains, …; `POST /orders/{id}/fire {course}` sends one course' });
export const Seat = () => Type.Union([Type.Integer({ minimum: SEAT.min, maximum: SEAT.max }), Type.Null()], { description: 'the seat at the table the line is for; null (the default): for the table' });

export const NewOrderDish = Type.Object({
  dish_id: Type.String({ description: 'a dish on the menu' }),
  price_at_order: Type.Optional(Price('The price of one portion of this line; the menu price when omitted. It must cover what the chosen modifiers take off (400 otherwise)', { positiveInSchema: false })),
  notes: Type.Optional(Type.String({ maxLength: 500, default: '' })),
  quantity: Type.Optional(Quantity()),
  course: Type.Optional(Course()),
  seat: Type.Optional(Seat()),
  modifiers: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), {
    maxItems: 50, uniqueItems: true, description: "modifier option ids from the dish's groups; each group chosen min_choices to max_choices times (400 naming the group otherwise)",
  })),
}, { examples: [{ dish_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', notes: 'sin cebolla' }, { dish_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', quantity: 2, course: 2, seat: 3 }] });
export type NewOrderDishBody = Static<typeof NewOrderDish>;

/** The request's dishes in the workflow's words (linesFrom checks them against the menu). */
export const dishRequests = (dishes: readonly NewOrderDishBody[]): DishRequest[] =>
  dishes.map((d) => ({ dishId: d.dish_id, priceAtOrder: d.price_at_order, notes: d.notes, quantity: d.quantity, course: d.course, seat: d.seat, modifiers: d.modifiers }));

/** Line ids: derived from the Idempotency-Key when the request has one, so a retry meets its own lines. */
export const lineIds = (context: CommandContext) => (i: number): string =>
  (context.idempotency ? idFromKey('line', context.idempotency.key, String(i)) : newId());
