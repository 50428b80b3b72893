import type { Decider } from '../decider.js';
import { conflict, notFound, validationFailed } from '../errors.js';
import type { Cents } from '../money.js';
import { nameErrors } from '../names.js';
import { unchangedSince, versionAfter } from '../versions.js';
import { allergenSet } from './allergens.js';
import { dishData, sameDetails, stationErrors, validDish } from './dish-rules.js';
import { categoryNameFree, defaultStation, stationNameFree } from './lookups.js';
import { type TaxRateCommand, type TaxRateEvent, decideTaxRate, evolveTaxRates, taxRateErrors } from './tax-rates.js';
import { type ModifierGroupCommand, type ModifierGroupEvent, decideModifierGroup, evolveModifierGroups } from './modifier-groups.js';
import { type AvailabilityCommand, type AvailabilityEvent, decideAvailability, evolveAvailability, levelsWithout } from './availability.js';
import type { Category, Dish, DishDetails, Menu, Station } from './menu-state.js';

export type { Category, Dish, DishDetails, Menu, PriceLevel, Station } from './menu-state.js';
export { DESCRIPTION_MAX } from './dish-rules.js';

/**
 * The menu: dish categories, dishes and the kitchen stations they are cooked at, of one restaurant in
 * one stream (`menu`). A menu is small (hundreds of dishes at most), and one stream makes its rules
 * hold under any concurrency, because each is checked against the whole menu inside the same append:
 * category names are unique, a dish belongs to a category that exists, a category with dishes cannot
 * be removed, a station that a category or dish routes to cannot be removed.
 */
export const MENU_STREAM = 'menu';

export type MenuEvent =
  | { type: 'CategoryAdded'; data: { categoryId: string; name: string; stationId?: string | null; taxRateId?: string | null; displayOrder?: number } }
  | { type: 'CategoryDisplayOrderChanged'; data: { categoryId: string; displayOrder: number } }
  | { type: 'CategoryTaxRateChanged'; data: { categoryId: string; taxRateId: string | null } }
  | { type: 'CategoryRenamed'; data: { categoryId: string; name: string } }
  | { type: 'CategoryStationChanged'; data: { categoryId: string; stationId: string | null } }
  | { type: 'StationAdded'; data: { stationId: string; name: string } }
  | { type: 'StationRenamed'; data: { stationId: string; name: string } }
  | { type: 'StationMadeDefault'; data: { stationId: string } }
  | { type: 'StationRemoved'; data: { stationId: string } }
  | { type: 'CategoryRemoved'; data: { categoryId: string } }
  | { type: 'DishAdded'; data: { dishId: string } & DishDetails }
  | { type: 'DishUpdated'; data: { dishId: string } & DishDetails }
  | { type: 'DishRemoved'; data: { dishId: string } }
  /** Off the menu but kept (issue 60): waiters no longer see or order it; its name stays on old bills and in the reports. */
  | { type: 'DishArchived'; data: { dishId: string; by: string | null; at: number } }
  | { type: 'DishRestored'; data: { dishId: string; by: string | null; at: number } }
  | ModifierGroupEvent
  | TaxRateEvent
  | AvailabilityEvent;

export type MenuCommand =
  | { type: 'addCategory'; categoryId: string; name: string; stationId?: string | null; taxRateId?: string | null; displayOrder?: number }
  /** stationId (taxRateId, displayOrder) undefined keeps the category's station (tax rate, place on the menu). */
  | { type: 'renameCategory'; categoryId: string; name: string; ifMatch?: number; stationId?: string | null; taxRateId?: string | null; displayOrder?: number }
  | { type: 'addStation'; stationId: string; name: string; makeDefault?: boolean }
  | { type: 'renameStation'; stationId: string; name: string; ifMatch?: number; makeDefault?: boolean }
  | { type: 'removeStation'; stationId: string }
  | { type: 'removeCategory'; categoryId: string }
  | ({ type: 'addDish'; dishId: string } & DishDetails)
  | ({ type: 'updateDish'; dishId: string; ifMatch?: number } & DishDetails)
  | { type: 'removeDish'; dishId: string }
  /** Archiving an archived dish, or restoring one on the menu, changes nothing (a retry). */
  | { type: 'archiveDish'; dishId: string; ifMatch?: number; by: string | null; at: number }
  | { type: 'restoreDish'; dishId: string; ifMatch?: number; by: string | null; at: number }
  | ModifierGroupCommand
  | TaxRateCommand
  | AvailabilityCommand;

/** The current price of a dish, or null when it is not (or no longer) on the menu. */
export const dishPrice = (state: Menu, dishId: string): Cents | null => state.dishes[dishId]?.price ?? null;

/** An archived dish is known (old bills and reports name it) but no longer ordered. */
export const dishArchived = (state: Menu, dishId: string): boolean => state.dishes[dishId]?.archived === true;

function category(state: Menu, categoryId: string): Category {
  const c = state.categories[categoryId];
  if (!c) throw notFound();
  return c;
}

function dish(state: Menu, dishId: string): Dish {
  const d = state.dishes[dishId];
  if (!d) throw notFound();
  return d;
}

function station(state: Menu, stationId: string): Station {
  const s = state.stations[stationId];
  if (!s) throw notFound();
  return s;
}

/** A category's place on the menu: a whole number the screens sort by, 0 to 9999. */
const displayOrderErrors = (displayOrder: number | undefined) =>
  displayOrder === undefined || (Number.isInteger(displayOrder) && displayOrder >= 0 && displayOrder <= 9999) ? [] : [{ field: 'display_order', message: 'must be a whole number from 0 to 9999' }];

const dishesIn = (state: Menu, categoryId: string) => Object.values(state.dishes).filter((d) => d.categoryId === categoryId);

export const menu: Decider<MenuCommand, MenuEvent, Menu> = {
  initialState: () => ({ categories: {}, dishes: {}, stations: {}, defaultStationId: null, stationSeq: 0, modifierGroups: {}, taxRates: {}, priceLevels: {} }),
  // 3: modifier groups and tax rates; dishes carry their groups, allergens and rate, categories their rate.
  // 4: categories' display order, dishes' description. 5: hours and price levels.
  snapshot: { name: 'menu', version: 5 },

  decide(command, state) {
    switch (command.type) {
      case 'addCategory': {
        const errors = [...nameErrors(command.name), ...stationErrors(state, command.stationId), ...taxRateErrors(state, command.taxRateId), ...displayOrderErrors(command.displayOrder)];
        if (errors.length > 0) throw validationFailed(errors);
        if (state.categories[command.categoryId]) throw conflict('This dish category already exists');
        categoryNameFree(state, command.name);
        const station = command.stationId ? { stationId: command.stationId } : {};
        const rate = command.taxRateId ? { taxRateId: command.taxRateId } : {};
        // 0, the place of a category nobody ordered, is left out: a seed client's POST writes what it always wrote.
        const order = command.displayOrder ? { displayOrder: command.displayOrder } : {};
        return [{ type: 'CategoryAdded', data: { categoryId: command.categoryId, name: command.name, ...station, ...rate, ...order } }];
      }
      case 'renameCategory': {
        const c = category(state, command.categoryId);
        unchangedSince(c.version, command.ifMatch);
        const errors = [...nameErrors(command.name), ...stationErrors(state, command.stationId), ...taxRateErrors(state, command.taxRateId), ...displayOrderErrors(command.displayOrder)];
        if (errors.length > 0) throw validationFailed(errors);
        const events: MenuEvent[] = [];
        if (command.name !== c.name) {
          categoryNameFree(state, command.name, c.id);
          events.push({ type: 'CategoryRenamed', data: { categoryId: c.id, name: command.name } });
        }
        if (command.stationId !== undefined && command.stationId !== c.stationId) {
          events.push({ type: 'CategoryStationChanged', data: { categoryId: c.id, stationId: command.stationId } });
        }
        if (command.taxRateId !== undefined && command.taxRateId !== c.taxRateId) {
          events.push({ type: 'CategoryTaxRateChanged', data: { categoryId: c.id, taxRateId: command.taxRateId } });
        }
        if (command.displayOrder !== undefined && command.displayOrder !== c.displayOrder) {
          events.push({ type: 'CategoryDisplayOrderChanged', data: { categoryId: c.id, displayOrder: command.displayOrder } });
        }
        return events;
      }
      case 'addStation': {
        const errors = nameErrors(command.name);
        if (errors.length > 0) throw validationFailed(errors);
        if (state.stations[command.stationId]) throw conflict('This kitchen station already exists');
        stationNameFree(state, command.name);
        const added: MenuEvent = { type: 'StationAdded', data: { stationId: command.stationId, name: command.name } };
        return command.makeDefault ? [added, { type: 'StationMadeDefault', data: { stationId: command.stationId } }] : [added];
      }
      case 'renameStation': {
        const s = station(state, command.stationId);
        unchangedSince(s.version, command.ifMatch);
        const errors = nameErrors(command.name);
        if (errors.length > 0) throw validationFailed(errors);
        const events: MenuEvent[] = [];
        if (command.name !== s.name) {
          stationNameFree(state, command.name, s.id);
          events.push({ type: 'StationRenamed', data: { stationId: s.id, name: command.name } });
        }
        if (command.makeDefault && defaultStation(state)?.id !== s.id) events.push({ type: 'StationMadeDefault', data: { stationId: s.id } });
        return events;
      }
      case 'removeStation': {
        const s = station(state, command.stationId);
        const categoryCount = Object.values(state.categories).filter((c) => c.stationId === s.id).length;
        const dishCount = Object.values(state.dishes).filter((d) => d.stationId === s.id).length;
        if (categoryCount + dishCount > 0) {
          throw conflict(`Kitchen station ${s.name} is used by ${categoryCount} dish categories and ${dishCount} dishes: route them elsewhere first`, {
            category_count: categoryCount, dish_count: dishCount,
          });
        }
        return [{ type: 'StationRemoved', data: { stationId: s.id } }];
      }
      case 'removeCategory': {
        const c = category(state, command.categoryId);
        const used = dishesIn(state, c.id).length;
        if (used > 0) {
          throw conflict(`Dish category ${c.name} is used by ${used} dish${used === 1 ? '' : 'es'}: move or delete them first`, { dish_count: used });
        }
        return [{ type: 'CategoryRemoved', data: { categoryId: c.id } }];
      }
      case 'addDish': {
        const details = validDish(state, command);
        if (state.dishes[command.dishId]) throw conflict('This dish already exists');
        return [{ type: 'DishAdded', data: { dishId: command.dishId, ...dishData(details) } }];
      }
      case 'updateDish': {
        const d = dish(state, command.dishId);
        unchangedSince(d.version, command.ifMatch);
        const details = validDish(state, command, d);
        if (sameDetails(details, d)) return [];
        return [{ type: 'DishUpdated', data: { dishId: d.id, ...dishData(details) } }];
      }
      case 'removeDish': {
        const d = dish(state, command.dishId);
        return [{ type: 'DishRemoved', data: { dishId: d.id } }];
      }
      case 'archiveDish':
      case 'restoreDish': {
        const d = dish(state, command.dishId);
        unchangedSince(d.version, command.ifMatch);
        const archiving = command.type === 'archiveDish';
        if (Boolean(d.archived) === archiving) return [];
        const data = { dishId: d.id, by: command.by, at: command.at };
        return [archiving ? { type: 'DishArchived', data } : { type: 'DishRestored', data }];
      }
      case 'createTaxRate':
      case 'changeTaxRate':
      case 'removeTaxRate':
        return decideTaxRate(command, state);
      case 'setDishAvailability':
      case 'setCategoryAvailability':
      case 'setPriceLevel':
      case 'removePriceLevel':
        return decideAvailability(command, state);
      default:
        return decideModifierGroup(command, state);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'CategoryAdded': {
        const { categoryId, name, stationId = null, taxRateId = null, displayOrder = 0 } = event.data;
        return { ...state, categories: { ...state.categories, [categoryId]: { id: categoryId, name, stationId, taxRateId, displayOrder, version: versionAfter(null) } } };
      }
      case 'CategoryDisplayOrderChanged': {
        const c = state.categories[event.data.categoryId]!;
        return { ...state, categories: { ...state.categories, [c.id]: { ...c, displayOrder: event.data.displayOrder, version: versionAfter(c) } } };
      }
      case 'CategoryTaxRateChanged': {
        const c = state.categories[event.data.categoryId]!;
        return { ...state, categories: { ...state.categories, [c.id]: { ...c, taxRateId: event.data.taxRateId, version: versionAfter(c) } } };
      }
      case 'CategoryStationChanged': {
        const c = state.categories[event.data.categoryId]!;
        return { ...state, categories: { ...state.categories, [c.id]: { ...c, stationId: event.data.stationId, version: versionAfter(c) } } };
      }
      case 'StationAdded': {
        const { stationId, name } = event.data;
        const seq = state.stationSeq + 1;
        return { ...state, stationSeq: seq, stations: { ...state.stations, [stationId]: { id: stationId, name, seq, version: versionAfter(null) } } };
      }
      case 'StationRenamed': {
        const s = state.stations[event.data.stationId]!;
        return { ...state, stations: { ...state.stations, [s.id]: { ...s, name: event.data.name, version: versionAfter(s) } } };
      }
      case 'StationMadeDefault': {
        const s = state.stations[event.data.stationId]!;
        return { ...state, defaultStationId: s.id, stations: { ...state.stations, [s.id]: { ...s, version: versionAfter(s) } } };
      }
      case 'StationRemoved': {
        const { [event.data.stationId]: _removed, ...stations } = state.stations;
        return { ...state, stations, defaultStationId: state.defaultStationId === event.data.stationId ? null : state.defaultStationId };
      }
      case 'CategoryRenamed': {
        const c = state.categories[event.data.categoryId]!;
        return { ...state, categories: { ...state.categories, [c.id]: { ...c, name: event.data.name, version: versionAfter(c) } } };
      }
      case 'CategoryRemoved': {
        const { [event.data.categoryId]: _removed, ...categories } = state.categories;
        return { ...state, categories };
      }
      case 'DishAdded':
      case 'DishUpdated': {
        const { dishId, name, price, categoryId, stationId = null, modifierGroupIds = [], allergens, taxRateId = null, description = '' } = event.data;
        const d = state.dishes[dishId];
        // A change to an archived dish keeps it archived, and its hours (their own event).
        const archived = event.type === 'DishUpdated' && d?.archived ? { archived: true as const } : {};
        const hours = event.type === 'DishUpdated' && d?.windows ? { windows: d.windows } : {};
        const dish: Dish = { id: dishId, name, price, categoryId, stationId, modifierGroupIds, allergens: allergenSet(allergens), taxRateId, description, ...archived, ...hours, version: versionAfter(event.type === 'DishAdded' ? null : d) };
        return { ...state, dishes: { ...state.dishes, [dishId]: dish } };
      }
      case 'DishRemoved': {
        const { [event.data.dishId]: _removed, ...dishes } = state.dishes;
        return { ...state, dishes, priceLevels: levelsWithout(state.priceLevels, event.data.dishId) };
      }
      case 'DishArchived':
      case 'DishRestored': {
        const { archived: _was, ...d } = state.dishes[event.data.dishId]!;
        const dish: Dish = { ...d, ...(event.type === 'DishArchived' ? { archived: true as const } : {}), version: versionAfter(d) };
        return { ...state, dishes: { ...state.dishes, [dish.id]: dish } };
      }
      case 'TaxRateCreated':
      case 'TaxRateChanged':
      case 'TaxRateRemoved':
        return { ...state, taxRates: evolveTaxRates(state.taxRates, event) };
      case 'DishAvailabilitySet':
      case 'CategoryAvailabilitySet':
      case 'PriceLevelSet':
      case 'PriceLevelRemoved':
        return evolveAvailability(state, event);
      default:
        return { ...state, modifierGroups: evolveModifierGroups(state.modifierGroups, event) };
    }
  },
};
