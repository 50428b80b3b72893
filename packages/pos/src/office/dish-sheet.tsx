import { useState } from 'preact/hooks';
import { direct, newKey, ok } from '../api.js';
import { money, parseAmount } from '../money.js';
import { Choice, EditSheet, type SheetProps, Toggles } from './edit-sheet.js';
import type { Dish, MenuBook } from './menu-book.js';
import { percent } from './tax-rate-sheet.js';

type Allergen = Dish['allergens'][number];
/** The EU's 14 as the API lists them; the type check below fails the build if the API's list changes. */
const ALLERGENS = ['gluten', 'crustaceans', 'eggs', 'fish', 'peanuts', 'soybeans', 'milk', 'nuts', 'celery', 'mustard', 'sesame', 'sulphites', 'lupin', 'molluscs'] as const satisfies readonly Allergen[];
const everyAllergen: Exclude<Allergen, (typeof ALLERGENS)[number]> extends never ? true : never = true;
void everyAllergen;

/**
 * A dish added or changed: name, price (typed as on the till, two decimals at most), category, tax
 * rate and kitchen station (each the category's unless chosen), description, modifier groups and allergens. A price
 * change is the API's audited write: it records who made it.
 */
export function DishSheet(props: { book: MenuBook; dish: Dish | null; categoryId: string } & SheetProps) {
  const { book, dish } = props;
  const [name, setName] = useState(dish?.name ?? '');
  const [priceText, setPriceText] = useState(dish ? String(dish.price) : '');
  const [categoryId, setCategoryId] = useState(dish?.category_id ?? props.categoryId);
  const [taxRateId, setTaxRateId] = useState(dish?.tax_rate_id ?? null);
  const [stationId, setStationId] = useState(dish?.station_id ?? null);
  const [allergens, setAllergens] = useState<Allergen[]>(dish?.allergens ?? []);
  const [groupIds, setGroupIds] = useState<string[]>(dish?.modifier_group_ids ?? []);
  const [description, setDescription] = useState(dish?.description ?? '');
  // One key for this dish's adding, whatever the retries: a second tap adds nothing more.
  const [key] = useState(newKey);
  const price = parseAmount(priceText);
  const category = book.categories.find((c) => c.id === categoryId);
  const categoryRate = book.rates.find((r) => r.id === category?.tax_rate_id);
  const categoryStation = book.stations.find((s) => s.id === category?.station_id);
  const body = {
    name: name.trim(), price: price ?? 0, category_id: categoryId, tax_rate_id: taxRateId, station_id: stationId,
    // In the API's order, as it answers them.
    allergens: ALLERGENS.filter((a) => allergens.includes(a)), modifier_group_ids: groupIds, description: description.trim(),
  };
  const write = () => (dish
    ? ok(direct.PUT('/dishes/{id}', { params: { path: { id: dish.id } }, body, headers: props.version }))
    : ok(direct.POST('/dishes', { body, headers: { 'idempotency-key': key } })));
  const remove = dish && (() => ok(direct.DELETE('/dishes/{id}', { params: { path: { id: dish.id } } })));
  // Archived, not deleted: off the waiters' menu, its name kept on old bills and in the reports; restored from the list apart.
  const archive = dish && { id: 'archive-dish', label: 'Archive', run: () => ok(direct.POST('/dishes/{id}/archive', { params: { path: { id: dish.id } }, headers: { 'idempotency-key': newKey(), ...props.version } })) };
  return (
    <EditSheet id="dish-sheet" title={dish ? `Change ${dish.name}` : 'New dish'} sheet={props}
      canSave={!!name.trim() && price !== null && !!categoryId} write={write} remove={remove} also={archive}>
      <label>Name<input id="dish-name" autocomplete="off" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} /></label>
      <label>Price
        <input id="dish-price" inputMode="decimal" autocomplete="off" placeholder="0.00" value={priceText} onInput={(e) => setPriceText(e.currentTarget.value)} />
        <small class={price === null && priceText ? 'error' : 'muted'}>{price === null ? (priceText ? 'A price like 120 or 95.50' : 'The menu price') : money(price)}</small>
      </label>
      <Choice label="Category" id="dish-category" none="Choose a category" value={categoryId || null} options={book.categories} onChange={(id) => setCategoryId(id ?? '')} />
      <div class="two">
        <Choice label="Tax rate" id="dish-tax-rate" none={`The category's (${categoryRate ? `${categoryRate.name} ${percent(categoryRate.rate)}` : 'untaxed'})`} value={taxRateId}
          options={book.rates.map((r) => ({ id: r.id, name: `${r.name} ${percent(r.rate)}` }))} onChange={setTaxRateId} />
        <Choice label="Kitchen station" id="dish-station" none={`The category's (${categoryStation?.name ?? 'default'})`} value={stationId} options={book.stations} onChange={setStationId} />
      </div>
      <label>Description<textarea id="dish-description" maxLength={500} rows={2} placeholder="What the guest gets: the waiter reads it out" value={description} onInput={(e) => setDescription(e.currentTarget.value)} /></label>
      <Toggles name="Modifier groups" values={book.groups.map((g) => ({ value: g.id, label: g.name }))} chosen={groupIds} onChange={setGroupIds} />
      <Toggles name="Allergens" values={ALLERGENS.map((a) => ({ value: a, label: a }))} chosen={allergens} onChange={setAllergens} />
    </EditSheet>
  );
}
