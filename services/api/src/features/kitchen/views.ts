import { ticketForScreens } from '@comanda/read-models';
import { Type } from 'typebox';

const Time = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

/** A ticket as a kitchen screen shows it: everything on it, no other lookup needed. */
export const KitchenTicketSchema = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  station_id: Type.String(),
  table_id: Type.Union([Type.String(), Type.Null()]),
  table_name: Type.Union([Type.String(), Type.Null()]),
  waiter: Type.String(),
  order_number: Type.Union([Type.Integer(), Type.Null()], { description: "the order's number of its business day; null for orders placed before numbers" }),
  status: Type.Union([Type.Literal('open'), Type.Literal('done'), Type.Literal('closed')], { description: 'open: on the board; done: bumped (recallable); closed: its order was completed, cancelled or deleted' }),
  fired_at: Type.String({ format: 'date-time' }),
  started_at: Time,
  bumped_at: Time,
  ready_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'since when every line is done or cancelled (or since its recall): an auto-bump counts from here' }),
  closed_at: Time,
  closed_reason: Type.Union([Type.Literal('order_completed'), Type.Literal('order_cancelled'), Type.Literal('order_deleted'), Type.Null()]),
  lines: Type.Array(Type.Object({
    line_id: Type.String(),
    dish_id: Type.String(),
    dish_name: Type.String(),
    notes: Type.String(),
    kitchen_status: Type.String({ description: 'sent, in_progress, done or cancelled (struck through)' }),
    quantity: Type.Integer({ description: 'how many to cook' }),
    course: Type.Integer({ description: 'the course it belongs to' }),
    seat: Type.Union([Type.Integer(), Type.Null()], { description: 'the seat it is for; null: for the table' }),
    modifiers: Type.Array(Type.String(), { description: 'the modifier options chosen, by name' }),
    allergens: Type.Array(Type.String(), { description: "the dish's allergens when fired (EU's 14)" }),
  })),
  version: Type.Integer(),
}, { $id: 'KitchenTicket' });

/** The same shape the bus carries to kitchen screens. */
export const ticketResponse = ticketForScreens;
