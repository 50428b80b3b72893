import { NodeError } from '@comanda/lightning';
import type { WalletPaymentFailure } from '@comanda/domain';
import { WalletPaymentFailed, classifyFailure } from '@comanda/workflows';
import { HttpError } from '../../http/http-error.js';

export const NODE_UNAVAILABLE = 'Lightning node unavailable';

/**
 * Node failures never become 500s: no answer → 503, the node refusing our credentials → 502 (our
 * configuration is wrong, not the caller's request), the node refusing the request → 400 with its text.
 */
export function nodeFailure(error: unknown): unknown {
  if (error instanceof WalletPaymentFailed) return paymentFailed(error.code, error.reason);
  if (!(error instanceof NodeError)) return error;
  switch (error.kind) {
    case 'unreachable':
    case 'timeout':
      return new HttpError(503, { message: NODE_UNAVAILABLE });
    case 'unauthorized':
      return new HttpError(502, { message: 'Lightning node refused the configured credentials' });
    case 'payment_failed':
      return paymentFailed(classifyFailure(error.text), error.text);
    case 'rejected':
      if (error.status === 404) return new HttpError(404, { message: 'Payment not found' });
      if (error.status >= 500) return new HttpError(502, { message: 'Lightning node error', reason: error.text });
      return new HttpError(400, { message: error.text || 'Lightning node refused the request' });
  }
}

const FAILURE: Record<WalletPaymentFailure, [number, string]> = {
  already_paid: [409, 'Invoice already paid'],
  expired: [410, 'Invoice expired'],
  insufficient_funds: [402, 'Insufficient funds'],
  invalid: [400, 'Invalid payment request'],
  refused: [400, 'Payment failed'],
};

export function paymentFailed(code: WalletPaymentFailure, reason: string): HttpError {
  const [status, message] = FAILURE[code];
  return new HttpError(status, { message, reason });
}

/** Calls the node and turns its failures into HTTP answers. */
export async function atNode<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw nodeFailure(error);
  }
}
