import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '@comanda/config';
import { type Reaction, allReactions, projections, reactions } from '@comanda/projector';
import { createRuntime } from '@comanda/runtime';
import { api } from '../src/index.js';
import { cookieHeader } from './harness.js';

const KITCHEN_EVENTS = ['KitchenTicketStarted', 'KitchenTicketBumped', 'OrderLineRemoved'];

/**
 * The standalone's composition in one process (projections, reactions, the API; services/standalone)
 * with one more process manager, run first on the kitchen's events: `slow` ms each, and held while the
 * test holds it. The reactor is thereby behind the projector by construction, as a loaded machine
 * leaves it by chance (issue 58).
 */
async function standalone(t: Tap.Test, env: Record<string, string>, slow: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'comanda-api-ryw-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  let held: PromiseWithResolvers<void> | undefined;
  const lagging: Reaction = {
    name: 'lagging', handles: KITCHEN_EVENTS,
    react: async () => {
      await sleep(slow);
      await held?.promise;
    },
  };
  const config = loadConfig({ COMANDA_DATA_DIR: dataDir, LOG_LEVEL: 'silent', COMANDA_ADMIN_PIN: '1234', COMANDA_RATES: 'USD=97000', ...env });
  const running = await createRuntime(config, [projections(), reactions((commands, c) => [lagging, ...allReactions(commands, c)]), api()], { listen: false });
  t.teardown(() => {
    held?.resolve();
    return running.close();
  });
  const app = running.app!;
  await app.ready();
  const as = async (name: string, pin: string) => {
    const cookie = cookieHeader((await app.inject({ method: 'POST', url: '/auth/login', payload: { name, pin } })).cookies);
    return async (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) => {
      const res = await app.inject({ method: method as 'GET', url, headers: { cookie, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });
      return { status: res.statusCode, body: res.body ? res.json() : undefined, location: res.headers.location };
    };
  };
  const admin = await as('admin', '1234');
  const created = async (url: string, payload: unknown) => {
    const res = await admin('POST', url, payload);
    if (res.status !== 201) throw new Error(`POST ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };
  const grill = (await created('/stations', { name: 'Grill' })).body.id as string;
  const bar = (await created('/stations', { name: 'Bar' })).body.id as string;
  const tacos = (await created('/categories', { name: 'Tacos' })).body.id as string;
  const drinks = (await created('/categories', { name: 'Bebidas', station_id: bar })).body.id as string;
  const pastor = (await created('/dishes', { name: 'Taco al pastor', price: 25.5, category_id: tacos })).location!.split('/').pop()!;
  const agua = (await created('/dishes', { name: 'Agua de jamaica', price: 30, category_id: drinks })).location!.split('/').pop()!;
  await created('/users', { name: 'Marisol', pin: '2580', role: 'waiter' });
  await created('/users', { name: 'Chef', pin: '3690', role: 'kitchen' });
  const waiter = await as('marisol', '2580');
  const chef = await as('chef', '3690');
  const me = (await waiter('GET', '/auth/me')).body.id as string;

  /** An order with a taco, a drink and a second taco, fired: a grill ticket (two lines) and a bar ticket. */
  const firedOrder = async () => {
    const orderId = (await waiter('POST', '/orders', { user_id: me, table_id: null, waiter: 'Marisol' })).body.id as string;
    const ids = (await waiter('POST', `/orders/${orderId}/dishes`, [{ dish_id: pastor }, { dish_id: agua }, { dish_id: pastor, notes: 'doble' }])).body.ids as string[];
    const tickets = (await waiter('POST', `/orders/${orderId}/fire`)).body.tickets as Array<{ id: string; station_id: string }>;
    return { orderId, extra: ids[2]!, grill: tickets.find((k) => k.station_id === grill)!.id, bar: tickets.find((k) => k.station_id === bar)!.id };
  };
  const onTicket = async (ticket: string, line: string) => {
    const open = (await chef('GET', `/kitchen/tickets?station_id=${grill}`)).body as Array<{ id: string; lines: Array<{ line_id: string; kitchen_status: string }> }>;
    return open.find((k) => k.id === ticket)?.lines.find((l) => l.line_id === line)?.kitchen_status;
  };
  const hold = () => void (held = Promise.withResolvers<void>());
  const release = () => held?.resolve();
  return { admin, waiter, chef, firedOrder, onTicket, hold, release };
}

t.test('with the reactor behind the projector, a 200 shows the write\'s reactions to the next read', async (t) => {
  // A bound far beyond the lag: every write answers in full, once its reactions are readable.
  const s = await standalone(t, { COMANDA_CONSISTENCY_WAIT_MS: '60000' }, 150);
  const o = await s.firedOrder();
  t.equal((await s.chef('POST', `/kitchen/tickets/${o.grill}/start`)).status, 200);
  t.equal((await s.waiter('GET', `/orders/${o.orderId}`)).body.status, 'preparing', 'started: the order is preparing');
  t.equal((await s.admin('DELETE', `/orders/${o.orderId}/dishes/${o.extra}`)).status, 200);
  t.equal(await s.onTicket(o.grill, o.extra), 'cancelled', 'a fired line removed: struck through on its ticket');
  t.equal((await s.chef('POST', `/kitchen/tickets/${o.grill}/bump`)).status, 200);
  t.equal((await s.waiter('GET', `/orders/${o.orderId}`)).body.status, 'preparing', 'the bar has not finished');
  t.equal((await s.chef('POST', `/kitchen/tickets/${o.bar}/bump`)).status, 200);
  t.equal((await s.waiter('GET', `/orders/${o.orderId}`)).body.status, 'ready', 'the last station bumped: the order is ready');
});

t.test('with the reactor held past the bound, the write answers 202 with where to read it, and in full once it is readable', async (t) => {
  const s = await standalone(t, { COMANDA_CONSISTENCY_WAIT_MS: '300' }, 0);
  const o = await s.firedOrder();
  s.hold();
  const key = { 'idempotency-key': `start-${o.grill}` };
  const started = await s.chef('POST', `/kitchen/tickets/${o.grill}/start`, undefined, key);
  t.match(started, { status: 202, location: '/kitchen/tickets?status=open', body: { message: /^Accepted/, location: '/kitchen/tickets?status=open' } }, 'a tap read back: 202, not a 200 its order would belie');
  t.equal((await s.waiter('GET', `/orders/${o.orderId}`)).body.status, 'pending', 'the reaction has not run: the 202 promised nothing');
  const removed = await s.admin('DELETE', `/orders/${o.orderId}/dishes/${o.extra}`, undefined, { 'idempotency-key': `void-${o.extra}` });
  t.match(removed, { status: 202, location: `/orders/${o.orderId}/dishes`, body: { location: `/orders/${o.orderId}/dishes` } }, 'a write answered from its command: 202 too, at its nearest readable path');
  t.not(await s.onTicket(o.grill, o.extra), 'cancelled', 'not struck through yet');

  s.release();
  const again = await s.chef('POST', `/kitchen/tickets/${o.grill}/start`, undefined, key);
  t.match(again, { status: 200, body: { id: o.grill, started_at: String } }, 'the same key once the reactions are done: answered in full');
  t.equal((await s.waiter('GET', `/orders/${o.orderId}`)).body.status, 'preparing');
  t.equal((await s.admin('DELETE', `/orders/${o.orderId}/dishes/${o.extra}`, undefined, { 'idempotency-key': `void-${o.extra}` })).status, 200);
  t.equal(await s.onTicket(o.grill, o.extra), 'cancelled');
});
