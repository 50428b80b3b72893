import { SECTION_EVENTS, type SectionEvent, sectionAfter } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';

/** A section of a space: its tables and the waiter who serves them (null: nobody yet). */
export type SectionView = Tracked & {
  id: string;
  name: string;
  space_id: string;
  table_ids: string[];
  waiter_id: string | null;
  version: number;
};

export const SECTIONS = 'sections';

export const sectionsProjection = projectionOf<SectionEvent>({
  name: 'sections',
  handles: SECTION_EVENTS,
  collections: { [SECTIONS]: [{ space_id: 1, name: 1 }, { name: 1 }] },
  async apply(e, store) {
    await updateDocument(store.collection<SectionView>(SECTIONS), e.data.sectionId, e, (view) => {
      // The floor decider's own step, so the version served is the one If-Match is checked against.
      const before = view ? { id: view.id, spaceId: view.space_id, name: view.name, tableIds: view.table_ids, waiterId: view.waiter_id, version: view.version } : undefined;
      const s = sectionAfter(before, e);
      if (!s) return s;
      return { _id: s.id, id: s.id, name: s.name, space_id: s.spaceId, table_ids: s.tableIds, waiter_id: s.waiterId, version: s.version };
    });
  },
});
