import { TABLE_EVENTS, type Table, type TableLayout, type TableStatus, layoutOf, tableAfter } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';

/** A table as the seed shows it: order_id is the active order seated there, or null. */
export type TableView = Tracked & {
  id: string;
  name: string;
  status: TableStatus;
  space_id: string;
  order_id: string | null;
  version: number;
} & TableLayout;

export const TABLES = 'tables';

const asTable = (v: TableView): Table => ({ id: v.id, name: v.name, spaceId: v.space_id, status: v.status, orderId: v.order_id, version: v.version, ...layoutOf(v) });

export const tablesProjection = projectionOf<Parameters<typeof tableAfter>[1]>({
  name: 'tables',
  handles: TABLE_EVENTS,
  collections: { [TABLES]: [{ space_id: 1, name: 1 }, { name: 1 }, { order_id: 1 }] },
  async apply(e, store) {
    await updateDocument(store.collection<TableView>(TABLES), e.data.tableId, e, (view) => {
      // The floor decider's own step: status, order and version exactly as If-Match will check them.
      const t = tableAfter(view ? asTable(view) : undefined, e);
      if (!t) return t;
      return { _id: t.id, id: t.id, name: t.name, status: t.status, space_id: t.spaceId, order_id: t.orderId, version: t.version, ...layoutOf(t) };
    });
  },
});
