import { checkoutService } from './checkout-helpers.js';

/** The checkout service (checkout-helpers.ts) and a guest: public requests from an address, and a bill's guest link. */
export async function guestService(t: Parameters<typeof checkoutService>[0]) {
  const s = await checkoutService(t);
  const guest = async (method: 'GET' | 'POST', url: string, payload?: object, remoteAddress = '10.0.0.7') => {
    const res = await s.app.inject({ method, url, remoteAddress, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };
  const linkOf = async (ticketId: string) => {
    const res = await s.waiter('GET', `/tickets/${ticketId}/guest-link`);
    if (res.status !== 200) throw new Error(`guest-link: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { token: string; path: string };
  };
  return { ...s, guest, linkOf };
}
