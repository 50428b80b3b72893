import type { paths } from '@comanda/client';
import { api, signal } from './api.js';

/** What GET `P` answers with 200. */
export type Listed<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer T } } } } } ? T : never;

export type Dish = Listed<'/dishes'>[number];
export type Category = Listed<'/categories'>[number];
export type ModifierGroup = Listed<'/modifier-groups'>[number];
export type Table = Listed<'/tables'>[number];
export type Space = Listed<'/spaces'>[number];
export type Order = Listed<'/orders/{id}'>;
export type OrderLine = Listed<'/orders/{id}/dishes'>[number];
export type Ticket = Listed<'/tickets/{id}'>;
export type Shift = Listed<'/shifts/{id}'>;

export interface Menu {
  categories: Category[];
  dishes: Dish[];
  groups: Record<string, ModifierGroup>;
  dishById: Record<string, Dish>;
}

/** The menu as last read: the order screen reads it again when it opens (a manager may have changed it). */
export const menu = signal<Menu>({ categories: [], dishes: [], groups: {}, dishById: {} });

/** The archived dishes' names (issue 60): off the menu, still named on the bills and orders that have them. */
let archivedNames: Record<string, string> = {};

export async function loadMenu(): Promise<void> {
  const all = { params: { query: { all: true } } };
  const [categories, dishes, groups, archived] = await Promise.all([api.GET('/categories', all), api.GET('/dishes', all), api.GET('/modifier-groups', all), api.GET('/dishes/archived')]);
  if (archived.data) archivedNames = Object.fromEntries(archived.data.map((d) => [d.id, d.name]));
  // A read that failed (offline, a token being renewed) keeps the menu the tablet has: an empty menu
  // would leave a waiter nothing to add. An empty list is a 204 (no data, no error).
  if (categories.error !== undefined || dishes.error !== undefined || groups.error !== undefined || !categories.response.ok || !dishes.response.ok || !groups.response.ok) return;
  const list = dishes.data ?? [];
  menu.set({
    categories: categories.data ?? [],
    dishes: list,
    groups: Object.fromEntries((groups.data ?? []).map((g) => [g.id, g])),
    dishById: Object.fromEntries(list.map((d) => [d.id, d])),
  });
}

/** The dishes as read again (a manager's 86 shows on every tablet within seconds), categories and groups kept. */
export function setDishes(list: Dish[]): void {
  menu.set({ ...menu.get(), dishes: list, dishById: Object.fromEntries(list.map((d) => [d.id, d])) });
}

/** "86" for a dish sold out, "3 left" for a counted one, "from 12:00" outside its hours, nothing for a dish on sale. */
export const stockNote = (d: Pick<Dish, 'sold_out' | 'remaining' | 'available' | 'available_from'>): string =>
  (d.sold_out ? '86' : d.available === false ? (d.available_from ? `from ${d.available_from}` : 'not served now') : d.remaining === null ? '' : `${d.remaining} left`);

/** Not to be ordered now: sold out, or outside its hours (the API would refuse it, 409). */
export const offMenuNow = (d: Pick<Dish, 'sold_out' | 'available'>): boolean => d.sold_out || d.available === false;

/** What an order takes for it now: a price level's (happy hour) in its hours, else the menu's. */
export const priceNow = (d: Pick<Dish, 'price' | 'price_now'>): number => d.price_now ?? d.price;

export const dishName = (dishId: string) => menu.get().dishById[dishId]?.name ?? archivedNames[dishId] ?? 'Dish no longer on the menu';
