import t from 'tap';
import { type MenuEvent, dishNow, fold, hoursLabel, menu, menuClockKey } from '../src/index.js';
import { given } from './given.js';

const DRINKS = '11111111-1111-4111-8111-111111111111';
const BEER = '33333333-3333-4333-8333-333333333333';
const EGGS = '44444444-4444-4444-8444-444444444444';
const HAPPY = '55555555-5555-4555-8555-555555555555';
const TZ = 'America/Mexico_City'; // UTC−6 all year since 2022
/** An instant at a wall-clock time in Mexico City: 2026-11-23 is a Monday. */
const at = (day: string, hhmm: string) => Date.parse(`${day}T${hhmm}:00-06:00`);

const past: MenuEvent[] = [
  { type: 'CategoryAdded', data: { categoryId: DRINKS, name: 'Drinks' } },
  { type: 'DishAdded', data: { dishId: BEER, name: 'Beer', price: 7000, categoryId: DRINKS } },
  { type: 'DishAdded', data: { dishId: EGGS, name: 'Eggs', price: 9000, categoryId: DRINKS } },
];
const breakfast = [{ days: ['fri', 'mon', 'tue', 'wed', 'thu'] as const, from: '07:00', to: '11:30' }].map((w) => ({ ...w, days: [...w.days] }));
const happyHour = { name: 'Happy hour', windows: [{ days: ['fri' as const], from: '22:00', to: '02:00' }], prices: [{ dishId: BEER, priceCents: 4500 }] };

t.test('a dish gets hours: a new event with who set them, days in the week order; the same hours again change nothing', async (t) => {
  const g = given(menu, past);
  const set = g.when({ type: 'setDishAvailability', dishId: EGGS, windows: breakfast, by: 'm1' });
  t.same(set, { events: [{ type: 'DishAvailabilitySet', data: { dishId: EGGS, windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '07:00', to: '11:30' }], by: 'm1' } }] });
  const after = given(menu, [...past, ...('events' in set ? set.events : [])]);
  t.same(after.when({ type: 'setDishAvailability', dishId: EGGS, windows: breakfast, by: 'm1' }), { events: [] });
  t.equal(after.state.dishes[EGGS]!.version, 1, "hours do not move the dish's version (its If-Match)");
  const updated = fold(menu, [...past, ...('events' in set ? set.events : []), { type: 'DishUpdated', data: { dishId: EGGS, name: 'Eggs', price: 9500, categoryId: DRINKS } }]);
  t.same(updated.dishes[EGGS]!.windows, [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '07:00', to: '11:30' }], "a change of the dish's details keeps its hours");
  t.match(g.when({ type: 'setDishAvailability', dishId: HAPPY, windows: [], by: 'm1' }), { error: { kind: 'not_found' } });
});

t.test("hours have their own version: If-Match on them is 412 once another manager set them, the dish's own version untouched", async (t) => {
  const first = { type: 'DishAvailabilitySet' as const, data: { dishId: EGGS, windows: breakfast, by: 'm1' } };
  const g = given(menu, [...past, first]);
  t.equal(g.state.dishes[EGGS]!.hoursVersion, 1);
  t.match(g.when({ type: 'setDishAvailability', dishId: EGGS, windows: [], ifMatch: 0, by: 'm2' }), { error: { kind: 'precondition' } }, 'read before the first manager saved');
  t.match(g.when({ type: 'setDishAvailability', dishId: EGGS, windows: [], ifMatch: 1, by: 'm2' }), { events: [{ type: 'DishAvailabilitySet' }] });
  t.match(given(menu, past).when({ type: 'setCategoryAvailability', categoryId: DRINKS, windows: breakfast, ifMatch: 0, by: 'm1' }), { events: [{ type: 'CategoryAvailabilitySet' }] }, 'never set: version 0');
  t.match(given(menu, [...past, { type: 'CategoryAvailabilitySet', data: { categoryId: DRINKS, windows: [], by: 'm1' } }]).when({ type: 'setCategoryAvailability', categoryId: DRINKS, windows: breakfast, ifMatch: 0, by: 'm2' }),
    { error: { kind: 'precondition' } });
});

t.test('bad hours are 400 naming the window and field', async (t) => {
  const g = given(menu, past);
  t.same(g.when({ type: 'setCategoryAvailability', categoryId: DRINKS, windows: [{ days: [], from: '24:00', to: '07:00' }, { days: ['mon'], from: '07:00', to: '07:00' }], by: 'm1' }), {
    error: { kind: 'validation', message: 'Validation failed', details: { errors: [
      { field: 'windows[0].days', message: 'must name days among mon, tue, wed, thu, fri, sat, sun, each once' },
      { field: 'windows[0].from', message: 'must be a time HH:MM from 00:00 to 23:59' },
      { field: 'windows[1].to', message: 'must differ from from (a window of no time, or of a whole day: name the days instead)' },
    ] } },
  });
});

t.test("a dish is served when its hours and its category's both hold; a window may cross midnight", async (t) => {
  const events: MenuEvent[] = [...past,
    { type: 'CategoryAvailabilitySet', data: { categoryId: DRINKS, windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '07:00', to: '02:00' }], by: 'm1' } },
    { type: 'DishAvailabilitySet', data: { dishId: EGGS, windows: breakfast, by: 'm1' } }];
  const state = fold(menu, events);
  t.match(dishNow(state, EGGS, at('2026-11-23', '07:00'), TZ), { available: true, from: null, hours: 'every day 07:00–02:00; Mon–Fri 07:00–11:30' });
  t.match(dishNow(state, EGGS, at('2026-11-23', '11:30'), TZ), { available: false, from: 'Tue 07:00' }, 'to is the first minute it is not served');
  t.match(dishNow(state, EGGS, at('2026-11-23', '06:59'), TZ), { available: false, from: '07:00' });
  t.match(dishNow(state, EGGS, at('2026-11-28', '09:00'), TZ), { available: false, from: 'Mon 07:00' }, 'Saturday: not a breakfast day');
  t.match(dishNow(state, BEER, at('2026-11-29', '01:59'), TZ), { available: true }, "Saturday's 07:00–02:00 runs into Sunday");
  t.match(dishNow(state, BEER, at('2026-11-29', '02:00'), TZ), { available: false, from: '07:00' });
  t.equal(hoursLabel([{ days: ['sat', 'sun', 'mon'], from: '09:00', to: '12:00' }]), 'Mon, Sat, Sun 09:00–12:00');
});

t.test('a price level prices its dishes in its hours, named; other dishes and other hours keep the menu price', async (t) => {
  const g = given(menu, past);
  const created = g.when({ type: 'setPriceLevel', priceLevelId: HAPPY, create: true, by: 'm1', ...happyHour });
  t.same(created, { events: [{ type: 'PriceLevelSet', data: { priceLevelId: HAPPY, ...happyHour, by: 'm1' } }] });
  const state = fold(menu, [...past, ...('events' in created ? created.events : [])]);
  t.match(dishNow(state, BEER, at('2026-11-27', '23:00'), TZ), { priceCents: 4500, level: { id: HAPPY, name: 'Happy hour' } });
  t.match(dishNow(state, BEER, at('2026-11-28', '01:59'), TZ), { priceCents: 4500 }, 'past midnight, still Friday night');
  t.match(dishNow(state, BEER, at('2026-11-28', '02:00'), TZ), { priceCents: 7000, level: null });
  t.match(dishNow(state, EGGS, at('2026-11-27', '23:00'), TZ), { priceCents: 9000, level: null });
  const h = given(menu, [...past, ...('events' in created ? created.events : [])]);
  t.match(h.when({ type: 'setPriceLevel', priceLevelId: HAPPY, create: true, by: 'm1', ...happyHour }), { error: { kind: 'conflict' } });
  t.same(h.when({ type: 'setPriceLevel', priceLevelId: HAPPY, create: false, by: 'm1', ...happyHour }), { events: [] });
  t.match(h.when({ type: 'setPriceLevel', priceLevelId: HAPPY, create: false, ifMatch: 2, by: 'm1', ...happyHour }), { error: { kind: 'precondition' } });
  t.match(h.when({ type: 'setPriceLevel', priceLevelId: DRINKS, create: true, by: 'm1', ...happyHour, name: 'HAPPY HOUR' }), { error: { kind: 'conflict', message: 'A price level named Happy hour already exists' } });
  t.same(h.when({ type: 'removePriceLevel', priceLevelId: HAPPY, by: 'm1' }), { events: [{ type: 'PriceLevelRemoved', data: { priceLevelId: HAPPY, by: 'm1' } }] });
  const deleted = fold(menu, [...past, ...('events' in created ? created.events : []), { type: 'DishRemoved', data: { dishId: BEER } }]);
  t.same(deleted.priceLevels[HAPPY]!.prices, {}, 'a deleted dish takes its level prices with it: the level can be saved again as it reads');
});

t.test('a level needs hours, dishes on the menu once each and positive prices', async (t) => {
  t.same(given(menu, past).when({ type: 'setPriceLevel', priceLevelId: HAPPY, create: true, by: 'm1', name: 'Late', windows: [], prices: [{ dishId: HAPPY, priceCents: 0 }, { dishId: BEER, priceCents: 100 }, { dishId: BEER, priceCents: 100 }] }), {
    error: { kind: 'validation', message: 'Validation failed', details: { errors: [
      { field: 'windows', message: 'a price level needs at least one window' },
      { field: 'prices[0].dish_id', message: 'must be a dish on the menu' },
      { field: 'prices[0].price', message: 'must be a positive amount with at most two decimals' },
      { field: 'prices[2].dish_id', message: 'names a dish twice' },
    ] } },
  });
});

t.test('two levels open at once: the lower price; the clock key changes exactly when some hours start or end', async (t) => {
  const state = fold(menu, [...past,
    { type: 'PriceLevelSet', data: { priceLevelId: HAPPY, ...happyHour, by: 'm1' } },
    { type: 'PriceLevelSet', data: { priceLevelId: DRINKS, name: 'Friday', windows: [{ days: ['fri'], from: '18:00', to: '23:30' }], prices: [{ dishId: BEER, priceCents: 5000 }], by: 'm1' } }]);
  t.match(dishNow(state, BEER, at('2026-11-27', '22:30'), TZ), { priceCents: 4500, level: { name: 'Happy hour' } });
  t.match(dishNow(state, BEER, at('2026-11-27', '19:00'), TZ), { priceCents: 5000, level: { name: 'Friday' } });
  t.equal(menuClockKey(fold(menu, past), at('2026-11-27', '19:00'), TZ), '', 'a menu without hours: no key');
  t.equal(menuClockKey(state, at('2026-11-27', '19:00'), TZ), menuClockKey(state, at('2026-11-27', '21:59'), TZ));
  t.not(menuClockKey(state, at('2026-11-27', '21:59'), TZ), menuClockKey(state, at('2026-11-27', '22:00'), TZ));
});
