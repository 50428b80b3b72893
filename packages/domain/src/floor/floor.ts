import type { Decider } from '../decider.js';
import { type FieldError, conflict, notFound, validationFailed } from '../errors.js';
import { nameErrors, sameName } from '../names.js';
import { unchangedSince, versionAfter } from '../versions.js';
import {
  type PlanEvent, type Section, type SectionCommand, type SectionEvent, type TableLayout, type TableShape,
  cellFree, decideSection, decideMove, leaveSection, placeErrors, sectionAfter, shapeErrors,
} from './plan.js';

/**
 * The floor: the spaces of the restaurant and the layout of their tables, in one stream (`floor`). Its
 * rules involve several tables at once (a space with tables stays; a table name is unique in its
 * space), so they are checked against the whole floor inside one append: a delete racing a create is
 * decided again on the fresh floor, never on a stale read. Who sits at a table is not the floor's: each
 * table's seating has its own stream (`table-<id>`, `seating.ts`), so seating one table never waits
 * for another. Floors written before that change hold their tables' seatings too (TableOccupied and the
 * other status events): the floor still folds them, and a table's own stream carries on from there.
 */
export const FLOOR_STREAM = 'floor';

export const TABLE_STATUSES = ['available', 'occupied', 'reserved'] as const;
export type TableStatus = (typeof TABLE_STATUSES)[number];

export interface Space {
  id: string;
  name: string;
  version: number;
}

export interface Table extends TableLayout {
  id: string;
  name: string;
  spaceId: string;
  status: TableStatus;
  /** The active order seated at the table; null for a free table or guests who have not ordered yet. */
  orderId: string | null;
  version: number;
}

export interface Floor {
  spaces: Record<string, Space>;
  tables: Record<string, Table>;
  sections: Record<string, Section>;
}

type TableEvent = Exclude<FloorEvent, { type: 'SpaceCreated' | 'SpaceRenamed' | 'SpaceRemoved' } | SectionEvent>;

/** The floor events about one table (named by `data.tableId`). */
export const TABLE_EVENTS: ReadonlyArray<TableEvent['type']> = [
  'TableAdded', 'TableUpdated', 'TableReserved', 'TableMadeAvailable', 'TableOccupied', 'TableReleased', 'TableRemoved',
  'TableMoved', 'TableReshaped',
];

/**
 * A table after one of its events: null once removed, undefined for a table never added. Its version
 * moves on by one with each event; the decider (If-Match) and the tables projection (ETag) both use this.
 */
export function tableAfter(table: Table | undefined, event: TableEvent): Table | null | undefined {
  if (event.type === 'TableAdded') {
    const { tableId, ...setup } = event.data;
    return { id: tableId, ...setup, version: versionAfter(null) };
  }
  if (!table) return undefined;
  const bump = (changes: Partial<Table>): Table => ({ ...table, ...changes, version: versionAfter(table) });
  switch (event.type) {
    case 'TableUpdated': {
      // Another space has another grid: the table waits there, unplaced, to be dragged onto it.
      if (event.data.spaceId === table.spaceId) return bump({ name: event.data.name });
      const { column: _c, row: _r, ...unplaced } = bump({ name: event.data.name, spaceId: event.data.spaceId });
      return unplaced;
    }
    case 'TableMoved':
      return bump({ column: event.data.column, row: event.data.row });
    case 'TableReshaped':
      return bump({ shape: event.data.shape, seats: event.data.seats });
    case 'TableReserved':
      return bump({ status: 'reserved', orderId: null });
    case 'TableMadeAvailable':
    case 'TableReleased':
      return bump({ status: 'available', orderId: null });
    case 'TableOccupied':
      return bump({ status: 'occupied', orderId: event.data.orderId });
    case 'TableRemoved':
      return null;
  }
}

/** A table as staff set it up by hand. */
export interface TableSetup {
  name: string;
  spaceId: string;
  status: TableStatus;
  orderId: string | null;
}

export type FloorEvent =
  | { type: 'SpaceCreated'; data: { spaceId: string; name: string } }
  | { type: 'SpaceRenamed'; data: { spaceId: string; name: string } }
  | { type: 'SpaceRemoved'; data: { spaceId: string } }
  | { type: 'TableAdded'; data: { tableId: string } & TableSetup }
  | { type: 'TableUpdated'; data: { tableId: string; name: string; spaceId: string } }
  | { type: 'TableReserved'; data: { tableId: string } }
  | { type: 'TableMadeAvailable'; data: { tableId: string } }
  | { type: 'TableOccupied'; data: { tableId: string; orderId: string | null } }
  | { type: 'TableReleased'; data: { tableId: string; orderId: string | null } }
  | { type: 'TableRemoved'; data: { tableId: string } }
  | PlanEvent;

export type FloorCommand =
  | { type: 'createSpace'; spaceId: string; name: string }
  | { type: 'renameSpace'; spaceId: string; name: string; ifMatch?: number }
  | { type: 'removeSpace'; spaceId: string }
  /** With a cell and a look when given: one append, so a taken cell refuses the whole table. */
  | ({ type: 'addTable'; tableId: string; place?: { column: number; row: number }; look?: { shape: TableShape; seats: number } } & TableSetup)
  | { type: 'moveTable'; tableId: string; column: number; row: number }
  | { type: 'reshapeTable'; tableId: string; shape: TableShape; seats: number }
  | SectionCommand
  /**
   * The table's name and space. The whole setup is validated here (status and order included, so one
   * answer lists every error); the status itself is the table's own stream's (`setStatus`).
   */
  | ({
      type: 'updateTable';
      tableId: string;
      ifMatch?: number;
      /** The events of the table's own stream: with the floor's, they make the version If-Match names. */
      seatingChanges?: number;
    } & TableSetup)
  /** Only after the table's own stream was closed (`closeTable`, which refuses a table with an active order). */
  | { type: 'removeTable'; tableId: string };

const isStatus = (value: unknown): value is TableStatus => (TABLE_STATUSES as readonly unknown[]).includes(value);

export const tablesIn = (state: Floor, spaceId: string): Table[] => Object.values(state.tables).filter((t) => t.spaceId === spaceId);

function space(state: Floor, spaceId: string): Space {
  const s = state.spaces[spaceId];
  if (!s) throw notFound();
  return s;
}

function table(state: Floor, tableId: string): Table {
  const t = state.tables[tableId];
  if (!t) throw notFound();
  return t;
}

function validName(name: string): void {
  const errors = nameErrors(name);
  if (errors.length > 0) throw validationFailed(errors);
}

function validSetup(state: Floor, setup: TableSetup): TableSetup {
  const errors: FieldError[] = [...nameErrors(setup.name)];
  if (!state.spaces[setup.spaceId]) errors.push({ field: 'space_id', message: 'must reference an existing space' });
  if (!isStatus(setup.status)) errors.push({ field: 'status', message: `must be one of ${TABLE_STATUSES.join(', ')}` });
  else if (setup.orderId !== null && setup.status !== 'occupied') {
    errors.push({ field: 'status', message: 'must be occupied when order_id is set' });
  }
  if (errors.length > 0) throw validationFailed(errors);
  return { name: setup.name, spaceId: setup.spaceId, status: setup.status, orderId: setup.orderId };
}

function tableNameFree(state: Floor, name: string, spaceId: string, except?: string): void {
  const holder = tablesIn(state, spaceId).find((t) => sameName(t.name, name));
  if (holder && holder.id !== except) {
    throw conflict(`A table named ${holder.name} already exists in space ${state.spaces[spaceId]!.name}`);
  }
}

/** The record with one entry replaced (null: removed); undefined when nothing changes. */
function replaced<T>(record: Record<string, T>, id: string, next: T | null | undefined): Record<string, T> | undefined {
  if (next === undefined) return undefined;
  const copy = { ...record };
  if (next === null) delete copy[id];
  else copy[id] = next;
  return copy;
}

export const floor: Decider<FloorCommand, FloorEvent, Floor> = {
  initialState: () => ({ spaces: {}, tables: {}, sections: {} }),
  // One stream per restaurant (that grew with every seating before tables had their own): folded from a snapshot after a restart.
  // Version 2: the state holds sections.
  snapshot: { name: 'floor', version: 2 },

  decide(command, state) {
    switch (command.type) {
      case 'createSpace': {
        validName(command.name);
        if (state.spaces[command.spaceId]) throw conflict('This space already exists');
        return [{ type: 'SpaceCreated', data: { spaceId: command.spaceId, name: command.name } }];
      }
      case 'renameSpace': {
        const s = space(state, command.spaceId);
        unchangedSince(s.version, command.ifMatch);
        validName(command.name);
        if (command.name === s.name) return [];
        return [{ type: 'SpaceRenamed', data: { spaceId: s.id, name: command.name } }];
      }
      case 'removeSpace': {
        const s = space(state, command.spaceId);
        const tables = tablesIn(state, s.id).length;
        if (tables > 0) {
          throw conflict(`Space ${s.name} still has ${tables} table${tables === 1 ? '' : 's'}: move or delete them first`, { table_count: tables });
        }
        // Its sections hold no tables now (it has none): they go with it.
        const sections = Object.values(state.sections).filter((x) => x.spaceId === s.id);
        return [...sections.map((x): FloorEvent => ({ type: 'SectionRemoved', data: { sectionId: x.id } })), { type: 'SpaceRemoved', data: { spaceId: s.id } }];
      }
      case 'addTable': {
        const setup = validSetup(state, command);
        if (state.tables[command.tableId]) throw conflict('This table already exists');
        tableNameFree(state, setup.name, setup.spaceId);
        const { place, look } = command;
        const errors = [...(place ? placeErrors(place.column, place.row) : []), ...(look ? shapeErrors(look.shape, look.seats) : [])];
        if (errors.length > 0) throw validationFailed(errors);
        if (place) cellFree(state, setup.spaceId, place.column, place.row);
        const tableId = command.tableId;
        return [
          { type: 'TableAdded', data: { tableId, ...setup } },
          ...(place ? [{ type: 'TableMoved' as const, data: { tableId, ...place } }] : []),
          ...(look ? [{ type: 'TableReshaped' as const, data: { tableId, shape: look.shape, seats: look.seats } }] : []),
        ];
      }
      case 'moveTable':
        return decideMove(state, command.tableId, command.column, command.row);
      case 'reshapeTable': {
        const t = table(state, command.tableId);
        const errors = shapeErrors(command.shape, command.seats);
        if (errors.length > 0) throw validationFailed(errors);
        if (t.shape === command.shape && t.seats === command.seats) return [];
        return [{ type: 'TableReshaped', data: { tableId: t.id, shape: command.shape, seats: command.seats } }];
      }
      case 'updateTable': {
        const t = table(state, command.tableId);
        unchangedSince(t.version + (command.seatingChanges ?? 0), command.ifMatch);
        const target = validSetup(state, command);
        if (target.name === t.name && target.spaceId === t.spaceId) return [];
        tableNameFree(state, target.name, target.spaceId, t.id);
        const leaves = target.spaceId === t.spaceId ? [] : leaveSection(state, t.id);
        return [...leaves, { type: 'TableUpdated', data: { tableId: t.id, name: target.name, spaceId: target.spaceId } }];
      }
      case 'removeTable': {
        // Whether an order sits there is the table's own stream's to say: it was closed first.
        const t = table(state, command.tableId);
        return [...leaveSection(state, t.id), { type: 'TableRemoved', data: { tableId: t.id } }];
      }
      default:
        return decideSection(state, command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'SpaceCreated': {
        const { spaceId, name } = event.data;
        return { ...state, spaces: { ...state.spaces, [spaceId]: { id: spaceId, name, version: versionAfter(null) } } };
      }
      case 'SpaceRenamed': {
        const s = state.spaces[event.data.spaceId]!;
        return { ...state, spaces: { ...state.spaces, [s.id]: { ...s, name: event.data.name, version: versionAfter(s) } } };
      }
      case 'SpaceRemoved': {
        const { [event.data.spaceId]: _removed, ...spaces } = state.spaces;
        return { ...state, spaces };
      }
      case 'SectionCreated':
      case 'SectionChanged':
      case 'SectionRemoved': {
        const sections = replaced(state.sections, event.data.sectionId, sectionAfter(state.sections[event.data.sectionId], event));
        return sections ? { ...state, sections } : state;
      }
      default: {
        const tables = replaced(state.tables, event.data.tableId, tableAfter(state.tables[event.data.tableId], event));
        return tables ? { ...state, tables } : state;
      }
    }
  },
};
