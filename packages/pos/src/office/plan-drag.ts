import { useRef, useState } from 'preact/hooks';
import { GRID } from '../plan-grid.js';

export interface Cell { column: number; row: number }

/** The grid's cell under a point, or null outside the grid. */
function cellAt(grid: HTMLElement, x: number, y: number): Cell | null {
  const box = grid.getBoundingClientRect();
  const rows = Number(grid.dataset.rows);
  if (x < box.left || x >= box.right || y < box.top || y >= box.bottom) return null;
  return { column: Math.floor(((x - box.left) / box.width) * GRID.columns), row: Math.floor(((y - box.top) / box.height) * rows) };
}

/**
 * Dragging a table with the pointer (mouse, pen or finger alike): the tile follows the pointer, the
 * cell under it lights up, and on release `onDrop` gets that cell. Released outside the grid, or
 * refused by the API, the tile is simply drawn at its stored cell again: it snaps back. A press that
 * hardly moved is a tap (`tapped` says so to the click that follows).
 */
export function usePlanDrag(onDrop: (tableId: string, cell: Cell) => void) {
  const grid = useRef<HTMLDivElement | null>(null);
  const [target, setTarget] = useState<Cell | null>(null);
  const drag = useRef<{ id: string; x: number; y: number; moved: boolean; el: HTMLElement } | null>(null);
  const wasDrag = useRef(false);

  const handlers = (tableId: string) => ({
    onPointerDown(e: PointerEvent) {
      if (e.button !== 0) return;
      const el = e.currentTarget as HTMLElement;
      el.setPointerCapture(e.pointerId);
      drag.current = { id: tableId, x: e.clientX, y: e.clientY, moved: false, el };
      wasDrag.current = false;
    },
    onPointerMove(e: PointerEvent) {
      const d = drag.current;
      if (!d) return;
      const [dx, dy] = [e.clientX - d.x, e.clientY - d.y];
      if (!d.moved && Math.hypot(dx, dy) < 6) return;
      d.moved = true;
      d.el.classList.add('dragging');
      d.el.style.transform = `translate(${dx}px, ${dy}px)`;
      setTarget(grid.current ? cellAt(grid.current, e.clientX, e.clientY) : null);
    },
    onPointerUp(e: PointerEvent) {
      const d = drag.current;
      drag.current = null;
      if (!d) return;
      d.el.classList.remove('dragging');
      d.el.style.transform = '';
      setTarget(null);
      wasDrag.current = d.moved;
      const cell = d.moved && grid.current ? cellAt(grid.current, e.clientX, e.clientY) : null;
      if (cell) onDrop(d.id, cell);
    },
    onPointerCancel() {
      const d = drag.current;
      drag.current = null;
      if (d) (d.el.classList.remove('dragging'), (d.el.style.transform = ''));
      setTarget(null);
    },
  });
  /** Whether the click now arriving ends a drag (then it opens nothing). */
  const tapped = () => !wasDrag.current;
  return { grid, target, handlers, tapped };
}

/** The cell an arrow key moves to from `from`, kept on the grid. */
export function stepped(from: Cell, key: string): Cell | null {
  const step: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const s = step[key];
  if (!s) return null;
  const next = { column: from.column + s[0], row: from.row + s[1] };
  return next.column < 0 || next.row < 0 || next.column >= GRID.columns || next.row >= GRID.rows ? null : next;
}
