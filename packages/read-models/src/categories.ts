import { type NamedView, namedEntityProjection } from './named-entities.js';

/** Dish categories as the menu screens list them. */
export type CategoryView = NamedView;

export const CATEGORIES = 'categories';

export const categoriesProjection = namedEntityProjection('categories', CATEGORIES, {
  added: 'CategoryAdded', renamed: 'CategoryRenamed', removed: 'CategoryRemoved', idField: 'categoryId',
});
