import { type MenuEvent, versionAfter } from '@comanda/domain';
import { positionKey } from '@comanda/read-store';
import { projectionOf, type Tracked, updateDocument } from './projection.js';
import { bump } from './versioned.js';

/**
 * Kitchen stations. `chosen` marks the station made default; without one the default is the first
 * created (smallest `created`), as the menu decider decides it: see `withDefault`.
 */
export type StationView = Tracked & { id: string; name: string; chosen: boolean; created: string; version: number };

export const STATIONS = 'stations';

type StationEvent = Extract<MenuEvent, { type: 'StationAdded' | 'StationRenamed' | 'StationMadeDefault' | 'StationRemoved' }>;

/** The stations with `is_default` worked out as the decider's `defaultStation` does. */
export function withDefault(stations: StationView[]): Array<StationView & { is_default: boolean }> {
  const chosen = stations.find((s) => s.chosen);
  const first = [...stations].sort((a, b) => (a.created < b.created ? -1 : 1))[0];
  const fallback = chosen ?? first;
  return stations.map((s) => ({ ...s, is_default: s.id === fallback?.id }));
}

export const stationsProjection = projectionOf<StationEvent>({
  name: 'stations',
  handles: ['StationAdded', 'StationRenamed', 'StationMadeDefault', 'StationRemoved'],
  collections: { [STATIONS]: [{ name: 1 }, { chosen: 1 }] },
  async apply(e, store) {
    const stations = store.collection<StationView>(STATIONS);
    const id = e.data.stationId;
    if (e.type === 'StationMadeDefault') {
      for (const previous of await stations.find({ chosen: true })) {
        if (previous.id !== id) await updateDocument(stations, previous.id, e, (s) => (s ? { ...s, chosen: false } : undefined));
      }
    }
    await updateDocument(stations, id, e, (current) => {
      switch (e.type) {
        case 'StationAdded':
          return { _id: id, id, name: e.data.name, chosen: false, created: positionKey(e.position), version: versionAfter(null) };
        case 'StationRenamed':
          return bump(current, { name: e.data.name });
        case 'StationMadeDefault':
          return bump(current, { chosen: true });
        case 'StationRemoved':
          return null;
      }
    });
  },
});
