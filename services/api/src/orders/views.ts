import { fromCents, type OrderLine } from '@comanda/domain';
import type { OrderView } from '@comanda/read-models';
import { Type } from 'typebox';

export const OrderSchema = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  table_id: Type.Union([Type.String(), Type.Null()]),
  waiter: Type.String(),
  status: Type.String(),
  total: Type.Number({ description: 'computed from the order dishes; two decimals' }),
  created_at: Type.String({ format: 'date-time', description: 'ISO 8601 UTC' }),
  paid_sat: Type.Integer({ description: 'satoshis received over Lightning for this order (invoices with externalId = order id)' }),
}, { $id: 'Order' });

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
  kitchen_status: Type.String({ description: 'pending (not fired), sent, in_progress, done or cancelled' }),
}, { $id: 'OrderDish' });

export const orderResponse = (o: OrderView) => ({
  id: o.id, user_id: o.user_id, table_id: o.table_id, waiter: o.waiter, status: o.status,
  total: fromCents(o.total_cents), created_at: o.created_at, paid_sat: o.paid_sat,
});

export const lineResponse = (orderId: string, l: OrderLine, kitchen: OrderView['kitchen_status'] = {}) => ({
  id: l.lineId, order_id: orderId, dish_id: l.dishId, price_at_order: fromCents(l.priceCents), notes: l.notes,
  kitchen_status: kitchen[l.lineId] ?? 'pending',
});
