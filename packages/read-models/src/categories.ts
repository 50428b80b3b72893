import { type MenuEvent, versionAfter } from '@comanda/domain';
import type { NamedView } from './named-entities.js';
import { projectionOf, updateDocument } from './projection.js';
import { bump } from './versioned.js';

/** Dish categories as the menu screens list them, with the kitchen station their dishes go to. */
export type CategoryView = NamedView & { station_id: string | null; tax_rate_id: string | null; display_order: number };

export const CATEGORIES = 'categories';

type CategoryEvent = Extract<MenuEvent, { type: 'CategoryAdded' | 'CategoryRenamed' | 'CategoryStationChanged' | 'CategoryTaxRateChanged' | 'CategoryDisplayOrderChanged' | 'CategoryRemoved' }>;

export const categoriesProjection = projectionOf<CategoryEvent>({
  name: 'categories',
  // 2: the tax rate of its dishes. 3: the display order the list is sorted by (issue 60).
  version: 3,
  handles: ['CategoryAdded', 'CategoryRenamed', 'CategoryStationChanged', 'CategoryTaxRateChanged', 'CategoryDisplayOrderChanged', 'CategoryRemoved'],
  collections: { [CATEGORIES]: [{ name: 1 }, { station_id: 1 }, { display_order: 1, name: 1 }] },
  async apply(e, store) {
    const id = e.data.categoryId;
    await updateDocument(store.collection<CategoryView>(CATEGORIES), id, e, (current) => {
      switch (e.type) {
        case 'CategoryAdded':
          return { _id: id, id, name: e.data.name, station_id: e.data.stationId ?? null, tax_rate_id: e.data.taxRateId ?? null, display_order: e.data.displayOrder ?? 0, version: versionAfter(null) };
        case 'CategoryRenamed':
          return bump(current, { name: e.data.name });
        case 'CategoryStationChanged':
          return bump(current, { station_id: e.data.stationId });
        case 'CategoryTaxRateChanged':
          return bump(current, { tax_rate_id: e.data.taxRateId });
        case 'CategoryDisplayOrderChanged':
          return bump(current, { display_order: e.data.displayOrder });
        case 'CategoryRemoved':
          return null;
      }
    });
  },
});
