import type { RecordedEvent } from '@comanda/event-store';
import { type MenuEvent, versionAfter } from '@comanda/domain';
import type { ReadStore } from '@comanda/read-store';
import type { NamedView } from './named-entities.js';
import { type Projection, updateDocument } from './projection.js';
import { bump } from './versioned.js';

/** Dish categories as the menu screens list them, with the kitchen station their dishes go to. */
export type CategoryView = NamedView & { station_id: string | null };

export const CATEGORIES = 'categories';

type CategoryEvent = Extract<MenuEvent, { type: 'CategoryAdded' | 'CategoryRenamed' | 'CategoryStationChanged' | 'CategoryRemoved' }>;

export const categoriesProjection: Projection = {
  name: 'categories',
  handles: ['CategoryAdded', 'CategoryRenamed', 'CategoryStationChanged', 'CategoryRemoved'],
  collections: { [CATEGORIES]: [{ name: 1 }, { station_id: 1 }] },
  async apply(event: RecordedEvent, store: ReadStore) {
    const e = event as unknown as CategoryEvent;
    const id = e.data.categoryId;
    await updateDocument(store.collection<CategoryView>(CATEGORIES), id, event, (current) => {
      switch (e.type) {
        case 'CategoryAdded':
          return { _id: id, id, name: e.data.name, station_id: e.data.stationId ?? null, version: versionAfter(null) };
        case 'CategoryRenamed':
          return bump(current, { name: e.data.name });
        case 'CategoryStationChanged':
          return bump(current, { station_id: e.data.stationId });
        case 'CategoryRemoved':
          return null;
      }
    });
  },
};
