import type { RecordedEvent } from '@comanda/event-store';
import type { FloorEvent, TableStatus } from '@comanda/domain';
import type { ReadStore } from '@comanda/read-store';
import { type Projection, type Tracked, updateDocument } from './projection.js';
import { bump } from './versioned.js';

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

type TableEvent = Exclude<FloorEvent, { type: 'SpaceCreated' | 'SpaceRenamed' | 'SpaceRemoved' }>;

const TABLE_EVENTS: ReadonlyArray<TableEvent['type']> = [
  'TableAdded', 'TableUpdated', 'TableReserved', 'TableMadeAvailable', 'TableOccupied', 'TableReleased', 'TableRemoved',
];

export const tablesProjection: Projection = {
  name: 'tables',
  handles: TABLE_EVENTS,
  collections: { [TABLES]: [{ space_id: 1, name: 1 }, { name: 1 }, { order_id: 1 }] },
  async apply(event: RecordedEvent, store: ReadStore) {
    if (!(TABLE_EVENTS as readonly string[]).includes(event.type)) return;
    const e = event as unknown as TableEvent & RecordedEvent;
    const { tableId } = e.data;
    await updateDocument(store.collection<TableView>(TABLES), tableId, event, (table) => {
      switch (e.type) {
        case 'TableAdded': {
          const { name, status, spaceId, orderId } = e.data;
          return { _id: tableId, id: tableId, name, status, space_id: spaceId, order_id: orderId, version: 1 };
        }
        case 'TableUpdated':
          return bump(table, { name: e.data.name, space_id: e.data.spaceId });
        case 'TableReserved':
          return bump(table, { status: 'reserved', order_id: null });
        case 'TableMadeAvailable':
        case 'TableReleased':
          return bump(table, { status: 'available', order_id: null });
        case 'TableOccupied':
          return bump(table, { status: 'occupied', order_id: e.data.orderId });
        case 'TableRemoved':
          return null;
      }
    });
  },
};
