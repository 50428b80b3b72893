import type { RecordedEvent } from '@comanda/event-store';
import { TABLE_EVENTS, type Table, type TableStatus, tableAfter } from '@comanda/domain';
import type { ReadStore } from '@comanda/read-store';
import { type Projection, type Tracked, updateDocument } from './projection.js';

/** A table as the seed shows it: order_id is the active order seated there, or null. */
export type TableView = Tracked & {
  id: string;
  name: string;
  status: TableStatus;
  space_id: string;
  order_id: string | null;
  version: number;
};

export const TABLES = 'tables';

const asTable = (v: TableView): Table => ({ id: v.id, name: v.name, spaceId: v.space_id, status: v.status, orderId: v.order_id, version: v.version });

export const tablesProjection: Projection = {
  name: 'tables',
  handles: TABLE_EVENTS,
  collections: { [TABLES]: [{ space_id: 1, name: 1 }, { name: 1 }, { order_id: 1 }] },
  async apply(event: RecordedEvent, store: ReadStore) {
    if (!(TABLE_EVENTS as readonly string[]).includes(event.type)) return;
    const e = event as unknown as Parameters<typeof tableAfter>[1];
    await updateDocument(store.collection<TableView>(TABLES), e.data.tableId, event, (view) => {
      // The floor decider's own step: status, order and version exactly as If-Match will check them.
      const t = tableAfter(view ? asTable(view) : undefined, e);
      if (!t) return t;
      return { _id: t.id, id: t.id, name: t.name, status: t.status, space_id: t.spaceId, order_id: t.orderId, version: t.version };
    });
  },
};
