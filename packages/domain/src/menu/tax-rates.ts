import { type FieldError, conflict, notFound, validationFailed } from '../errors.js';
import { nameErrors, sameName } from '../names.js';
import { unchangedSince, versionAfter } from '../versions.js';
import type { Menu, TaxRate, TaxRateDetails } from './menu-state.js';

/**
 * Tax rates ("IVA 16 %", "Reduced 8 %", New York City's "8.875 %") live in the menu stream, beside the
 * categories and dishes that name them, so "a rate in use is not removed" is checked against the whole
 * menu in one append. A rate is kept in parts per million (16 % = 160,000; 8.875 % = 88,750): a
 * percent with up to four decimals, exact, as money is in cents.
 */
export type { TaxRate, TaxRateDetails } from './menu-state.js';

/**
 * A rate as an event carries it. Events written before issue 57 carry basis points (`rateBp`,
 * hundredths of a percent): they are read as they were, never rewritten.
 */
export type StoredRate = { ratePpm: number } | { rateBp: number };

/** The rate in parts per million, whichever way the event wrote it. */
export const ratePpmOf = (r: StoredRate): number => ('ratePpm' in r ? r.ratePpm : r.rateBp * 100);

/** 100 %, the most a rate may be. */
export const MAX_RATE_PPM = 1_000_000;

/** Parts per million in one percent: a rate's percent is `ratePpm / PPM_PER_PERCENT`. */
export const PPM_PER_PERCENT = 10_000;

/** A percent as a reader sees it (88,750 → 8.875). */
export const percentOf = (ratePpm: number): number => ratePpm / PPM_PER_PERCENT;

/**
 * The rate in parts per million for a percent with at most four decimals, or null when it has more
 * (or is not a finite number). As with cents, the percent must be the double nearest to a whole
 * number of millionths, with a few units in the last place of slack (0.1 + 0.2).
 */
export function ratePpmOfPercent(percent: number): number | null {
  if (typeof percent !== 'number' || !Number.isFinite(percent)) return null;
  const ppm = Math.round(percent * PPM_PER_PERCENT);
  if (Math.abs(ppm / PPM_PER_PERCENT - percent) > 4 * Number.EPSILON * Math.max(1, Math.abs(percent))) return null;
  return ppm;
}

export const RATE_RULE = 'must be a percent from 0 to 100 with at most four decimals';

type RateData = { taxRateId: string; name: string } & StoredRate;

export type TaxRateEvent =
  | { type: 'TaxRateCreated'; data: RateData }
  | { type: 'TaxRateChanged'; data: RateData }
  | { type: 'TaxRateRemoved'; data: { taxRateId: string } };

export type TaxRateCommand =
  | ({ type: 'createTaxRate'; taxRateId: string } & TaxRateDetails)
  | ({ type: 'changeTaxRate'; taxRateId: string; ifMatch?: number } & TaxRateDetails)
  | { type: 'removeTaxRate'; taxRateId: string };

function detailErrors(d: TaxRateDetails): FieldError[] {
  const errors = nameErrors(d.name);
  if (!Number.isInteger(d.ratePpm) || d.ratePpm < 0 || d.ratePpm > MAX_RATE_PPM) errors.push({ field: 'rate', message: RATE_RULE });
  return errors;
}

function nameFree(state: Menu, name: string, except?: string): void {
  const holder = Object.values(state.taxRates).find((r) => sameName(r.name, name));
  if (holder && holder.id !== except) throw conflict(`A tax rate named ${holder.name} already exists`);
}

/** A rate's users: the categories and dishes that name it. */
export function taxRateUse(state: Menu, taxRateId: string): { categories: number; dishes: number } {
  return {
    categories: Object.values(state.categories).filter((c) => c.taxRateId === taxRateId).length,
    dishes: Object.values(state.dishes).filter((d) => d.taxRateId === taxRateId).length,
  };
}

/** The rate a dish is taxed at: its own, else its category's; null: not taxed (or not on the menu any more). */
export function taxRateOf(state: Menu, dishId: string): TaxRate | null {
  const d = state.dishes[dishId];
  const id = d?.taxRateId ?? (d ? state.categories[d.categoryId]?.taxRateId : null) ?? null;
  return id ? (state.taxRates[id] ?? null) : null;
}

export function taxRateErrors(state: Menu, taxRateId: string | null | undefined): FieldError[] {
  return taxRateId && !state.taxRates[taxRateId] ? [{ field: 'tax_rate_id', message: 'must reference an existing tax rate' }] : [];
}

export function decideTaxRate(command: TaxRateCommand, state: Menu): TaxRateEvent[] {
  switch (command.type) {
    case 'createTaxRate': {
      const errors = detailErrors(command);
      if (errors.length) throw validationFailed(errors);
      if (state.taxRates[command.taxRateId]) throw conflict('This tax rate already exists');
      nameFree(state, command.name);
      return [{ type: 'TaxRateCreated', data: { taxRateId: command.taxRateId, name: command.name, ratePpm: command.ratePpm } }];
    }
    case 'changeTaxRate': {
      const r = state.taxRates[command.taxRateId];
      if (!r) throw notFound();
      unchangedSince(r.version, command.ifMatch);
      const errors = detailErrors(command);
      if (errors.length) throw validationFailed(errors);
      nameFree(state, command.name, r.id);
      if (r.name === command.name && r.ratePpm === command.ratePpm) return [];
      return [{ type: 'TaxRateChanged', data: { taxRateId: r.id, name: command.name, ratePpm: command.ratePpm } }];
    }
    case 'removeTaxRate': {
      const r = state.taxRates[command.taxRateId];
      if (!r) throw notFound();
      const use = taxRateUse(state, r.id);
      if (use.categories + use.dishes > 0) {
        throw conflict(`Tax rate ${r.name} is used by ${use.categories} dish categories and ${use.dishes} dishes: give them another rate first`, {
          category_count: use.categories, dish_count: use.dishes,
        });
      }
      return [{ type: 'TaxRateRemoved', data: { taxRateId: r.id } }];
    }
  }
}

export function evolveTaxRates(rates: Record<string, TaxRate>, event: TaxRateEvent): Record<string, TaxRate> {
  switch (event.type) {
    case 'TaxRateCreated':
    case 'TaxRateChanged': {
      const { taxRateId, name } = event.data;
      return { ...rates, [taxRateId]: { id: taxRateId, name, ratePpm: ratePpmOf(event.data), version: versionAfter(rates[taxRateId]) } };
    }
    case 'TaxRateRemoved': {
      const { [event.data.taxRateId]: _removed, ...rest } = rates;
      return rest;
    }
  }
}
