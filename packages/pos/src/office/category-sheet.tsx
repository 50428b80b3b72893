import { useState } from 'preact/hooks';
import { accepted, direct, newKey, ok } from '../api.js';
import { Choice, EditSheet, type SheetProps } from './edit-sheet.js';
import type { Category, MenuBook } from './menu-book.js';
import { percent } from './tax-rate-sheet.js';

/**
 * A dish category added or changed: its name, the kitchen station and the tax rate its dishes have
 * unless they say otherwise, and its place on the menu (the order every tablet lists categories in).
 */
export function CategorySheet(props: { book: MenuBook; category: Category | null; onAdded: (id: string) => void } & SheetProps) {
  const { book, category: c } = props;
  const [name, setName] = useState(c?.name ?? '');
  const [stationId, setStationId] = useState(c?.station_id ?? null);
  const [taxRateId, setTaxRateId] = useState(c?.tax_rate_id ?? null);
  const [place, setPlace] = useState(String(c?.display_order ?? 0));
  const [key] = useState(newKey);
  const placed = /^\d{1,4}$/.test(place);
  const body = { name: name.trim(), station_id: stationId, tax_rate_id: taxRateId, display_order: placed ? Number(place) : 0 };
  const write = async () => {
    if (c) return ok(direct.PUT('/categories/{id}', { params: { path: { id: c.id } }, body, headers: props.version }));
    const added = await ok(direct.POST('/categories', { body, headers: { 'idempotency-key': key } }));
    // A 202 (recorded, not yet listed) names the new category in its location.
    const id = accepted(added) ? added.location?.split('/').pop() : added.id;
    if (id) props.onAdded(id);
  };
  const remove = c && (() => ok(direct.DELETE('/categories/{id}', { params: { path: { id: c.id } } })));
  return (
    <EditSheet id="category-sheet" title={c ? `Change ${c.name}` : 'New category'} sheet={props}
      canSave={!!name.trim() && placed} write={write} remove={remove}>
      <label>Name<input id="category-name" autocomplete="off" maxLength={100} placeholder="Starters" value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>
      <Choice label="Tax rate of its dishes" id="category-tax-rate" none="Untaxed" value={taxRateId} options={book.rates.map((r) => ({ id: r.id, name: `${r.name} ${percent(r.rate)}` }))} onChange={setTaxRateId} />
      <Choice label="Kitchen station" id="category-station" none="The default station" value={stationId} options={book.stations} onChange={setStationId} />
      <label>Place on the menu
        <input id="category-order" type="number" inputMode="numeric" min={0} max={9999} value={place} onInput={(e) => setPlace(e.currentTarget.value)} />
        <small class={placed ? 'muted' : 'error'}>{placed ? 'Lower first, as every tablet lists them; equal places by name' : 'A whole number from 0 to 9999'}</small>
      </label>
    </EditSheet>
  );
}
