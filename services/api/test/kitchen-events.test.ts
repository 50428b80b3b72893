import t from 'tap';
import { existsSync } from 'node:fs';
import { kitchenTicket, kitchenTicketStream } from '@comanda/domain';
import { kitchenService } from './kitchen-harness.js';

/** Reads `ticket` events of a Server-Sent Events response; `caughtUp` resolves at `: caught-up`. */
async function screen(url: string, cookie: string, lastEventId?: string) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { cookie, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) }, signal: controller.signal });
  const events: Array<{ id: string; ticket: { id: string; status: string; station_id: string; closed_reason: string | null; version: number; lines: Array<{ kitchen_status: string }> } }> = [];
  const settings: unknown[] = [];
  let caughtUp!: () => void;
  const ready = new Promise<void>((r) => (caughtUp = r));
  if (res.status !== 200) return { status: res.status, events, ready: Promise.resolve(), close: () => controller.abort() };
  void (async () => {
    const reader = res.body!.getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += new TextDecoder().decode(value);
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          if (block.startsWith(': caught-up')) caughtUp();
          const fields = Object.fromEntries(block.split('\n').filter((l) => !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
          if (fields.event === 'ticket') events.push({ id: fields.id!, ticket: JSON.parse(fields.data!) });
          if (fields.event === 'settings') settings.push(JSON.parse(fields.data!));
          if (fields.event === 'reset') settings.push('reset');
        }
      }
    } catch {
      // aborted
    }
  })();
  return { status: res.status, contentType: res.headers.get('content-type'), nosniff: res.headers.get('x-content-type-options'), events, settings, ready, close: () => controller.abort() };
}

const until = async (check: () => boolean, what: string) => {
  const end = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** The kitchen service listening, a grill station, a kitchen cook's cookie and the grill's stream URL. */
async function grillScreen(t: Tap.Test) {
  const s = await kitchenService();
  t.teardown(s.close);
  const base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  const grill = (await s.asAdmin('POST', '/stations', { name: 'Grill' })).body.id as string;
  return { s, base, grill, kitchen: await s.as('kitchen'), url: `${base}/kitchen/events?station_id=${grill}` };
}

t.test('GET /kitchen/events: roles, live tickets of one station, catch-up from Last-Event-ID', async (t) => {
  const { s, base, grill, kitchen, url } = await grillScreen(t);
  t.equal((await screen(url, '')).status, 401);
  t.equal((await screen(url, await s.as('waiter'))).status, 403);
  t.equal((await screen(`${base}/kitchen/events?station_id=grill`, kitchen)).status, 400, 'a station is an id');
  t.equal((await screen(url, kitchen, 'abc')).status, 400, 'Last-Event-ID is a position');

  const live = await screen(url, kitchen);
  t.teardown(live.close);
  t.match(live.contentType, /^text\/event-stream/);
  t.equal(live.nosniff, 'nosniff', 'the stream carries the API security headers');
  await live.ready;
  t.same(live.settings, [{ auto_bump_minutes: 0 }], 'the auto-bump setting first (off by default)');
  const fire = async (notes: string) => {
    const orderId = (await s.asWaiter('POST', '/orders', { user_id: s.waiterId, table_id: null, waiter: 'Marisol' })).body.id;
    await s.asWaiter('POST', `/orders/${orderId}/dishes`, [{ dish_id: s.r.dishes.pastor, notes }]);
    return (await s.asWaiter('POST', `/orders/${orderId}/fire`)).body.tickets[0].id as string;
  };
  const first = await fire('uno');
  await until(() => live.events.some((e) => e.ticket.id === first), 'the fired ticket');
  t.match(live.events[0]!.ticket, { id: first, status: 'open', station_id: grill, lines: [{ notes: 'uno', kitchen_status: 'sent' }] });
  await s.asKitchen('POST', `/kitchen/tickets/${first}/bump`);
  await until(() => live.events.some((e) => e.ticket.id === first && e.ticket.status === 'done'), 'the bump');
  const lastSeen = live.events[live.events.length - 1]!.id;
  t.ok(live.events.every((e, i) => i === 0 || BigInt(e.id) > BigInt(live.events[i - 1]!.id)), 'ids (log positions) increase');
  live.close();

  // While this screen is away: a new ticket, and the bumped one recalled.
  const second = await fire('dos');
  await s.asKitchen('POST', `/kitchen/tickets/${first}/recall`);
  const back = await screen(url, kitchen, lastSeen);
  t.teardown(back.close);
  await back.ready;
  t.same(back.events.map((e) => [e.ticket.id, e.ticket.status]).sort(), [[first, 'open'], [second, 'open']].sort(), 'exactly what changed since, in its latest state');

  const fresh = await screen(url, kitchen);
  t.teardown(fresh.close);
  await fresh.ready;
  t.same(fresh.events.map((e) => e.ticket.id).sort(), [first, second].sort(), 'a fresh screen gets every open ticket');
  const third = await fire('tres');
  await until(() => fresh.events.some((e) => e.ticket.id === third), 'live after the catch-up');
  t.equal(fresh.events.filter((e) => e.ticket.id === third).length, 1, 'once');

  // The order of the third ticket is cancelled: the ticket is closed, and the screen hears it go.
  const thirdOrder = (await s.asKitchen('GET', `/kitchen/tickets?station_id=${grill}`)).body.find((k: { id: string }) => k.id === third).order_id as string;
  t.equal((await s.asWaiter('PUT', `/orders/${thirdOrder}`, { user_id: s.waiterId, table_id: null, waiter: 'Marisol', status: 'cancelled' })).status, 200);
  await until(() => fresh.events.some((e) => e.ticket.id === third && e.ticket.status === 'closed'), 'the close');
  t.match(fresh.events.find((e) => e.ticket.id === third && e.ticket.status === 'closed')!.ticket, { closed_reason: 'order_cancelled', lines: [{ kitchen_status: 'cancelled' }] });
  const later = await screen(url, kitchen);
  t.teardown(later.close);
  await later.ready;
  t.same(later.events.map((e) => e.ticket.id).sort(), [first, second].sort(), 'a closed ticket is not in a fresh catch-up');

  // The expo screen (no station): every station's open tickets, live.
  const bar = (await s.asAdmin('POST', '/stations', { name: 'Barra' })).body.id as string;
  const expo = await screen(`${base}/kitchen/events`, kitchen);
  t.teardown(expo.close);
  await expo.ready;
  t.same(expo.events.map((e) => e.ticket.id).sort(), [first, second].sort());
  const category = (await s.asAdmin('POST', '/categories', { name: 'Bebidas', station_id: bar })).body.id as string;
  const agua = String((await s.asAdmin('POST', '/dishes', { name: 'Agua', price: 20, category_id: category })).headers.location).split('/').pop()!;
  const orderId = (await s.asWaiter('POST', '/orders', { user_id: s.waiterId, table_id: null, waiter: 'Marisol' })).body.id;
  await s.asWaiter('POST', `/orders/${orderId}/dishes`, [{ dish_id: agua }]);
  const drink = (await s.asWaiter('POST', `/orders/${orderId}/fire`)).body.tickets[0].id as string;
  await until(() => expo.events.some((e) => e.ticket.id === drink && e.ticket.station_id === bar), 'the bar ticket on the expo screen');
  t.notOk(fresh.events.some((e) => e.ticket.id === drink), 'not on the grill screen');
});

t.test('GET /kitchen serves the display, a page of the POS build (packages/pos), or says how to build it', async (t) => {
  const s = await kitchenService();
  t.teardown(s.close);
  const page = await s.app.inject({ method: 'GET', url: '/kitchen' });
  // The API's tests need not wait for the POS's build (npm test runs them side by side): without it,
  // the page says how to build it; the browser tests (test/e2e/kitchen-*.test.ts) always have it.
  if (!existsSync(new URL('../../../packages/pos/dist/kitchen.html', import.meta.url))) {
    t.same([page.statusCode, page.json().message], [404, 'The kitchen display is not built: npm run build (npm start builds it)']);
    return;
  }
  t.equal(page.statusCode, 200);
  t.match(page.headers['content-type'], /^text\/html/);
  t.equal(page.headers['cache-control'], 'no-cache');
  const script = page.body.match(/src="(\/kitchen\/assets\/kitchen-[\w-]+\.js)"/)?.[1];
  t.ok(script, 'its script, hashed, under /kitchen/assets/');
  const js = await s.app.inject({ method: 'GET', url: script! });
  t.same([js.statusCode, /javascript/.test(String(js.headers['content-type'])), js.headers['cache-control']], [200, true, 'public, max-age=31536000, immutable']);
  t.equal((await s.app.inject({ method: 'GET', url: '/kitchen/assets/../../package.json' })).statusCode, 404, 'nothing outside the build');
});

t.test('GET /kitchen/events: a screen away while more than 500 tickets changed starts afresh instead of replaying them', async (t) => {
  const { s, grill, kitchen, url } = await grillScreen(t);
  const open = async (from: number, n: number) => {
    for (let i = from; i < from + n; i++) {
      const ticketId = `k${i}`;
      await s.commands.handle(kitchenTicket, kitchenTicketStream(ticketId), {
        type: 'openTicket', ticketId, orderId: `o${i}`, stationId: grill, tableId: null, tableName: null, waiter: 'Ana', firedAt: i, lines: [{ lineId: `l${i}`, dishId: 'd', dishName: 'Taco', notes: '' }],
      });
    }
  };
  const before = String(await s.store.headPosition());
  await open(0, 4);
  const after4 = String(await s.store.headPosition());
  await open(4, 500);
  const count = async () => Number((await s.asKitchen('GET', `/kitchen/tickets?station_id=${grill}&limit=1`)).headers['x-total-count']);
  for (let i = 0; i < 500 && (await count()) < 504; i++) await new Promise((r) => setTimeout(r, 10));

  const away = await screen(url, kitchen, before);
  t.teardown(away.close);
  await away.ready;
  t.same(away.settings, [{ auto_bump_minutes: 0 }, 'reset'], '504 changed since: reset');
  t.equal(away.events.length, 504, 'then every open ticket, as a fresh screen');
  const back = await screen(url, kitchen, after4);
  t.teardown(back.close);
  await back.ready;
  t.same(back.settings, [{ auto_bump_minutes: 0 }], '500 changed since: replayed, no reset');
  t.equal(back.events.length, 500, 'exactly the tickets changed since');
});
