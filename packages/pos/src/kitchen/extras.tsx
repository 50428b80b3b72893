import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { KitchenTicket } from './feed.js';
import { tableLabel } from './cards.js';

// What a line cook expects around the board: undo for a bump, the recall list, all-day counts.

export type Undo = ReturnType<typeof useUndo>;

/**
 * "Bumped T7 · Undo" for a few seconds after a bump; undo recalls the ticket. Held above the board, so
 * it stays while the cook switches station.
 */
export function useUndo(seconds: number) {
  const [shown, setShown] = useState<{ id: string; label: string } | null>(null);
  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => setShown(null), seconds * 1000);
    return () => clearTimeout(timer);
  }, [shown]);
  return { shown, show: (id: string, label: string) => setShown({ id, label }), hide: () => setShown(null) };
}

export function UndoBar(props: { label: string; onUndo: () => void }) {
  return (
    <div id="undo" role="status">
      <span id="undo-text">Bumped {props.label}</span>
      <button id="undo-button" type="button" onClick={props.onUndo}>Undo</button>
    </div>
  );
}

/**
 * The last bumped tickets (most recent first); tapping one recalls it. The list follows the screen's
 * feed while it is open: a bump the server confirms after it opened (the cook bumped and tapped Recall
 * at once) joins it, and the buttons under a cook's finger stay the same ones (keyed).
 */
export function RecallDialog(props: { bumped: KitchenTicket[]; onRecall: (button: HTMLButtonElement, id: string) => Promise<boolean>; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const at = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const recall = async (event: MouseEvent, id: string) => {
    if (await props.onRecall(event.currentTarget as HTMLButtonElement, id)) props.onClose();
  };
  return (
    <dialog id="recalls" aria-label="Recall a bumped ticket" ref={dialog} onClose={props.onClose}>
      <h2>Recall a bumped ticket</h2>
      <div id="recall-list">
        {props.bumped.map((t) => (
          <button key={t.id} type="button" class="recall-item" data-ticket-id={t.id} onClick={(e) => void recall(e, t.id)}>
            {`${tableLabel(t)} · ${t.waiter} · ${at(t.bumped_at!)} · ${t.lines.map((l) => l.dish_name).join(', ')}`}
          </button>
        ))}
      </div>
      <button id="recall-close" type="button" onClick={props.onClose}>Close</button>
    </dialog>
  );
}

/** Open items per dish on the station's board, most first: what to have going all day. */
export function AllDay(props: { tickets: readonly KitchenTicket[] }) {
  const sorted = useMemo(() => {
    const counts = new Map<string, number>();
    for (const t of props.tickets) {
      for (const l of t.lines) {
        if (l.kitchen_status === 'done' || l.kitchen_status === 'cancelled') continue;
        counts.set(l.dish_name, (counts.get(l.dish_name) ?? 0) + 1);
      }
    }
    return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  }, [props.tickets]);
  if (sorted.length === 0) return null;
  return (
    <div id="allday" aria-label="All day: open items per dish">
      {sorted.map(([name, n]) => <span key={name} class="allday-item"><b>{n}</b> {name}</span>)}
    </div>
  );
}
