import { type DishDetails, type DishStock, type DishStockEvent, type MenuEvent, allergenSet, fromCents, versionAfter } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';
import { bump } from './versioned.js';

/** A dish as the seed shows it: the price a decimal number, the category by id. */
export type DishView = Tracked & {
  id: string; name: string; price: number; category_id: string; station_id: string | null; modifier_group_ids: string[]; allergens: string[];
  /** Overrides the category's rate; null: the category's. */
  tax_rate_id: string | null;
  /** What the menu tells a guest about it; '' for none. */
  description: string;
  /** Archived (issue 60): present only then; the menu's list leaves it out, `GET /dishes/archived` lists it. */
  archived?: true;
  version: number;
  /**
   * Sold out ("86") or counted, as the dish's own stream last said (issue 60); the answer reads it for
   * today (`stockOn`: a setting of an earlier business day no longer counts). Absent: never set.
   * Not counted in `version`: a manager's If-Match stays valid while orders take portions.
   */
  stock?: Pick<DishStock, 'day' | 'soldOut' | 'remaining'>;
};

export const DISHES = 'dishes';

/** What DishAdded and DishUpdated both say about a dish (modifier groups and allergens: none before they existed). */
const fields = (d: DishDetails) => ({
  name: d.name, price: fromCents(d.price), category_id: d.categoryId, station_id: d.stationId ?? null, modifier_group_ids: d.modifierGroupIds ?? [], allergens: allergenSet(d.allergens),
  tax_rate_id: d.taxRateId ?? null, description: d.description ?? '',
});

/** What a dish's stock event leaves on its document (the decider's evolve, without the holds). */
function stockAfter(e: DishStockEvent, stock: DishView['stock']): DishView['stock'] {
  switch (e.type) {
    case 'DishSoldOut': return { day: e.data.day, soldOut: true, remaining: null };
    case 'DishCounted': return { day: e.data.day, soldOut: false, remaining: e.data.remaining };
    case 'DishBackOnSale': return { day: null, soldOut: false, remaining: null };
    default: return stock && { ...stock, remaining: e.data.remaining };
  }
}

export const dishesProjection = projectionOf<MenuEvent | DishStockEvent>({
  name: 'dishes',
  // 2: modifier groups, allergens and tax rate. 3: sold out and counts (issue 60). 4: the description. 5: archived.
  version: 5,
  handles: ['DishAdded', 'DishUpdated', 'DishRemoved', 'DishArchived', 'DishRestored', 'DishSoldOut', 'DishCounted', 'DishBackOnSale', 'PortionsHeld', 'PortionsGivenBack'],
  collections: { [DISHES]: [{ name: 1 }, { category_id: 1 }, { station_id: 1 }] },
  async apply(e, store) {
    switch (e.type) {
      case 'DishSoldOut': case 'DishCounted': case 'DishBackOnSale': case 'PortionsHeld': case 'PortionsGivenBack':
        // A dish taken off the menu keeps no document: its stock has nothing to show on.
        await updateDocument(store.collection<DishView>(DISHES), e.data.dishId, e, (dish) => dish && { ...dish, stock: stockAfter(e, dish.stock) });
        return;
      case 'DishAdded': case 'DishUpdated': case 'DishRemoved': case 'DishArchived': case 'DishRestored':
        break;
      default:
        return;
    }
    const { dishId } = e.data;
    await updateDocument(store.collection<DishView>(DISHES), dishId, e, (dish) => {
      switch (e.type) {
        case 'DishAdded':
          return { _id: dishId, id: dishId, ...fields(e.data), version: versionAfter(null) };
        case 'DishUpdated':
          return bump(dish, fields(e.data));
        case 'DishRemoved':
          return null;
        case 'DishArchived':
          return bump(dish, { archived: true });
        case 'DishRestored': {
          if (!dish) return undefined;
          const { archived: _was, ...onTheMenu } = dish;
          return bump(onTheMenu);
        }
      }
    });
  },
});
