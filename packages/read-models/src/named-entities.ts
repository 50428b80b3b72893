import { versionAfter } from '@comanda/domain';
import type { RecordedEvent } from '@comanda/event-store';
import type { ReadStore } from '@comanda/read-store';
import { type Projection, type Tracked, updateDocument } from './projection.js';
import { bump } from './versioned.js';

/** Something that is only a name (a dish category, a space), as its screens list it. */
export type NamedView = Tracked & { id: string; name: string; version: number };

export interface NamedEntityEvents {
  added: string;
  renamed: string;
  removed: string;
  /** The payload field holding the entity's id ('categoryId'). */
  idField: string;
}

/** The projection of a named entity: added, renamed, removed, its version counted as the decider does. */
export function namedEntityProjection(name: string, collection: string, events: NamedEntityEvents): Projection {
  return {
    name,
    handles: [events.added, events.renamed, events.removed],
    collections: { [collection]: [{ name: 1 }] },
    async apply(event: RecordedEvent, store: ReadStore) {
      const data = event.data as Record<string, string>;
      const id = data[events.idField]!;
      await updateDocument(store.collection<NamedView>(collection), id, event, (current) => {
        if (event.type === events.added) return { _id: id, id, name: data.name!, version: versionAfter(null) };
        if (event.type === events.renamed) return bump(current, { name: data.name! });
        if (event.type === events.removed) return null;
        return undefined;
      });
    },
  };
}
