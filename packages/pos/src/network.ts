import { createComandaClient } from '@comanda/client';
import { signal } from './signal.js';

/** False from a request the network refused until one goes through: the banner shows meanwhile. */
export const online = signal(true);
/** The session ended (logout elsewhere, revoked, refresh refused): back to the PIN pad. */
export const signedOut = signal(0);
/** The last session ended because a manager signed this device out (the PIN pad says so); false once someone signs in. */
export const signedOutByManager = signal(false);

const watchedFetch = async (request: Request): Promise<Response> => {
  try {
    const res = await fetch(request);
    online.set(true);
    return res;
  } catch (error) {
    online.set(false);
    throw error;
  }
};

/**
 * The client on the network: cookies (the browser keeps the HttpOnly session), refreshed on a 401.
 * The POS tries twice only: its outbox (offline/outbox.ts) keeps a write, with its key, for as long
 * as the network is away, and its reads fall back at once to what the tablet kept. The kitchen
 * display has no outbox: a bump is sent again for about two minutes.
 */
export const comanda = createComandaClient({
  baseUrl: location.origin,
  session: 'cookies',
  retries: location.pathname.startsWith('/kitchen') ? 40 : 2,
  maxRetryWaitMs: location.pathname.startsWith('/kitchen') ? 3_000 : 1_000,
  fetch: watchedFetch,
  onSignedOut: ({ byManager }) => {
    // A second refusal right after (another request's refresh, the cookie already gone) says no reason:
    // it must not wipe the manager's. Signing in again clears it (main.tsx).
    if (byManager) signedOutByManager.set(true);
    signedOut.set(signedOut.get() + 1);
  },
});
