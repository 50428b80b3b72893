import { type FieldError, validationFailed } from '../errors.js';
import { nameErrors } from '../names.js';
import { allergenErrors, allergenSet } from './allergens.js';
import { portionFloorError } from './modifier-groups.js';
import { taxRateErrors } from './tax-rates.js';
import type { Dish, DishDetails, Menu } from './menu-state.js';

export function stationErrors(state: Menu, stationId: string | null | undefined): FieldError[] {
  return stationId && !state.stations[stationId] ? [{ field: 'station_id', message: 'must reference an existing kitchen station' }] : [];
}

function groupErrors(state: Menu, groupIds: readonly string[] | undefined): FieldError[] {
  const unknown = (groupIds ?? []).filter((id) => !state.modifierGroups[id]);
  const twice = (groupIds ?? []).filter((id, i) => groupIds!.indexOf(id) < i);
  return [
    ...(unknown.length ? [{ field: 'modifier_group_ids', message: `must name existing modifier groups: ${unknown.join(', ')}` }] : []),
    ...(twice.length ? [{ field: 'modifier_group_ids', message: `names a group twice: ${twice.join(', ')}` }] : []),
  ];
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export type ValidDish = DishDetails & { stationId: string | null; modifierGroupIds: string[]; allergens: string[]; taxRateId: string | null; description: string };

/** A guest reads a description on a menu: a few sentences, not a document. */
export const DESCRIPTION_MAX = 500;
const descriptionErrors = (description: string | undefined): FieldError[] =>
  (description ?? '').trim().length > DESCRIPTION_MAX ? [{ field: 'description', message: `must be at most ${DESCRIPTION_MAX} characters` }] : [];

/**
 * A dish as the menu keeps it, or every reason it cannot be. Station, modifier groups, allergens and
 * tax rate left out of a change keep the dish's current ones (a seed client's PUT names none of them).
 */
export function validDish(state: Menu, details: DishDetails, current?: Dish): ValidDish {
  const errors: FieldError[] = [
    ...nameErrors(details.name), ...stationErrors(state, details.stationId), ...groupErrors(state, details.modifierGroupIds), ...allergenErrors(details.allergens),
    ...taxRateErrors(state, details.taxRateId), ...descriptionErrors(details.description),
  ];
  if (!Number.isSafeInteger(details.price) || details.price <= 0) {
    errors.push({ field: 'price', message: 'must be a positive amount with at most two decimals' });
  }
  if (!state.categories[details.categoryId]) {
    errors.push({ field: 'category_id', message: 'must reference an existing dish category' });
  }
  if (errors.length > 0) throw validationFailed(errors);
  const stationId = details.stationId === undefined ? (current?.stationId ?? null) : details.stationId;
  const modifierGroupIds = details.modifierGroupIds ?? current?.modifierGroupIds ?? [];
  const allergens = details.allergens === undefined ? (current?.allergens ?? []) : allergenSet(details.allergens);
  const taxRateId = details.taxRateId === undefined ? (current?.taxRateId ?? null) : details.taxRateId;
  const description = details.description === undefined ? (current?.description ?? '') : details.description.trim();
  // The field to blame: the groups when they are what changed, else the price.
  const groupsChanged = !current || !sameList(modifierGroupIds, current.modifierGroupIds);
  const belowZero = portionFloorError({ name: details.name, price: details.price, modifierGroupIds }, state.modifierGroups, groupsChanged ? 'modifier_group_ids' : 'price');
  if (belowZero) throw validationFailed([belowZero]);
  return { name: details.name, price: details.price, categoryId: details.categoryId, stationId, modifierGroupIds, allergens, taxRateId, description };
}

/**
 * Event payload: a dish routed by its category carries no stationId, a dish without modifier groups
 * or allergens carries neither field, one without a description none: the events a seed request writes are the ones it always wrote.
 */
export const dishData = ({ stationId, modifierGroupIds, allergens, taxRateId, description, ...rest }: ValidDish): DishDetails => ({
  ...rest, ...(stationId ? { stationId } : {}), ...(modifierGroupIds.length ? { modifierGroupIds } : {}), ...(allergens.length ? { allergens } : {}),
  ...(taxRateId ? { taxRateId } : {}), ...(description ? { description } : {}),
});

export const sameDetails = (a: ValidDish, b: Dish) =>
  a.name === b.name && a.price === b.price && a.categoryId === b.categoryId && a.stationId === b.stationId
  && sameList(a.modifierGroupIds, b.modifierGroupIds) && sameList(a.allergens, b.allergens) && a.taxRateId === b.taxRateId && a.description === b.description;
