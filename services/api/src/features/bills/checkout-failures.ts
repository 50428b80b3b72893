import { NoRateError } from '@comanda/rates';
import { ImplausibleRate } from '@comanda/workflows';
import { HttpError } from '../../http/http-error.js';
import { NODE_UNAVAILABLE, nodeFailure } from '../wallet/node-failures.js';

export const NO_RATE = 'No exchange rate available';

/** No fresh rate (or one that makes the bill worth a sat or less) → 503; node failures as the wallet maps them. */
export function checkoutFailure(error: unknown, log: { warn(o: object, m: string): void }): unknown {
  if (error instanceof NoRateError || error instanceof ImplausibleRate) {
    log.warn({ reason: error.message }, 'Lightning checkout refused: no exchange rate');
    return new HttpError(503, { message: NO_RATE });
  }
  return nodeFailure(error);
}

export const noNode = () => new HttpError(503, { message: NODE_UNAVAILABLE });
