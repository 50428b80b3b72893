import { type FieldError, conflict, notFound, validationFailed } from '../errors.js';
import { nameErrors, sameName } from '../names.js';
import { unchangedSince, versionAfter } from '../versions.js';
import type { Menu } from './menu.js';

/**
 * Tax rates ("IVA 16 %", "Reduced 8 %") live in the menu stream, beside the categories and dishes
 * that name them, so "a rate in use is not removed" is checked against the whole menu in one append.
 * A rate is kept in basis points (16.5 % = 1650): exact, like money in cents.
 */
export interface TaxRateDetails { name: string; rateBp: number }
export interface TaxRate extends TaxRateDetails { id: string; version: number }

/** 100 %, the most a rate may be. */
export const MAX_RATE_BP = 10_000;

export type TaxRateEvent =
  | { type: 'TaxRateCreated'; data: { taxRateId: string } & TaxRateDetails }
  | { type: 'TaxRateChanged'; data: { taxRateId: string } & TaxRateDetails }
  | { type: 'TaxRateRemoved'; data: { taxRateId: string } };

export type TaxRateCommand =
  | ({ type: 'createTaxRate'; taxRateId: string } & TaxRateDetails)
  | ({ type: 'changeTaxRate'; taxRateId: string; ifMatch?: number } & TaxRateDetails)
  | { type: 'removeTaxRate'; taxRateId: string };

function detailErrors(d: TaxRateDetails): FieldError[] {
  const errors = nameErrors(d.name);
  if (!Number.isInteger(d.rateBp) || d.rateBp < 0 || d.rateBp > MAX_RATE_BP) errors.push({ field: 'rate', message: 'must be a percent from 0 to 100 with at most two decimals' });
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
      return [{ type: 'TaxRateCreated', data: { taxRateId: command.taxRateId, name: command.name, rateBp: command.rateBp } }];
    }
    case 'changeTaxRate': {
      const r = state.taxRates[command.taxRateId];
      if (!r) throw notFound();
      unchangedSince(r.version, command.ifMatch);
      const errors = detailErrors(command);
      if (errors.length) throw validationFailed(errors);
      nameFree(state, command.name, r.id);
      if (r.name === command.name && r.rateBp === command.rateBp) return [];
      return [{ type: 'TaxRateChanged', data: { taxRateId: r.id, name: command.name, rateBp: command.rateBp } }];
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
      const { taxRateId, name, rateBp } = event.data;
      return { ...rates, [taxRateId]: { id: taxRateId, name, rateBp, version: versionAfter(rates[taxRateId]) } };
    }
    case 'TaxRateRemoved': {
      const { [event.data.taxRateId]: _removed, ...rest } = rates;
      return rest;
    }
  }
}
