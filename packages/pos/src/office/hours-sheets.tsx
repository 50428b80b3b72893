import { useState } from 'preact/hooks';
import type { paths } from '@comanda/client';
import { direct, newKey, ok } from '../api.js';
import { money } from '../money.js';
import { EditSheet, type SheetProps } from './edit-sheet.js';
import type { Listed } from '../menu.js';
import type { Dish } from './menu-book.js';

export type PriceLevel = Listed<'/price-levels'>[number];
type Window = paths['/price-levels']['post']['requestBody']['content']['application/json']['windows'][number];
type Day = Window['days'][number];
const DAYS: { day: Day; label: string }[] = [
  { day: 'mon', label: 'Mon' }, { day: 'tue', label: 'Tue' }, { day: 'wed', label: 'Wed' }, { day: 'thu', label: 'Thu' },
  { day: 'fri', label: 'Fri' }, { day: 'sat', label: 'Sat' }, { day: 'sun', label: 'Sun' },
];
const WEEKDAYS: Day[] = ['mon', 'tue', 'wed', 'thu', 'fri'];
const complete = (w: Window) => w.days.length > 0 && /^\d\d:\d\d$/.test(w.from) && /^\d\d:\d\d$/.test(w.to) && w.from !== w.to;

/**
 * Windows of days and from–to times, restaurant time; a `to` before `from` runs past midnight
 * (22:00–02:00). Day chips and time fields, each at least 44 px for a finger.
 */
function HoursEditor(props: { windows: Window[]; onChange: (windows: Window[]) => void; first: Window }) {
  const set = (i: number, w: Window) => props.onChange(props.windows.map((x, j) => (j === i ? w : x)));
  return (
    <fieldset class="hours-editor">
      <legend>Hours (restaurant time; a window ending before it starts runs past midnight)</legend>
      {props.windows.map((w, i) => (
        <div class="hours-window" key={i} data-window={i}>
          <span class="day-chips">
            {DAYS.map((d) => (
              <button type="button" key={d.day} data-day={d.day} aria-pressed={w.days.includes(d.day)} class={w.days.includes(d.day) ? 'chip active' : 'chip'}
                onClick={() => set(i, { ...w, days: w.days.includes(d.day) ? w.days.filter((x) => x !== d.day) : [...w.days, d.day] })}>{d.label}</button>
            ))}
          </span>
          <label>From<input type="time" class="hours-from" value={w.from} onInput={(e) => set(i, { ...w, from: e.currentTarget.value })} /></label>
          <label>To<input type="time" class="hours-to" value={w.to} onInput={(e) => set(i, { ...w, to: e.currentTarget.value })} /></label>
          <button type="button" class="secondary remove-window" onClick={() => props.onChange(props.windows.filter((_, j) => j !== i))}>Remove</button>
        </div>
      ))}
      <button type="button" class="secondary add-window" onClick={() => props.onChange([...props.windows, props.first])}>+ Window</button>
    </fieldset>
  );
}

/** When a dish or a category is served: no window, always (breakfast: Mon–Fri 07:00–11:30). */
export function HoursSheet(props: { what: 'dish' | 'category'; id: string; name: string; windows: Window[] } & SheetProps) {
  const [windows, setWindows] = useState<Window[]>(props.windows);
  const [key] = useState(newKey);
  const write = () => {
    const request = { params: { path: { id: props.id } }, body: { windows }, headers: { ...props.version, 'idempotency-key': key } };
    return ok(props.what === 'dish' ? direct.PUT('/dishes/{id}/availability', request) : direct.PUT('/categories/{id}/availability', request));
  };
  return (
    <EditSheet id="hours-sheet" title={`When ${props.name} is served`} sheet={props} canSave={windows.every(complete)} write={write}>
      <HoursEditor windows={windows} onChange={setWindows} first={{ days: [...WEEKDAYS], from: '12:00', to: '16:00' }} />
      {windows.length === 0 && <p class="muted">No hours: served whenever the restaurant is open{props.what === 'dish' ? ' (and its category is)' : ''}.</p>}
    </EditSheet>
  );
}

/** A price level (happy hour): a name, its hours, and a price for each dish it changes; others keep the menu's. */
export function PriceLevelSheet(props: { level: PriceLevel | null; dishes: Dish[] } & SheetProps) {
  const { level: l } = props;
  const [name, setName] = useState(l?.name ?? '');
  const [windows, setWindows] = useState<Window[]>(l?.windows ?? [{ days: [...WEEKDAYS], from: '17:00', to: '19:00' }]);
  const [prices, setPrices] = useState<Record<string, string>>(Object.fromEntries((l?.prices ?? []).map((p) => [p.dish_id, p.price.toFixed(2)])));
  const [key] = useState(newKey);
  const priced = Object.entries(prices).filter(([, text]) => text.trim() !== '');
  const valid = priced.every(([, text]) => /^\d{1,7}(\.\d{1,2})?$/.test(text.trim()) && Number(text) > 0);
  const body = { name: name.trim(), windows, prices: priced.map(([dish_id, text]) => ({ dish_id, price: Number(text) })) };
  const write = () => (l
    ? ok(direct.PUT('/price-levels/{id}', { params: { path: { id: l.id } }, body, headers: { ...props.version, 'idempotency-key': key } }))
    : ok(direct.POST('/price-levels', { body, headers: { 'idempotency-key': key } })));
  const remove = l && (() => ok(direct.DELETE('/price-levels/{id}', { params: { path: { id: l.id } } })));
  return (
    <EditSheet id="price-level-sheet" title={l ? `Change ${l.name}` : 'New price level'} sheet={props} write={write} remove={remove}
      canSave={!!name.trim() && windows.length > 0 && windows.every(complete) && valid}>
      <label>Name<input id="price-level-name" autocomplete="off" maxLength={100} placeholder="Happy hour" value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>
      <HoursEditor windows={windows} onChange={setWindows} first={{ days: [...WEEKDAYS], from: '17:00', to: '19:00' }} />
      <fieldset class="level-prices">
        <legend>Prices in these hours (empty: the menu's price)</legend>
        {props.dishes.map((d) => (
          <label key={d.id} class="level-price" data-level-dish={d.id}>
            <span>{d.name} <small class="muted">{money(d.price)}</small></span>
            <input inputMode="decimal" autocomplete="off" placeholder={d.price.toFixed(2)} value={prices[d.id] ?? ''} onInput={(e) => setPrices({ ...prices, [d.id]: e.currentTarget.value })} />
          </label>
        ))}
      </fieldset>
      {!valid && <small class="error">A price is an amount above 0 with at most two decimals.</small>}
    </EditSheet>
  );
}
