import type { Order } from './order.js';

/**
 * Why a received payment needs a manager's eye: it arrived for an order that had already ended, was
 * deleted, or had already been paid. The money is recorded on the order all the same.
 */
export type PaymentFlag = 'order_completed' | 'order_cancelled' | 'order_deleted' | 'order_already_paid';

export function paymentFlag(state: Order): PaymentFlag | undefined {
  if (state.deleted) return 'order_deleted';
  if (state.status === 'completed') return 'order_completed';
  if (state.status === 'cancelled') return 'order_cancelled';
  if (Object.keys(state.payments).length > 0) return 'order_already_paid';
  return undefined;
}
