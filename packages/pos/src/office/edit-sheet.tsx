import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Save } from './menu-book.js';

/**
 * What the editor gives each sheet: the runner of its writes, how they went, how to close it, and the
 * If-Match of the version the sheet shows (none for a new one): a save over another manager's is 412.
 */
export interface SheetProps { save: Save; busy: boolean; error: string; onClose: () => void; version?: { 'if-match'?: string } }

/**
 * The sheet every menu form opens in: its fields, the API's refusal as it said it, then Cancel,
 * Delete (asked twice: a deleted dish is gone from every tablet) and Save. Save runs `write`,
 * Delete `remove`; either closes the sheet once the API has said yes.
 */
export function EditSheet(props: {
  id: string; title: string; sheet: SheetProps; canSave: boolean;
  write: () => Promise<unknown>; remove?: (() => Promise<unknown>) | null; children: ComponentChildren;
  /** An action of its own beside Delete (a dish's Archive), run as a write that closes the sheet. */
  also?: { id: string; label: string; run: () => Promise<unknown> } | null;
}) {
  const { save, busy, error, onClose } = props.sheet;
  const { remove } = props;
  const [deleting, setDeleting] = useState(false);
  return (
    <div class="sheet-backdrop">
      <div class="sheet menu-sheet" id={props.id} role="dialog">
        <form onSubmit={(e) => { e.preventDefault(); if (props.canSave && !busy) void save(props.write, onClose); }}>
          <h3>{props.title}</h3>
          {props.children}
          {/* The refusal sits with the buttons, always in view however long the form (a save offline, a 409). */}
          <div class="sheet-foot">
          {error && <p class="error" role="alert">{error}</p>}
          <div class="actions">
            {props.also && <button type="button" class="secondary" id={props.also.id} disabled={busy} onClick={() => void save(props.also!.run, onClose)}>{props.also.label}</button>}
            {remove && (deleting
              ? <button type="button" class="danger delete-confirm" disabled={busy} onClick={() => void save(remove, onClose)}>Delete for good</button>
              : <button type="button" class="secondary delete" onClick={() => setDeleting(true)}>Delete…</button>)}
            <button type="button" class="secondary" onClick={onClose}>Cancel</button>
            <button type="submit" class="save" disabled={busy || !props.canSave}>Save</button>
          </div>
          </div>
        </form>
      </div>
    </div>
  );
}

/** Chips that each toggle one value in or out of a list (a dish's allergens, its modifier groups). */
export function Toggles<T extends string>(props: { name: string; values: readonly { value: T; label: string }[]; chosen: T[]; onChange: (chosen: T[]) => void }) {
  const flip = (v: T) => props.onChange(props.chosen.includes(v) ? props.chosen.filter((c) => c !== v) : [...props.chosen, v]);
  return (
    <fieldset class="toggles">
      <legend>{props.name}</legend>
      {props.values.length === 0 && <span class="muted">None yet</span>}
      {props.values.map((v) => (
        <button type="button" key={v.value} data-value={v.value} aria-pressed={props.chosen.includes(v.value)} class={props.chosen.includes(v.value) ? 'chip active' : 'chip'} onClick={() => flip(v.value)}>{v.label}</button>
      ))}
    </fieldset>
  );
}

/** A select of the menu's things by id, with a first choice meaning "none of them" (null). */
export function Choice(props: { label: string; id: string; none: string; value: string | null; options: { id: string; name: string }[]; onChange: (id: string | null) => void }) {
  return (
    <label>{props.label}
      <select id={props.id} value={props.value ?? ''} onChange={(e) => props.onChange(e.currentTarget.value || null)}>
        <option value="">{props.none}</option>
        {props.options.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
      </select>
    </label>
  );
}
