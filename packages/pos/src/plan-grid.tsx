import type { ComponentChildren } from 'preact';
import type { Listed } from './menu.js';
import type { Table } from './menu.js';
import './plan.css';

export type Section = Listed<'/sections'>[number];
export type Shape = NonNullable<Table['shape']>;

/** Every space's grid, as the API checks it (FLOOR_GRID in the domain: 12 columns by 8 rows, 0-based). */
export const GRID = { columns: 12, rows: 8 } as const;
export const SHAPES: ReadonlyArray<{ value: Shape; label: string }> = [
  { value: 'square', label: 'Square' }, { value: 'round', label: 'Round' }, { value: 'rectangle', label: 'Rectangle' },
];

export const placed = (t: Table): t is Table & { column: number; row: number } => t.column !== undefined && t.row !== undefined;

/** A tile's cell, set through the DOM's style object (the page's CSP allows no style attribute). */
export const cellStyle = (column: number, row: number) => ({ gridColumn: `${column + 1}`, gridRow: `${row + 1}` });

/** "4 seats", or nothing for a table whose seats were never told. */
export const seatsLabel = (t: Table): string => (t.seats === undefined ? '' : `${t.seats} seat${t.seats === 1 ? '' : 's'}`);

/**
 * The plan of one space: a grid of `rows` rows (all of them while drawing; on the waiters' floor only
 * down to the last row used), its tables placed by the caller with `cellStyle`.
 */
export function PlanGrid(props: { rows: number; class?: string; children: ComponentChildren; gridRef?: (el: HTMLDivElement | null) => void }) {
  return (
    <div class={`plan-grid ${props.class ?? ''}`} ref={props.gridRef} data-rows={props.rows} style={{ gridTemplateRows: `repeat(${props.rows}, var(--plan-row))` }}>
      {props.children}
    </div>
  );
}
