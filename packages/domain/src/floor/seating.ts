import type { Decider } from '../decider.js';
import { conflict, notFound, validationFailed } from '../errors.js';
import { unchangedSince } from '../versions.js';
import { type FloorEvent, TABLE_STATUSES, type Table, type TableStatus } from './floor.js';

/**
 * A table's seating, in the table's own stream (`table-<id>`): its status and the order sitting there.
 * Seating one table never conflicts with seating another, nor with staff editing the layout (the floor
 * stream). The rules of one table are decided here in one append: one active order at a time, a
 * release frees only its own order's table, a table with an active order is not closed, nothing is
 * seated at a closed one (see `closeTable`).
 *
 * The stream holds only what changed after the table was set up, so every command is given the table
 * as the floor has it (`floor`): its layout and version, and for a floor written before tables had
 * their own streams, the seating it recorded then. The table is the floor's, with the status and the
 * order of this stream's latest event, and the version of both streams' events together: the count
 * the tables projection makes (it applies `tableAfter` to every table event, whichever the stream).
 */
export const tableStream = (tableId: string): string => `table-${tableId}`;

type SeatingChange = Extract<FloorEvent, { type: 'TableOccupied' | 'TableReleased' | 'TableReserved' | 'TableMadeAvailable' }>;

export type SeatingEvent =
  | SeatingChange
  /**
   * The table is about to leave the floor (written before the floor's TableRemoved): nothing is seated
   * at it from now on. Not a table event (no version moves): a client sees the table go with TableRemoved.
   */
  | { type: 'TableClosed'; data: { tableId: string } };

export interface Seating {
  /** From this stream's latest change; null until its first (the floor's figures stand). */
  status: TableStatus | null;
  orderId: string | null;
  /** Table events in this stream: each moved the table's version by one. */
  changes: number;
  closed: boolean;
}

/** The table as the floor has it; null when the floor has no such table (never added, or removed). */
type FromFloor = { floor: Table | null };

export type SeatingCommand =
  /** An order is seated at the table (walk-ins and reserved tables included). */
  | ({ type: 'occupyTable'; tableId: string; orderId: string } & FromFloor)
  /** An order leaves its table (completed, cancelled, deleted, moved). */
  | ({ type: 'releaseTable'; tableId: string; orderId: string } & FromFloor)
  /** Staff set the status by hand (`PUT /tables/{id}`), pinning the table's version (If-Match). */
  | ({
      type: 'setStatus';
      tableId: string;
      status: TableStatus;
      orderId: string | null;
      ifMatch?: number;
      /**
       * Orders the caller found finished (completed, cancelled or gone): a table still holding one of
       * them may be set up afresh. A table holding any other order keeps it until the order releases it.
       */
      finishedOrders?: readonly string[];
    } & FromFloor)
  /** Before the table is removed from the floor: refused while an order sits there. */
  | ({ type: 'closeTable'; tableId: string } & FromFloor);

/** The table now: the floor's with this stream's changes; null once closed or when the floor has none. */
export function seatedTable(floor: Table | null, seating: Seating): Table | null {
  if (!floor || seating.closed) return null;
  const own = seating.status !== null;
  return {
    ...floor,
    status: own ? seating.status! : floor.status,
    orderId: own ? seating.orderId : floor.orderId,
    version: floor.version + seating.changes,
  };
}

const activeOrderConflict = (t: Table) => conflict(`Table ${t.name} already has an active order`, { order_id: t.orderId });

/** The status events that take a table from where it is to where staff set it. */
function statusChange(t: Table, target: { status: TableStatus; orderId: string | null }): SeatingChange[] {
  const tableId = t.id;
  const keepsSeating = target.status === 'occupied' && (t.orderId === null || t.orderId === target.orderId);
  const events: SeatingChange[] = [];
  let from = t.status;
  if (t.status === 'occupied' && !keepsSeating) {
    events.push({ type: 'TableReleased', data: { tableId, orderId: t.orderId } });
    from = 'available';
  }
  if (target.status === 'occupied' && (from !== 'occupied' || t.orderId !== target.orderId)) {
    events.push({ type: 'TableOccupied', data: { tableId, orderId: target.orderId } });
  } else if (target.status === 'reserved' && from !== 'reserved') {
    events.push({ type: 'TableReserved', data: { tableId } });
  } else if (target.status === 'available' && from === 'reserved') {
    events.push({ type: 'TableMadeAvailable', data: { tableId } });
  }
  return events;
}

const noSuchTable = () => validationFailed([{ field: 'table_id', message: 'must reference an existing table' }]);

export const seating: Decider<SeatingCommand, SeatingEvent, Seating> = {
  initialState: () => ({ status: null, orderId: null, changes: 0, closed: false }),
  // A table seats a few dozen orders a day, two events each: folded from a snapshot after a restart.
  snapshot: { name: 'table-seating', version: 1 },

  decide(command, state) {
    const t = seatedTable(command.floor, state);
    switch (command.type) {
      case 'occupyTable': {
        if (!t) throw noSuchTable();
        if (t.orderId === command.orderId) return [];
        if (t.orderId !== null) throw activeOrderConflict(t);
        return [{ type: 'TableOccupied', data: { tableId: t.id, orderId: command.orderId } }];
      }
      case 'releaseTable': {
        // Never frees a table some other order sits at: a late or repeated release changes nothing.
        if (!t || t.orderId !== command.orderId) return [];
        return [{ type: 'TableReleased', data: { tableId: t.id, orderId: command.orderId } }];
      }
      case 'setStatus': {
        if (!t) throw notFound();
        unchangedSince(t.version, command.ifMatch);
        if (!(TABLE_STATUSES as readonly string[]).includes(command.status)) {
          throw validationFailed([{ field: 'status', message: `must be one of ${TABLE_STATUSES.join(', ')}` }]);
        }
        const dropsOrder = t.orderId !== null && command.orderId !== t.orderId;
        if (dropsOrder && !command.finishedOrders?.includes(t.orderId!)) throw activeOrderConflict(t);
        return statusChange(t, command);
      }
      case 'closeTable': {
        // Closed already (a DELETE retried after a crash between the two appends): nothing to add.
        if (state.closed) return [];
        if (!t) throw notFound();
        if (t.orderId !== null) throw conflict(`Table ${t.name} has an active order and cannot be deleted`, { order_id: t.orderId });
        return [{ type: 'TableClosed', data: { tableId: t.id } }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'TableOccupied':
        return { ...state, status: 'occupied', orderId: event.data.orderId, changes: state.changes + 1 };
      case 'TableReserved':
        return { ...state, status: 'reserved', orderId: null, changes: state.changes + 1 };
      case 'TableMadeAvailable':
      case 'TableReleased':
        return { ...state, status: 'available', orderId: null, changes: state.changes + 1 };
      case 'TableClosed':
        return { ...state, closed: true };
    }
  },
};
