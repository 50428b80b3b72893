import { type FieldError, conflict, notFound, validationFailed } from '../errors.js';
import { nameErrors } from '../names.js';
import { unchangedSince, versionAfter } from '../versions.js';

/**
 * The floor plan: where each table stands on its space's grid, its shape and seats, and the sections
 * (tables grouped under one waiter). All of it lives in the floor stream with the tables themselves, so
 * "one table per cell" and "a table in one section" are decided against the whole floor in one append:
 * two managers dropping tables on the same free cell at once get one move and one 409.
 */

/**
 * Every space has the same grid: 12 columns by 8 rows, 0-based, (0, 0) top left. Enough for a
 * restaurant's room at a tablet's size; a per-space size can come later as an addition.
 */
export const FLOOR_GRID = { columns: 12, rows: 8 } as const;

export const TABLE_SHAPES = ['square', 'round', 'rectangle'] as const;
export type TableShape = (typeof TABLE_SHAPES)[number];
export const MAX_SEATS = 40;

/** Where a table stands and how it looks; every field absent on a table never placed nor shaped. */
export interface TableLayout {
  column?: number;
  row?: number;
  shape?: TableShape;
  seats?: number;
}

/** The plan's fields a table has: absent when never set, so a table never placed reads as it always did. */
export function layoutOf(t: TableLayout): TableLayout {
  const { column: c, row: r, shape: s, seats: n } = t;
  return { ...(c === undefined ? {} : { column: c }), ...(r === undefined ? {} : { row: r }), ...(s === undefined ? {} : { shape: s }), ...(n === undefined ? {} : { seats: n }) };
}

export interface Section {
  id: string;
  spaceId: string;
  name: string;
  tableIds: string[];
  /** The waiter (a user's id) who serves these tables; null while nobody is assigned. */
  waiterId: string | null;
  version: number;
}

export interface SectionSetup {
  name: string;
  tableIds: string[];
  waiterId: string | null;
}

export type PlanEvent =
  | { type: 'TableMoved'; data: { tableId: string; column: number; row: number } }
  | { type: 'TableReshaped'; data: { tableId: string; shape: TableShape; seats: number } }
  | { type: 'SectionCreated'; data: { sectionId: string; spaceId: string } & SectionSetup }
  | { type: 'SectionChanged'; data: { sectionId: string } & SectionSetup }
  | { type: 'SectionRemoved'; data: { sectionId: string } };

export type SectionEvent = Extract<PlanEvent, { type: `Section${string}` }>;
export const SECTION_EVENTS: ReadonlyArray<SectionEvent['type']> = ['SectionCreated', 'SectionChanged', 'SectionRemoved'];

/** What the plan's rules need of the floor: its spaces, tables and sections. */
interface PlanTable { id: string; name: string; spaceId: string; column?: number; row?: number }
interface Plan {
  spaces: Record<string, { id: string; name: string }>;
  tables: Record<string, PlanTable>;
  sections: Record<string, Section>;
}

const isInteger = (value: unknown, min: number, max: number): boolean => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/** The cell must be on the grid and free in the table's space (the table itself may already stand there). */
export function placeErrors(column: number, row: number): FieldError[] {
  const errors: FieldError[] = [];
  if (!isInteger(column, 0, FLOOR_GRID.columns - 1)) errors.push({ field: 'column', message: `must be a whole number from 0 to ${FLOOR_GRID.columns - 1}` });
  if (!isInteger(row, 0, FLOOR_GRID.rows - 1)) errors.push({ field: 'row', message: `must be a whole number from 0 to ${FLOOR_GRID.rows - 1}` });
  return errors;
}

export function shapeErrors(shape: unknown, seats: unknown): FieldError[] {
  const errors: FieldError[] = [];
  if (!(TABLE_SHAPES as readonly unknown[]).includes(shape)) errors.push({ field: 'shape', message: `must be one of ${TABLE_SHAPES.join(', ')}` });
  if (!isInteger(seats, 1, MAX_SEATS)) errors.push({ field: 'seats', message: `must be a whole number from 1 to ${MAX_SEATS}` });
  return errors;
}

export function cellFree(plan: Plan, spaceId: string, column: number, row: number, except?: string): void {
  const holder = Object.values(plan.tables).find((t) => t.spaceId === spaceId && t.column === column && t.row === row && t.id !== except);
  if (holder) throw conflict(`Table ${holder.name} already stands at column ${column}, row ${row}: pick a free cell`, { table_id: holder.id });
}

export function decideMove(plan: Plan, tableId: string, column: number, row: number): PlanEvent[] {
  const t = plan.tables[tableId];
  if (!t) throw notFound();
  const errors = placeErrors(column, row);
  if (errors.length > 0) throw validationFailed(errors);
  if (t.column === column && t.row === row) return [];
  cellFree(plan, t.spaceId, column, row, t.id);
  return [{ type: 'TableMoved', data: { tableId, column, row } }];
}

export const sectionOf = (plan: Plan, tableId: string): Section | undefined => Object.values(plan.sections).find((s) => s.tableIds.includes(tableId));

/** A section that loses a table (removed, or moved to another space) says so in the same append. */
export function leaveSection(plan: Plan, tableId: string): PlanEvent[] {
  const s = sectionOf(plan, tableId);
  if (!s) return [];
  return [{ type: 'SectionChanged', data: { sectionId: s.id, name: s.name, tableIds: s.tableIds.filter((id) => id !== tableId), waiterId: s.waiterId } }];
}

function validSection(plan: Plan, spaceId: string, setup: SectionSetup, except?: string): SectionSetup {
  const errors: FieldError[] = [...nameErrors(setup.name)];
  const tableIds = [...new Set(setup.tableIds)];
  const strangers = tableIds.filter((id) => plan.tables[id]?.spaceId !== spaceId);
  if (strangers.length > 0) errors.push({ field: 'table_ids', message: `must name tables of this space (not ${strangers.join(', ')})` });
  if (errors.length > 0) throw validationFailed(errors);
  for (const id of tableIds) {
    const other = sectionOf(plan, id);
    if (other && other.id !== except) throw conflict(`Table ${plan.tables[id]!.name} is already in section ${other.name}: take it out there first`);
  }
  return { name: setup.name, tableIds, waiterId: setup.waiterId };
}

export type SectionCommand =
  | ({ type: 'createSection'; sectionId: string; spaceId: string } & SectionSetup)
  | ({ type: 'changeSection'; sectionId: string; ifMatch?: number } & SectionSetup)
  | { type: 'removeSection'; sectionId: string; ifMatch?: number };

export function decideSection(plan: Plan, command: SectionCommand): PlanEvent[] {
  if (command.type === 'createSection') {
    if (!plan.spaces[command.spaceId]) throw validationFailed([{ field: 'space_id', message: 'must reference an existing space' }]);
    if (plan.sections[command.sectionId]) throw conflict('This section already exists');
    const setup = validSection(plan, command.spaceId, command);
    return [{ type: 'SectionCreated', data: { sectionId: command.sectionId, spaceId: command.spaceId, ...setup } }];
  }
  const s = plan.sections[command.sectionId];
  if (!s) throw notFound();
  unchangedSince(s.version, command.ifMatch);
  if (command.type === 'removeSection') return [{ type: 'SectionRemoved', data: { sectionId: s.id } }];
  const setup = validSection(plan, s.spaceId, command, s.id);
  const same = setup.name === s.name && setup.waiterId === s.waiterId && setup.tableIds.join() === s.tableIds.join();
  return same ? [] : [{ type: 'SectionChanged', data: { sectionId: s.id, ...setup } }];
}

/** A section after one of its events: null once removed, undefined for one never created. */
export function sectionAfter(section: Section | undefined, event: SectionEvent): Section | null | undefined {
  if (event.type === 'SectionCreated') {
    const { sectionId, ...rest } = event.data;
    return { id: sectionId, ...rest, version: versionAfter(null) };
  }
  if (!section) return undefined;
  if (event.type === 'SectionRemoved') return null;
  const { sectionId: _id, ...setup } = event.data;
  return { ...section, ...setup, version: versionAfter(section) };
}
