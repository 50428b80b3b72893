import { type MenuEvent, fromCents, versionAfter } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';
import { bump } from './versioned.js';

/** A dish as the seed shows it: the price a decimal number, the category by id. */
export type DishView = Tracked & { id: string; name: string; price: number; category_id: string; station_id: string | null; version: number };

export const DISHES = 'dishes';

export const dishesProjection = projectionOf<MenuEvent>({
  name: 'dishes',
  handles: ['DishAdded', 'DishUpdated', 'DishRemoved'],
  collections: { [DISHES]: [{ name: 1 }, { category_id: 1 }, { station_id: 1 }] },
  async apply(e, store) {
    if (e.type !== 'DishAdded' && e.type !== 'DishUpdated' && e.type !== 'DishRemoved') return;
    const { dishId } = e.data;
    await updateDocument(store.collection<DishView>(DISHES), dishId, e, (dish) => {
      switch (e.type) {
        case 'DishAdded':
          return { _id: dishId, id: dishId, name: e.data.name, price: fromCents(e.data.price), category_id: e.data.categoryId, station_id: e.data.stationId ?? null, version: versionAfter(null) };
        case 'DishUpdated':
          return bump(dish, { name: e.data.name, price: fromCents(e.data.price), category_id: e.data.categoryId, station_id: e.data.stationId ?? null });
        case 'DishRemoved':
          return null;
      }
    });
  },
});
