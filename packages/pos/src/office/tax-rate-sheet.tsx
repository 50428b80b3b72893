import { useState } from 'preact/hooks';
import { direct, newKey, ok } from '../api.js';
import { EditSheet, type SheetProps } from './edit-sheet.js';
import type { TaxRate } from './menu-book.js';

/** "10.125 %": a rate as the API keeps it, with the decimals it has and no more. */
export const percent = (rate: number) => `${rate.toLocaleString('en-US', { maximumFractionDigits: 4 })} %`;

/** A percent of 0 to 100 typed with up to three decimals (New York's 8.875, 10.125), or null. */
export function parseRate(text: string): number | null {
  if (!/^\d{1,3}(\.\d{1,3})?$/.test(text.trim())) return null;
  const rate = Number(text);
  return rate <= 100 ? rate : null;
}

/** A tax rate added or changed: a name and a percent. Bills already issued keep the rate they had. */
export function TaxRateSheet(props: { rate: TaxRate | null } & SheetProps) {
  const { rate: r } = props;
  const [name, setName] = useState(r?.name ?? '');
  const [rateText, setRateText] = useState(r ? String(r.rate) : '');
  const [key] = useState(newKey);
  const rate = parseRate(rateText);
  const body = { name: name.trim(), rate: rate ?? 0 };
  const write = () => (r
    ? ok(direct.PUT('/tax-rates/{id}', { params: { path: { id: r.id } }, body, headers: props.version }))
    : ok(direct.POST('/tax-rates', { body, headers: { 'idempotency-key': key } })));
  const remove = r && (() => ok(direct.DELETE('/tax-rates/{id}', { params: { path: { id: r.id } } })));
  return (
    <EditSheet id="tax-rate-sheet" title={r ? `Change ${r.name}` : 'New tax rate'} sheet={props}
      canSave={!!name.trim() && rate !== null} write={write} remove={remove}>
      <label>Name<input id="tax-rate-name" autocomplete="off" maxLength={100} placeholder="IVA" value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>
      <label>Rate (%)
        <input id="tax-rate-rate" inputMode="decimal" autocomplete="off" placeholder="16" value={rateText} onInput={(e) => setRateText(e.currentTarget.value)} />
        <small class={rate === null && rateText ? 'error' : 'muted'}>{rate === null ? 'A percent from 0 to 100, up to three decimals (10.125)' : percent(rate)}</small>
      </label>
    </EditSheet>
  );
}
