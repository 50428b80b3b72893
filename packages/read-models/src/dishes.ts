import { type DishDetails, type MenuEvent, allergenSet, fromCents, versionAfter } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';
import { bump } from './versioned.js';

/** A dish as the seed shows it: the price a decimal number, the category by id. */
export type DishView = Tracked & {
  id: string; name: string; price: number; category_id: string; station_id: string | null; modifier_group_ids: string[]; allergens: string[];
  /** Overrides the category's rate; null: the category's. */
  tax_rate_id: string | null;
  version: number;
};

export const DISHES = 'dishes';

/** What DishAdded and DishUpdated both say about a dish (modifier groups and allergens: none before they existed). */
const fields = (d: DishDetails) => ({
  name: d.name, price: fromCents(d.price), category_id: d.categoryId, station_id: d.stationId ?? null, modifier_group_ids: d.modifierGroupIds ?? [], allergens: allergenSet(d.allergens),
  tax_rate_id: d.taxRateId ?? null,
});

export const dishesProjection = projectionOf<MenuEvent>({
  name: 'dishes',
  // 2: modifier groups, allergens and tax rate.
  version: 2,
  handles: ['DishAdded', 'DishUpdated', 'DishRemoved'],
  collections: { [DISHES]: [{ name: 1 }, { category_id: 1 }, { station_id: 1 }] },
  async apply(e, store) {
    if (e.type !== 'DishAdded' && e.type !== 'DishUpdated' && e.type !== 'DishRemoved') return;
    const { dishId } = e.data;
    await updateDocument(store.collection<DishView>(DISHES), dishId, e, (dish) => {
      switch (e.type) {
        case 'DishAdded':
          return { _id: dishId, id: dishId, ...fields(e.data), version: versionAfter(null) };
        case 'DishUpdated':
          return bump(dish, fields(e.data));
        case 'DishRemoved':
          return null;
      }
    });
  },
});
