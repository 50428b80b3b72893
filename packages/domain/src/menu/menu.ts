import type { Decider } from '../decider.js';
import { type FieldError, conflict, notFound, validationFailed } from '../errors.js';
import type { Cents } from '../money.js';
import { nameErrors, sameName } from '../names.js';
import { unchangedSince } from '../versions.js';

/**
 * The menu: dish categories and dishes of one restaurant in one stream (`menu`). A menu is small
 * (hundreds of dishes at most), and one stream makes its rules hold under any concurrency, because
 * each is checked against the whole menu inside the same append: category names are unique, a dish
 * belongs to a category that exists, a category with dishes cannot be removed.
 */
export const MENU_STREAM = 'menu';

export interface Category {
  id: string;
  name: string;
  version: number;
}

export interface Dish {
  id: string;
  name: string;
  price: Cents;
  categoryId: string;
  version: number;
}

export interface Menu {
  categories: Record<string, Category>;
  dishes: Record<string, Dish>;
}

/** What a dish is, as the kitchen and the bill see it. */
export interface DishDetails {
  name: string;
  price: Cents;
  categoryId: string;
}

export type MenuEvent =
  | { type: 'CategoryAdded'; data: { categoryId: string; name: string } }
  | { type: 'CategoryRenamed'; data: { categoryId: string; name: string } }
  | { type: 'CategoryRemoved'; data: { categoryId: string } }
  | { type: 'DishAdded'; data: { dishId: string } & DishDetails }
  | { type: 'DishUpdated'; data: { dishId: string } & DishDetails }
  | { type: 'DishRemoved'; data: { dishId: string } };

export type MenuCommand =
  | { type: 'addCategory'; categoryId: string; name: string }
  | { type: 'renameCategory'; categoryId: string; name: string; ifMatch?: number }
  | { type: 'removeCategory'; categoryId: string }
  | ({ type: 'addDish'; dishId: string } & DishDetails)
  | ({ type: 'updateDish'; dishId: string; ifMatch?: number } & DishDetails)
  | { type: 'removeDish'; dishId: string };

/** The current price of a dish, or null when it is not (or no longer) on the menu. */
export const dishPrice = (state: Menu, dishId: string): Cents | null => state.dishes[dishId]?.price ?? null;

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

function categoryNameFree(state: Menu, name: string, except?: string): void {
  const holder = Object.values(state.categories).find((c) => sameName(c.name, name));
  if (holder && holder.id !== except) throw conflict(`A dish category named ${holder.name} already exists`);
}

function validDish(state: Menu, details: DishDetails): DishDetails {
  const errors: FieldError[] = [...nameErrors(details.name)];
  if (!Number.isSafeInteger(details.price) || details.price <= 0) {
    errors.push({ field: 'price', message: 'must be a positive amount with at most two decimals' });
  }
  if (!state.categories[details.categoryId]) {
    errors.push({ field: 'category_id', message: 'must reference an existing dish category' });
  }
  if (errors.length > 0) throw validationFailed(errors);
  return { name: details.name, price: details.price, categoryId: details.categoryId };
}

const dishesIn = (state: Menu, categoryId: string) => Object.values(state.dishes).filter((d) => d.categoryId === categoryId);

const sameDetails = (a: DishDetails, b: DishDetails) => a.name === b.name && a.price === b.price && a.categoryId === b.categoryId;

export const menu: Decider<MenuCommand, MenuEvent, Menu> = {
  initialState: () => ({ categories: {}, dishes: {} }),
  snapshot: { name: 'menu', version: 1 },

  decide(command, state) {
    switch (command.type) {
      case 'addCategory': {
        const errors = nameErrors(command.name);
        if (errors.length > 0) throw validationFailed(errors);
        if (state.categories[command.categoryId]) throw conflict('This dish category already exists');
        categoryNameFree(state, command.name);
        return [{ type: 'CategoryAdded', data: { categoryId: command.categoryId, name: command.name } }];
      }
      case 'renameCategory': {
        const c = category(state, command.categoryId);
        unchangedSince(c.version, command.ifMatch);
        const errors = nameErrors(command.name);
        if (errors.length > 0) throw validationFailed(errors);
        if (command.name === c.name) return [];
        categoryNameFree(state, command.name, c.id);
        return [{ type: 'CategoryRenamed', data: { categoryId: c.id, name: command.name } }];
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
        return [{ type: 'DishAdded', data: { dishId: command.dishId, ...details } }];
      }
      case 'updateDish': {
        const d = dish(state, command.dishId);
        unchangedSince(d.version, command.ifMatch);
        const details = validDish(state, command);
        if (sameDetails(details, d)) return [];
        return [{ type: 'DishUpdated', data: { dishId: d.id, ...details } }];
      }
      case 'removeDish': {
        const d = dish(state, command.dishId);
        return [{ type: 'DishRemoved', data: { dishId: d.id } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'CategoryAdded': {
        const { categoryId, name } = event.data;
        return { ...state, categories: { ...state.categories, [categoryId]: { id: categoryId, name, version: 1 } } };
      }
      case 'CategoryRenamed': {
        const c = state.categories[event.data.categoryId]!;
        return { ...state, categories: { ...state.categories, [c.id]: { ...c, name: event.data.name, version: c.version + 1 } } };
      }
      case 'CategoryRemoved': {
        const { [event.data.categoryId]: _removed, ...categories } = state.categories;
        return { ...state, categories };
      }
      case 'DishAdded': {
        const { dishId, name, price, categoryId } = event.data;
        return { ...state, dishes: { ...state.dishes, [dishId]: { id: dishId, name, price, categoryId, version: 1 } } };
      }
      case 'DishUpdated': {
        const { dishId, name, price, categoryId } = event.data;
        const d = state.dishes[dishId]!;
        return { ...state, dishes: { ...state.dishes, [dishId]: { ...d, name, price, categoryId, version: d.version + 1 } } };
      }
      case 'DishRemoved': {
        const { [event.data.dishId]: _removed, ...dishes } = state.dishes;
        return { ...state, dishes };
      }
    }
  },
};
