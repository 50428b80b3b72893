import type { Order, PaymentFlag } from './order-types.js';

export type { PaymentFlag } from './order-types.js';

export function paymentFlag(state: Order): PaymentFlag | undefined {
  if (state.deleted) return 'order_deleted';
  if (state.status === 'completed') return 'order_completed';
  if (state.status === 'cancelled') return 'order_cancelled';
  if (Object.keys(state.payments).length > 0) return 'order_already_paid';
  return undefined;
}
