import { FLOOR_GRID, MAX_SEATS, TABLE_SHAPES, type TableShape, validationFailed } from '@comanda/domain';
import { Type } from 'typebox';

const column = Type.Integer({ minimum: 0, maximum: FLOOR_GRID.columns - 1, description: `The grid's column, 0 (left) to ${FLOOR_GRID.columns - 1}` });
const row = Type.Integer({ minimum: 0, maximum: FLOOR_GRID.rows - 1, description: `The grid's row, 0 (top) to ${FLOOR_GRID.rows - 1}` });
const shape = Type.Enum([...TABLE_SHAPES], { description: 'square, round or rectangle' });
const seats = Type.Integer({ minimum: 1, maximum: MAX_SEATS, description: 'How many guests the table seats' });

/** A cell of a space's grid (every space: 12 columns by 8 rows), and a table's look: required in their own writes, optional elsewhere. */
export const Cell = { required: { column, row }, optional: { column: Type.Optional(column), row: Type.Optional(row) } };
export const Look = { required: { shape, seats }, optional: { shape: Type.Optional(shape), seats: Type.Optional(seats) } };

/** The cell and the look a new table is given: each pair whole or absent (one half alone is a 400). */
export function planOf(body: { column?: number; row?: number; shape?: TableShape; seats?: number }) {
  const halves = [['column', 'row'], ['shape', 'seats']] as const;
  const errors = halves.flatMap(([a, b]) => ((body[a] === undefined) === (body[b] === undefined) ? [] : [{ field: body[a] === undefined ? a : b, message: `must be given with ${body[a] === undefined ? b : a}` }]));
  if (errors.length > 0) throw validationFailed(errors);
  return {
    ...(body.column !== undefined && body.row !== undefined ? { place: { column: body.column, row: body.row } } : {}),
    ...(body.shape !== undefined && body.seats !== undefined ? { look: { shape: body.shape, seats: body.seats } } : {}),
  };
}
