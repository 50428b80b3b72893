import { type Menu, type MenuEvent, menu } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';

/**
 * The menu as its decider folds it, kept as one read-model document (issue 60): GET /dishes works out a
 * dish's hours and price level now from it (`dishNow`, `menuClockKey`) without reading the event store.
 * Before, every tablet's poll folded the menu stream through the command handler: a store read per poll
 * (a query on PostgreSQL, every 3 s per tablet). Counted in services/api/test/menu-clock.test.ts:
 * event-store reads per GET /dishes 1 → 0.
 */
export type MenuClockView = Tracked & { state: Menu; events: number };

export const MENU_CLOCK = 'menu_clock';
export const MENU_CLOCK_ID = 'menu';

const MENU_EVENTS = [
  'CategoryAdded', 'CategoryDisplayOrderChanged', 'CategoryTaxRateChanged', 'CategoryRenamed', 'CategoryStationChanged', 'CategoryRemoved',
  'StationAdded', 'StationRenamed', 'StationMadeDefault', 'StationRemoved',
  'DishAdded', 'DishUpdated', 'DishRemoved', 'DishArchived', 'DishRestored',
  'ModifierGroupCreated', 'ModifierGroupChanged', 'ModifierGroupRemoved', 'TaxRateCreated', 'TaxRateChanged', 'TaxRateRemoved',
  'DishAvailabilitySet', 'CategoryAvailabilitySet', 'PriceLevelSet', 'PriceLevelRemoved',
] as const satisfies readonly MenuEvent['type'][];
/** Every menu event, or this fails to typecheck: a new one left out would leave the kept fold behind. */
const everyEvent: [Exclude<MenuEvent['type'], (typeof MENU_EVENTS)[number]>] extends [never] ? true : never = true;
void everyEvent;

export const menuClockProjection = projectionOf<MenuEvent>({
  name: 'menu-clock',
  version: 1,
  handles: MENU_EVENTS,
  collections: { [MENU_CLOCK]: [] },
  async apply(e, store) {
    // The decider's own evolve, the same fold the command handler keeps; `events` moves the list's ETag.
    await updateDocument(store.collection<MenuClockView>(MENU_CLOCK), MENU_CLOCK_ID, e, (doc) => ({
      _id: MENU_CLOCK_ID, state: menu.evolve(doc?.state ?? menu.initialState(), { type: e.type, data: e.data } as MenuEvent), events: (doc?.events ?? 0) + 1,
    }));
  },
});
