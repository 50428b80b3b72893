import { type FieldError, conflict, notFound, validationFailed } from '../errors.js';
import { type Cents, MAX_AMOUNT_CENTS, showCents } from '../money.js';
import { nameErrors, sameName } from '../names.js';
import type { LineModifier } from '../order/lines.js';
import { unchangedSince, versionAfter } from '../versions.js';
import type { Dish, Menu, ModifierGroup, ModifierGroupDetails } from './menu-state.js';

/**
 * Modifier groups ("Salsa: choose 1", "Extras: up to 3") live in the menu stream beside the dishes
 * that carry them, so "a group a dish uses is not deleted" and "a dish names groups that exist" are
 * checked against the whole menu in one append.
 */
export type { ModifierGroup, ModifierGroupDetails, ModifierOption } from './menu-state.js';

/** At most this many options in one group: a waiter's screen shows them all. */
export const MAX_OPTIONS = 50;

export type ModifierGroupEvent =
  | { type: 'ModifierGroupCreated'; data: { groupId: string } & ModifierGroupDetails }
  | { type: 'ModifierGroupChanged'; data: { groupId: string } & ModifierGroupDetails }
  | { type: 'ModifierGroupRemoved'; data: { groupId: string } };

export type ModifierGroupCommand =
  | ({ type: 'createModifierGroup'; groupId: string } & ModifierGroupDetails)
  | ({ type: 'changeModifierGroup'; groupId: string; ifMatch?: number } & ModifierGroupDetails)
  | { type: 'removeModifierGroup'; groupId: string };

const whole = (v: number, min: number, max: number) => Number.isInteger(v) && v >= min && v <= max;

function detailErrors(d: ModifierGroupDetails): FieldError[] {
  const errors = nameErrors(d.name);
  if (!whole(d.minChoices, 0, MAX_OPTIONS)) errors.push({ field: 'min_choices', message: `must be a whole number from 0 to ${MAX_OPTIONS}` });
  if (!whole(d.maxChoices, 1, MAX_OPTIONS)) errors.push({ field: 'max_choices', message: `must be a whole number from 1 to ${MAX_OPTIONS}` });
  if (d.minChoices > d.maxChoices) errors.push({ field: 'min_choices', message: 'must be at most max_choices' });
  if (d.options.length < 1 || d.options.length > MAX_OPTIONS) errors.push({ field: 'options', message: `must hold 1 to ${MAX_OPTIONS} options` });
  else if (d.minChoices > d.options.length) errors.push({ field: 'min_choices', message: 'must be at most the number of options' });
  d.options.forEach((o, i) => {
    errors.push(...nameErrors(o.name, `options[${i}].name`));
    if (!whole(o.priceDeltaCents, -MAX_AMOUNT_CENTS, MAX_AMOUNT_CENTS)) errors.push({ field: `options[${i}].price_delta`, message: 'must be an amount with at most two decimals (below zero takes money off a portion)' });
    if (d.options.findIndex((x) => sameName(x.name, o.name)) < i) errors.push({ field: `options[${i}].name`, message: 'is already an option of this group' });
    if (d.options.findIndex((x) => x.id === o.id) < i) errors.push({ field: `options[${i}].id`, message: 'names the same option twice' });
  });
  return errors;
}

/** An option belongs to one group only, so a line's modifier names its group without doubt. */
function ownOptions(state: Menu, groupId: string, d: ModifierGroupDetails): FieldError[] {
  return d.options.flatMap((o, i) => {
    const other = Object.values(state.modifierGroups).find((g) => g.id !== groupId && g.options.some((x) => x.id === o.id));
    return other ? [{ field: `options[${i}].id`, message: `is an option of ${other.name}` }] : [];
  });
}

function nameFree(state: Menu, name: string, except?: string): void {
  const holder = Object.values(state.modifierGroups).find((g) => sameName(g.name, name));
  if (holder && holder.id !== except) throw conflict(`A modifier group named ${holder.name} already exists`);
}

const detailsOf = (c: ModifierGroupDetails): ModifierGroupDetails => ({ name: c.name, minChoices: c.minChoices, maxChoices: c.maxChoices, options: c.options });
const same = (a: ModifierGroupDetails, b: ModifierGroupDetails) => JSON.stringify(detailsOf(a)) === JSON.stringify(detailsOf(b));

/**
 * The least a line's choice from this group can add to a portion: its min_choices cheapest options,
 * then any further ones that take money off, up to max_choices. Below zero: what it can take off.
 */
export function cheapestChoice(g: Pick<ModifierGroupDetails, 'minChoices' | 'maxChoices' | 'options'>): Cents {
  const deltas = g.options.map((o) => o.priceDeltaCents).sort((a, b) => a - b);
  let sum = 0;
  deltas.forEach((delta, i) => {
    if (i < g.minChoices || (delta < 0 && i < g.maxChoices)) sum += delta;
  });
  return sum;
}

/**
 * Why a dish with these groups could be ordered for less than nothing ("sin queso −5.00" on a 4.00
 * dish), or null: the menu refuses any change (the dish's price or groups, a group's options) that
 * would let a waiter's allowed choice take a portion below zero. Lines already taken keep their prices.
 */
export function portionFloorError(dish: Pick<Dish, 'name' | 'price' | 'modifierGroupIds'>, groups: Readonly<Record<string, ModifierGroupDetails>>, field: string): FieldError | null {
  const carried = dish.modifierGroupIds.flatMap((id) => (groups[id] ? [groups[id]] : []));
  const off = carried.reduce((sum, g) => sum + cheapestChoice(g), 0);
  if (dish.price + off >= 0) return null;
  const names = carried.filter((g) => cheapestChoice(g) < 0).map((g) => g.name).join(', ');
  return { field, message: `${dish.name} at ${showCents(dish.price)} would come to less than nothing with ${names} (up to ${showCents(off)} a portion)` };
}

/** The dishes carrying a group that its new details would take below zero, as errors at `options`. */
function dishesKeptAboveZero(state: Menu, groupId: string, d: ModifierGroupDetails): FieldError[] {
  const groups = { ...state.modifierGroups, [groupId]: d };
  return dishesUsing(state, groupId).flatMap((dish) => portionFloorError(dish, groups, 'options') ?? []);
}

export const dishesUsing = (state: Menu, groupId: string) => Object.values(state.dishes).filter((d) => d.modifierGroupIds.includes(groupId));

export function decideModifierGroup(command: ModifierGroupCommand, state: Menu): ModifierGroupEvent[] {
  switch (command.type) {
    case 'createModifierGroup': {
      const errors = [...detailErrors(command), ...ownOptions(state, command.groupId, command)];
      if (errors.length) throw validationFailed(errors);
      if (state.modifierGroups[command.groupId]) throw conflict('This modifier group already exists');
      nameFree(state, command.name);
      return [{ type: 'ModifierGroupCreated', data: { groupId: command.groupId, ...detailsOf(command) } }];
    }
    case 'changeModifierGroup': {
      const g = state.modifierGroups[command.groupId];
      if (!g) throw notFound();
      unchangedSince(g.version, command.ifMatch);
      const errors = [...detailErrors(command), ...ownOptions(state, g.id, command)];
      if (errors.length) throw validationFailed(errors);
      const belowZero = dishesKeptAboveZero(state, g.id, command);
      if (belowZero.length) throw validationFailed(belowZero);
      nameFree(state, command.name, g.id);
      return same(command, g) ? [] : [{ type: 'ModifierGroupChanged', data: { groupId: g.id, ...detailsOf(command) } }];
    }
    case 'removeModifierGroup': {
      const g = state.modifierGroups[command.groupId];
      if (!g) throw notFound();
      const used = dishesUsing(state, g.id).length;
      if (used) throw conflict(`Modifier group ${g.name} is used by ${used} dish${used === 1 ? '' : 'es'}: take it off them first`, { dish_count: used });
      return [{ type: 'ModifierGroupRemoved', data: { groupId: g.id } }];
    }
  }
}

export function evolveModifierGroups(groups: Record<string, ModifierGroup>, event: ModifierGroupEvent): Record<string, ModifierGroup> {
  switch (event.type) {
    case 'ModifierGroupCreated':
    case 'ModifierGroupChanged': {
      const { groupId, ...details } = event.data;
      return { ...groups, [groupId]: { id: groupId, ...details, version: versionAfter(groups[groupId]) } };
    }
    case 'ModifierGroupRemoved': {
      const { [event.data.groupId]: _removed, ...rest } = groups;
      return rest;
    }
  }
}

/**
 * The modifiers a line carries, priced now (later menu changes never reprice the line): every option
 * must belong to a group the dish carries, once, and each of the dish's groups must be chosen from
 * min to max times. Errors name the group, at `<field>.modifiers`.
 */
export function chooseModifiers(state: Menu, dishId: string, optionIds: readonly string[], field: string): { modifiers: LineModifier[]; errors: FieldError[] } {
  const groups = (state.dishes[dishId]?.modifierGroupIds ?? []).flatMap((id) => (state.modifierGroups[id] ? [state.modifierGroups[id]] : []));
  const errors: FieldError[] = [];
  const modifiers: LineModifier[] = [];
  optionIds.forEach((optionId, i) => {
    const group = groups.find((g) => g.options.some((o) => o.id === optionId));
    if (!group) errors.push({ field: `${field}.modifiers[${i}]`, message: `${optionId} is not an option of a modifier group this dish carries` });
    else if (optionIds.indexOf(optionId) < i) errors.push({ field: `${field}.modifiers[${i}]`, message: `${optionId} is chosen twice` });
    else {
      const option = group.options.find((o) => o.id === optionId)!;
      modifiers.push({ groupId: group.id, optionId, name: option.name, priceDeltaCents: option.priceDeltaCents });
    }
  });
  for (const g of groups) {
    const count = modifiers.filter((m) => m.groupId === g.id).length;
    if (count < g.minChoices || count > g.maxChoices) {
      const range = g.minChoices === g.maxChoices ? `${g.minChoices}` : `${g.minChoices} to ${g.maxChoices}`;
      errors.push({ field: `${field}.modifiers`, message: `${g.name}: choose ${range} (chosen: ${count})` });
    }
  }
  return { modifiers, errors };
}
