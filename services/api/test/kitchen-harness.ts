import pino from 'pino';
import { Reactor, Relay, kitchenPublications, kitchenReactions, type CheckpointStore } from '@comanda/projector';
import { testApp } from './harness.js';
import { setUpRestaurant } from './restaurant.js';

export const memoryCheckpoint = (): CheckpointStore => {
  let at: bigint | null = null;
  return { get: async () => at, set: async (p) => void (at = p), flush: async () => {} };
};

/** Waits for something the process managers do a moment after a request. */
export async function eventually(check: () => Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A restaurant with a grill (default) and a bar station, the kitchen process managers running, and staff of every role. */
export async function kitchenService() {
  const h = await testApp();
  const reactor = new Reactor(h.store, memoryCheckpoint(), kitchenReactions(h.commands), pino({ level: 'silent' }));
  await reactor.start();
  const kitchenRelay = new Relay(h.store, h.bus, memoryCheckpoint(), pino({ level: 'silent' }), 'start', kitchenPublications(h.store));
  await kitchenRelay.start();
  const [admin, waiter, kitchen, manager] = [await h.as('admin'), await h.as('waiter'), await h.as('kitchen'), await h.as('manager')];
  const call = (cookie: string) => async (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const res = await h.app.inject({ method: method as 'GET', url, headers: { cookie, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.body ? res.json() : undefined, headers: res.headers };
  };
  const r = await setUpRestaurant(h.app, admin);
  const waiterId = ((await call(waiter)('GET', '/auth/me')).body as { id: string }).id;
  return {
    ...h, r, reactor, waiterId, call,
    asAdmin: call(admin), asWaiter: call(waiter), asKitchen: call(kitchen), asManager: call(manager), anonymous: call(''),
    close: async () => {
      await reactor.stop();
      await kitchenRelay.stop();
      await h.close();
    },
  };
}
