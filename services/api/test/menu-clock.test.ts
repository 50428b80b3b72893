import t from 'tap';
import { servedApp } from './harness.js';
import { setUpRestaurant } from './restaurant.js';

// The tablets' poll of the menu reads read models only (issue 60): the dishes' hours and price levels
// come from the menu's fold kept as a read model, not from the event store, while the list's ETag still
// moves when an hours window starts or ends.

/** A wall-clock time in Mexico City (UTC−6): 2026-11-23 is a Monday. */
const at = (hhmmss: string) => Date.parse(`2026-11-23T${hhmmss}-06:00`);
const LUNCH = [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '12:00', to: '16:00' }];

t.test('GET /dishes with hours and a price level reads the event store 0 times, and its ETag moves at noon', async (t) => {
  const s = await servedApp({ COMANDA_TIMEZONE: 'America/Mexico_City' });
  t.teardown(s.close);
  s.clock.now = at('11:59:50');
  const manager = await s.as('manager');
  const r = await setUpRestaurant(s.app, await s.as('admin'));
  const put = await s.request(`/dishes/${r.dishes.pastor}/availability`, manager, {}, 'PUT', { windows: LUNCH });
  t.equal(put.status, 200);
  const level = await s.request('/price-levels', manager, {}, 'POST', { name: 'Happy hour', windows: LUNCH, prices: [{ dish_id: r.dishes.agua, price: 10 }] });
  t.equal(level.status, 201);

  let reads = 0;
  const readStream = s.store.readStream.bind(s.store);
  s.store.readStream = (...args: Parameters<typeof readStream>) => {
    reads += 1;
    return readStream(...args);
  };
  const before = await s.request('/dishes?all=true', manager);
  const dishes = (await before.json()) as Array<{ id: string; available?: boolean; available_from?: string; price_now?: number }>;
  t.match(dishes.find((d) => d.id === r.dishes.pastor), { available: false, available_from: '12:00' });
  t.equal(reads, 0, 'no event-store read for a poll of the menu (1 before: the menu stream folded per GET)');

  s.clock.now = at('12:00:00');
  const noon = await s.request('/dishes?all=true', manager, { 'if-none-match': before.headers.get('etag')! });
  t.equal(noon.status, 200, 'lunch started: the ETag moved');
  const served = (await noon.json()) as Array<{ id: string; available?: boolean; price_now?: number }>;
  t.notOk('available' in served.find((d) => d.id === r.dishes.pastor)!, 'served now');
  t.match(served.find((d) => d.id === r.dishes.agua), { price_now: 10 });
  const one = await s.request(`/dishes/${r.dishes.agua}`, manager);
  t.match(await one.json(), { price_now: 10, price_level: 'Happy hour' }, 'one dish read the same way');
  t.equal(reads, 0, 'still no event-store read');
  const again = await s.request('/dishes?all=true', manager, { 'if-none-match': noon.headers.get('etag')! });
  t.equal(again.status, 304, 'nothing moved since: 304');
});
