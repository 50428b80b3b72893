import { useState } from 'preact/hooks';
import { direct, newKey, ok } from '../api.js';
import { money, parseSignedAmount } from '../money.js';
import { EditSheet, type SheetProps } from './edit-sheet.js';
import type { ModifierGroup } from './menu-book.js';

/** An option as typed: its id when it is kept from the group as it was, its delta as text. */
interface Draft { id?: string; name: string; delta: string }

/** "+1.50", "−5.00", "no charge": what an option adds to a portion. */
export const deltaNote = (delta: number) => (delta === 0 ? 'no charge' : `${delta > 0 ? '+' : '−'}${money(Math.abs(delta))}`);

/**
 * A modifier group added or changed: its name, how many options a line must and may choose, and the
 * options with what each adds to (or, below zero, takes off) a portion. Lines already taken keep
 * their modifiers as they were priced (the API's rule).
 */
export function GroupSheet(props: { group: ModifierGroup | null } & SheetProps) {
  const { group: g } = props;
  const [name, setName] = useState(g?.name ?? '');
  const [min, setMin] = useState(String(g?.min_choices ?? 0));
  const [max, setMax] = useState(String(g?.max_choices ?? 1));
  const [options, setOptions] = useState<Draft[]>(g?.options.map((o) => ({ id: o.id, name: o.name, delta: String(o.price_delta) })) ?? [{ name: '', delta: '0' }]);
  const [key] = useState(newKey);
  const change = (i: number, part: Partial<Draft>) => setOptions(options.map((o, j) => (j === i ? { ...o, ...part } : o)));
  const deltas = options.map((o) => parseSignedAmount(o.delta.trim()));
  const body = {
    name: name.trim(), min_choices: Number(min), max_choices: Number(max),
    options: options.map((o, i) => ({ ...(o.id ? { id: o.id } : {}), name: o.name.trim(), price_delta: deltas[i] ?? 0 })),
  };
  const whole = (n: number) => Number.isInteger(n) && n >= 0;
  const canSave = !!name.trim() && min !== '' && max !== '' && whole(body.min_choices) && whole(body.max_choices) && options.length > 0
    && options.every((o, i) => o.name.trim() && deltas[i] !== null);
  const write = () => (g
    ? ok(direct.PUT('/modifier-groups/{id}', { params: { path: { id: g.id } }, body, headers: props.version }))
    : ok(direct.POST('/modifier-groups', { body, headers: { 'idempotency-key': key } })));
  const remove = g && (() => ok(direct.DELETE('/modifier-groups/{id}', { params: { path: { id: g.id } } })));
  return (
    <EditSheet id="group-sheet" title={g ? `Change ${g.name}` : 'New modifier group'} sheet={props}
      canSave={canSave} write={write} remove={remove}>
      <label>Name<input id="group-name" autocomplete="off" maxLength={100} placeholder="Extras, Salsa, Cooking" value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>
      <div class="two">
        <label>Must choose at least<input id="group-min" type="number" inputMode="numeric" min={0} value={min} onInput={(e) => setMin(e.currentTarget.value)} /></label>
        <label>May choose at most<input id="group-max" type="number" inputMode="numeric" min={1} value={max} onInput={(e) => setMax(e.currentTarget.value)} /></label>
      </div>
      <fieldset class="group-options">
        <legend>Options and what each adds to the price</legend>
        {options.map((o, i) => (
          <div class="group-option" key={o.id ?? `new-${i}`} data-option={i}>
            <input class="option-name" aria-label="Option" autocomplete="off" maxLength={100} placeholder="Option" value={o.name} onInput={(e) => change(i, { name: e.currentTarget.value })} />
            <input class="option-delta" aria-label={`Price change of ${o.name || 'the option'}`} inputMode="decimal" autocomplete="off" value={o.delta} onInput={(e) => change(i, { delta: e.currentTarget.value })} />
            <small class={deltas[i] === null ? 'error' : 'muted'}>{deltas[i] === null ? 'like 1.50 or -5' : deltaNote(deltas[i]!)}</small>
            <button type="button" class="secondary" aria-label={`Take ${o.name || 'the option'} off`} disabled={options.length === 1} onClick={() => setOptions(options.filter((_, j) => j !== i))}>✕</button>
          </div>
        ))}
        <button type="button" class="secondary" id="add-option" onClick={() => setOptions([...options, { name: '', delta: '0' }])}>+ Option</button>
      </fieldset>
    </EditSheet>
  );
}
