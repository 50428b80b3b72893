import { HttpError } from '../../http/http-error.js';

/** Guest requests per client address per minute: a table's phones polling a payment stay far below it. */
export const GUEST_LIMIT = { requests: 120, windowMs: 60_000 };

/**
 * A fixed window per client address over the public guest routes (in this process): past the limit,
 * 429 with Retry-After, so no one walks tokens or hammers the node through a table's link.
 */
export function guestLimiter(now: () => number, limit = GUEST_LIMIT) {
  const windows = new Map<string, { start: number; count: number }>();
  return (address: string): void => {
    const at = now();
    let w = windows.get(address);
    if (!w || at - w.start >= limit.windowMs) {
      if (windows.size > 10_000) windows.clear();
      w = { start: at, count: 0 };
      windows.set(address, w);
    }
    w.count += 1;
    if (w.count > limit.requests) {
      const retry = Math.max(1, Math.ceil((w.start + limit.windowMs - at) / 1000));
      throw new HttpError(429, { message: 'Too many requests; try again shortly' }, { 'retry-after': String(retry) });
    }
  };
}
