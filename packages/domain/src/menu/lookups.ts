import { conflict } from '../errors.js';
import { sameName } from '../names.js';
import type { Menu, Station } from './menu-state.js';

/** Finding things on the menu: stations (and the default one) and free names. */
export function stationNameFree(state: Menu, name: string, except?: string): void {
  const holder = Object.values(state.stations).find((s) => sameName(s.name, name));
  if (holder && holder.id !== except) throw conflict(`A kitchen station named ${holder.name} already exists`);
}

/** The station for lines whose dish and category name none: the chosen one, else the first created. */
export function defaultStation(state: Menu): Station | null {
  if (state.defaultStationId && state.stations[state.defaultStationId]) return state.stations[state.defaultStationId]!;
  return Object.values(state.stations).sort((a, b) => a.seq - b.seq)[0] ?? null;
}

/** Where a dish is cooked: its own station, else its category's, else the default station. */
export function stationOf(state: Menu, dishId: string): Station | null {
  const d = state.dishes[dishId];
  const own = d?.stationId ? state.stations[d.stationId] : undefined;
  const c = d ? state.categories[d.categoryId] : undefined;
  const viaCategory = c?.stationId ? state.stations[c.stationId] : undefined;
  return own ?? viaCategory ?? defaultStation(state);
}

export function categoryNameFree(state: Menu, name: string, except?: string): void {
  const holder = Object.values(state.categories).find((c) => sameName(c.name, name));
  if (holder && holder.id !== except) throw conflict(`A dish category named ${holder.name} already exists`);
}

