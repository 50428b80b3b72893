import { KITCHEN_STATUSES, ORDER_STATUSES, fromCents, lineTotal, type OrderLine } from '@comanda/domain';
import type { OrderView } from '@comanda/read-models';
import { Type } from 'typebox';

/** An order's state (the lifecycle in the orders tag's routes). */
export const OrderStatusSchema = Type.Enum([...ORDER_STATUSES], { description: 'pending → preparing → ready → completed; or cancelled' });

export const OrderSchema = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  table_id: Type.Union([Type.String(), Type.Null()]),
  waiter: Type.String(),
  status: OrderStatusSchema,
  total: Type.Number({ description: 'the sum of its dishes\' line_total (in menu prices, taxes as the menu shows them); two decimals' }),
  created_at: Type.String({ format: 'date-time', description: 'ISO 8601 UTC' }),
  paid_sat: Type.Integer({ description: 'satoshis received over Lightning for this order (invoices with externalId = order id)' }),
  discounts: Type.Array(Type.Object({
    id: Type.String(), line_id: Type.Union([Type.String(), Type.Null()], { description: 'null: the whole order' }), kind: Type.Enum(['percent', 'amount']),
    value: Type.Number({ description: 'percent, or an amount' }), amount: Type.Number({ description: 'what it took off' }), reason: Type.String(),
    comp: Type.Boolean({ description: 'a 100 % line discount' }),
  }), { description: 'discounts and comps given on this order' }),
  guests: Type.Union([Type.Integer({ minimum: 1, maximum: 99 }), Type.Null()], { description: 'how many guests sat down (covers); null when not said' }),
  number: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'the order\'s number of its business day in COMANDA_TIMEZONE, counting from 1 each day; null for orders placed before numbers' }),
}, {
  $id: 'Order',
  examples: [{ id: '7d1c9e0a-3b52-4f0e-9a43-1c2b3d4e5f60', user_id: '0b6f1f0e-5a4d-4c3b-8a29-7e6d5c4b3a21', table_id: '5e4d3c2b-1a09-4f8e-9d7c-6b5a49382716', waiter: 'Marisol', status: 'pending', total: 55.5, created_at: '2026-11-25T20:14:03.120Z', paid_sat: 0, guests: 2, number: 12, discounts: [] }],
});

export const OrderPaymentSchema = Type.Object({
  payment_hash: Type.String(),
  amount_sat: Type.Integer(),
  received_at: Type.Integer({ description: 'Unix ms' }),
});

export const OrderDishSchema = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  dish_id: Type.String(),
  price_at_order: Type.Number(),
  notes: Type.String(),
  kitchen_status: Type.Enum([...KITCHEN_STATUSES], { description: 'pending (not fired), sent, in_progress, done or cancelled' }),
  quantity: Type.Integer({ description: 'portions on this line (1 for lines added before quantities)' }),
  course: Type.Integer({ description: 'the course it is served in (1 unless said)' }),
  seat: Type.Union([Type.Integer(), Type.Null()], { description: 'the seat it is for; null: for the table' }),
  modifiers: Type.Array(Type.Object({ group_id: Type.String(), option_id: Type.String(), name: Type.String(), price_delta: Type.Number() }), {
    description: 'the options chosen, priced when the line was added (later menu changes do not reprice it)',
  }),
  discount: Type.Number({ description: "the line's discounts and its share of the order's (largest remainder)" }),
  line_total: Type.Number({ description: '(price_at_order + the modifiers\' price deltas) × quantity − the line\'s discounts; two decimals' }),
  price_level: Type.Optional(Type.String({ description: 'the price level that set price_at_order ("Happy hour", GET /price-levels); absent: the menu\'s price, or one of the line\'s own' })),
}, {
  $id: 'OrderDish',
  examples: [{ id: '3f2e1d0c-9b8a-4765-8432-10fedcba9876', order_id: '7d1c9e0a-3b52-4f0e-9a43-1c2b3d4e5f60', dish_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', price_at_order: 25.5, notes: 'sin cebolla', kitchen_status: 'sent', quantity: 2, course: 1, seat: null, modifiers: [], discount: 0, line_total: 51 }],
});

export const orderResponse = (o: OrderView) => ({
  id: o.id, user_id: o.user_id, table_id: o.table_id, waiter: o.waiter, status: o.status,
  total: fromCents(o.total_cents), created_at: o.created_at, paid_sat: o.paid_sat, guests: o.guests ?? null, number: o.number ?? null,
  discounts: (o.discounts ?? []).map((d) => ({
    id: d.discountId, line_id: d.lineId, kind: d.kind, value: fromCents(d.value), amount: fromCents(d.amountCents), reason: d.reason,
    comp: d.lineId !== null && d.kind === 'percent' && d.value === 10_000,
  })),
});

export const lineResponse = (orderId: string, l: OrderLine & { discount_cents?: number }, kitchen: OrderView['kitchen_status'] = {}) => ({
  id: l.lineId, order_id: orderId, dish_id: l.dishId, price_at_order: fromCents(l.priceCents), notes: l.notes,
  kitchen_status: kitchen[l.lineId] ?? 'pending', quantity: l.quantity, course: l.course, seat: l.seat,
  modifiers: l.modifiers.map((m) => ({ group_id: m.groupId, option_id: m.optionId, name: m.name, price_delta: fromCents(m.priceDeltaCents) })), discount: fromCents(l.discount_cents ?? 0), line_total: fromCents(lineTotal(l) - (l.discount_cents ?? 0)),
  ...(l.priceLevel ? { price_level: l.priceLevel } : {}),
});
