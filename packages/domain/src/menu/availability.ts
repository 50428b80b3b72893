import { type FieldError, conflict, notFound, validationFailed } from '../errors.js';
import type { Cents } from '../money.js';
import { nameErrors, sameName } from '../names.js';
import { unchangedSince, versionAfter } from '../versions.js';
import { type HoursWindow, hoursErrors, hoursLabel, localMs, nextOpening, openAtLocal, openingLabel, sameHours, sortedHours } from './hours.js';
import { portionFloorError } from './modifier-groups.js';
import type { Menu, PriceLevel } from './menu-state.js';

/**
 * When dishes are served and at what price (issue 60): a dish's and a category's hours (breakfast,
 * lunch), and price levels ("Happy hour") with their hours and a price per dish. In the menu stream,
 * beside the dishes they name, so "a level prices dishes that exist" is checked in one append. Who set
 * them travels in each event (`by`): a level's prices are price changes, in the audit trail.
 */
export type AvailabilityEvent =
  | { type: 'DishAvailabilitySet'; data: { dishId: string; windows: HoursWindow[]; by: string | null } }
  | { type: 'CategoryAvailabilitySet'; data: { categoryId: string; windows: HoursWindow[]; by: string | null } }
  | { type: 'PriceLevelSet'; data: { priceLevelId: string; name: string; windows: HoursWindow[]; prices: Array<{ dishId: string; priceCents: Cents }>; by: string | null } }
  | { type: 'PriceLevelRemoved'; data: { priceLevelId: string; by: string | null } };

export type PriceLevelDetails = { name: string; windows: HoursWindow[]; prices: Array<{ dishId: string; priceCents: Cents }> };

export type AvailabilityCommand =
  | { type: 'setDishAvailability'; dishId: string; windows: HoursWindow[]; ifMatch?: number; by: string | null }
  | { type: 'setCategoryAvailability'; categoryId: string; windows: HoursWindow[]; ifMatch?: number; by: string | null }
  /** `create`: a new level (409 when the id exists); else a change of an existing one (404 otherwise). */
  | ({ type: 'setPriceLevel'; priceLevelId: string; create: boolean; ifMatch?: number; by: string | null } & PriceLevelDetails)
  | { type: 'removePriceLevel'; priceLevelId: string; by: string | null };

function levelErrors(state: Menu, d: PriceLevelDetails): FieldError[] {
  const errors = [...nameErrors(d.name), ...hoursErrors(d.windows, 'windows')];
  // A level without hours would be the menu's price itself: change the dish instead.
  if (d.windows.length === 0) errors.push({ field: 'windows', message: 'a price level needs at least one window' });
  d.prices.forEach((p, i) => {
    const dish = state.dishes[p.dishId];
    if (!dish) errors.push({ field: `prices[${i}].dish_id`, message: 'must be a dish on the menu' });
    if (d.prices.findIndex((q) => q.dishId === p.dishId) < i) errors.push({ field: `prices[${i}].dish_id`, message: 'names a dish twice' });
    if (!Number.isSafeInteger(p.priceCents) || p.priceCents <= 0) errors.push({ field: `prices[${i}].price`, message: 'must be a positive amount with at most two decimals' });
    else if (dish) {
      const belowZero = portionFloorError({ name: dish.name, price: p.priceCents, modifierGroupIds: dish.modifierGroupIds }, state.modifierGroups, `prices[${i}].price`);
      if (belowZero) errors.push(belowZero);
    }
  });
  return errors;
}

const sameLevel = (l: PriceLevel, d: PriceLevelDetails) =>
  l.name === d.name && sameHours(l.windows, d.windows) && Object.keys(l.prices).length === d.prices.length && d.prices.every((p) => l.prices[p.dishId] === p.priceCents);

/**
 * A dish's or category's hours have a version of their own (`hoursVersion`, 0 before any were set),
 * apart from its details': a manager's If-Match on the hours sheet is checked against it, so two
 * managers setting hours at once never overwrite each other unseen (412), and a change of the dish's
 * name leaves an open hours sheet valid.
 */
export const hoursVersion = (holder: { hoursVersion?: number }): number => holder.hoursVersion ?? 0;

/** A dish's or category's new hours as written, or null when they are the ones it has (a retry). */
function newHours(holder: { windows?: HoursWindow[]; hoursVersion?: number } | undefined, windows: HoursWindow[], ifMatch: number | undefined): HoursWindow[] | null {
  if (!holder) throw notFound();
  unchangedSince(hoursVersion(holder), ifMatch);
  const errors = hoursErrors(windows, 'windows');
  if (errors.length) throw validationFailed(errors);
  return sameHours(holder.windows ?? [], windows) ? null : sortedHours(windows);
}

export function decideAvailability(command: AvailabilityCommand, state: Menu): AvailabilityEvent[] {
  switch (command.type) {
    case 'setDishAvailability': {
      const windows = newHours(state.dishes[command.dishId], command.windows, command.ifMatch);
      return windows ? [{ type: 'DishAvailabilitySet', data: { dishId: command.dishId, windows, by: command.by } }] : [];
    }
    case 'setCategoryAvailability': {
      const windows = newHours(state.categories[command.categoryId], command.windows, command.ifMatch);
      return windows ? [{ type: 'CategoryAvailabilitySet', data: { categoryId: command.categoryId, windows, by: command.by } }] : [];
    }
    case 'setPriceLevel': {
      const current = state.priceLevels[command.priceLevelId];
      if (command.create && current) throw conflict('This price level already exists');
      if (!command.create && !current) throw notFound();
      if (current) unchangedSince(current.version, command.ifMatch);
      const errors = levelErrors(state, command);
      if (errors.length) throw validationFailed(errors);
      const holder = Object.values(state.priceLevels).find((l) => sameName(l.name, command.name));
      if (holder && holder.id !== command.priceLevelId) throw conflict(`A price level named ${holder.name} already exists`);
      if (current && sameLevel(current, command)) return [];
      const { priceLevelId, name, windows, prices, by } = command;
      return [{ type: 'PriceLevelSet', data: { priceLevelId, name, windows: sortedHours(windows), prices: prices.map((p) => ({ dishId: p.dishId, priceCents: p.priceCents })), by } }];
    }
    case 'removePriceLevel': {
      if (!state.priceLevels[command.priceLevelId]) throw notFound();
      return [{ type: 'PriceLevelRemoved', data: { priceLevelId: command.priceLevelId, by: command.by } }];
    }
  }
}

export function evolveAvailability(state: Menu, event: AvailabilityEvent): Menu {
  switch (event.type) {
    case 'DishAvailabilitySet': {
      const d = state.dishes[event.data.dishId];
      // Not the dish's version: a manager's If-Match on the dish's details stays valid (hours are their own write).
      return d ? { ...state, dishes: { ...state.dishes, [d.id]: { ...d, windows: event.data.windows, hoursVersion: hoursVersion(d) + 1 } } } : state;
    }
    case 'CategoryAvailabilitySet': {
      const c = state.categories[event.data.categoryId];
      return c ? { ...state, categories: { ...state.categories, [c.id]: { ...c, windows: event.data.windows, hoursVersion: hoursVersion(c) + 1 } } } : state;
    }
    case 'PriceLevelSet': {
      const { priceLevelId: id, name, windows, prices } = event.data;
      const level: PriceLevel = { id, name, windows, prices: Object.fromEntries(prices.map((p) => [p.dishId, p.priceCents])), version: versionAfter(state.priceLevels[id]) };
      return { ...state, priceLevels: { ...state.priceLevels, [id]: level } };
    }
    case 'PriceLevelRemoved': {
      const { [event.data.priceLevelId]: _removed, ...priceLevels } = state.priceLevels;
      return { ...state, priceLevels };
    }
  }
}

/** The levels once a dish is deleted: its prices go with it (an archived dish keeps them, it may come back). */
export function levelsWithout(levels: Record<string, PriceLevel>, dishId: string): Record<string, PriceLevel> {
  const touched = Object.values(levels).filter((l) => l.prices[dishId] !== undefined);
  if (touched.length === 0) return levels;
  const next = { ...levels };
  for (const l of touched) {
    const { [dishId]: _gone, ...prices } = l.prices;
    next[l.id] = { ...l, prices };
  }
  return next;
}

/** A dish at an instant: served or not, and its price then with the level that set it. */
export interface DishNow {
  available: boolean;
  /** The dish's and its category's hours, as a waiter reads them ('' when always served). */
  hours: string;
  /** When not served: when it is next ("12:00", "Mon 07:00"); null: served now, or never within a week. */
  from: string | null;
  priceCents: Cents;
  level: { id: string; name: string } | null;
}

/**
 * Served when its own hours and its category's both hold (either absent: always). Priced by the open
 * level that prices it; two open at once: the lower price, the guest's favour (equal: by name).
 */
export function dishNow(state: Menu, dishId: string, at: number, timeZone: string): DishNow | null {
  const d = state.dishes[dishId];
  if (!d) return null;
  const local = localMs(at, timeZone);
  const sets = [state.categories[d.categoryId]?.windows ?? [], d.windows ?? []].filter((w) => w.length > 0);
  const available = sets.every((w) => openAtLocal(w, local));
  const opening = available ? null : nextOpening(sets, local);
  const level = Object.values(state.priceLevels)
    .filter((l) => l.prices[dishId] !== undefined && openAtLocal(l.windows, local))
    .sort((a, b) => a.prices[dishId]! - b.prices[dishId]! || a.name.localeCompare(b.name))[0];
  return {
    available, hours: sets.map(hoursLabel).join('; '), from: opening === null ? null : openingLabel(opening, local),
    priceCents: level ? level.prices[dishId]! : d.price, level: level ? { id: level.id, name: level.name } : null,
  };
}

/**
 * What of the menu changes with the clock at this instant (which hours hold), as a short key: part of
 * the dishes list's ETag, so a tablet hears at once when lunch starts or happy hour ends. '' when the menu has no hours.
 */
export function menuClockKey(state: Menu, at: number, timeZone: string): string {
  const local = localMs(at, timeZone);
  const sets = [...Object.values(state.categories), ...Object.values(state.dishes), ...Object.values(state.priceLevels)]
    .filter((x) => (x.windows?.length ?? 0) > 0)
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  return sets.map((x) => (openAtLocal(x.windows!, local) ? '1' : '0')).join('');
}
