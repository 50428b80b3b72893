import type { Cents } from '../money.js';
import type { Allergen } from './allergens.js';
import type { HoursWindow } from './hours.js';

// The menu's state (menu.ts's decider folds it): a leaf of the menu's modules, which all read it and
// which it imports none of (issue 58). Each type is re-exported where it always was.

export interface Category {
  id: string;
  name: string;
  /** The kitchen station its dishes are cooked at; null: the default station. */
  stationId: string | null;
  /** The tax rate of its dishes (a dish may override it); null: untaxed. */
  taxRateId: string | null;
  /** Where the menu screens list it: lower first, equals by name (0 unless a manager set it). */
  displayOrder: number;
  /** When its dishes are served (availability.ts); absent or []: always. */
  windows?: HoursWindow[];
  /** How many times its hours were set (their If-Match); absent: never. */
  hoursVersion?: number;
  version: number;
}

/** A kitchen station (Grill, Bar, Cold): one screen on the kitchen wall. */
export interface Station {
  id: string;
  name: string;
  /** Creation order: the default station is the first one created unless another is chosen. */
  seq: number;
  version: number;
}

export interface Dish {
  id: string;
  name: string;
  price: Cents;
  categoryId: string;
  /** Overrides the category's station; null: the category decides. */
  stationId: string | null;
  /** The modifier groups a waiter chooses from for this dish ([] before modifiers existed). */
  modifierGroupIds: string[];
  /** Of the EU's 14, in their list's order ([] before allergens were kept). */
  allergens: Allergen[];
  /** Overrides the category's tax rate; null: the category's. */
  taxRateId: string | null;
  /** What the menu tells a guest about it ('' before descriptions existed, or none given). */
  description: string;
  /** Archived (issue 60): off the waiters' menu, kept for its name; absent: on the menu. */
  archived?: true;
  /** When it is served, within its category's hours (availability.ts); absent or []: always. */
  windows?: HoursWindow[];
  /** How many times its hours were set (their If-Match); absent: never. */
  hoursVersion?: number;
  version: number;
}

export interface Menu {
  categories: Record<string, Category>;
  dishes: Record<string, Dish>;
  stations: Record<string, Station>;
  /** The station chosen as default; null: the first one created (see defaultStation). */
  defaultStationId: string | null;
  stationSeq: number;
  modifierGroups: Record<string, ModifierGroup>;
  taxRates: Record<string, TaxRate>;
  /** Prices for given hours ("Happy hour", availability.ts). */
  priceLevels: Record<string, PriceLevel>;
}

/** A price level: its hours and a price per dish (dishes it does not name keep the menu's price). */
export interface PriceLevel { id: string; name: string; windows: HoursWindow[]; prices: Record<string, Cents>; version: number }

/** What a dish is, as the kitchen and the bill see it. */
export interface DishDetails {
  name: string;
  price: Cents;
  categoryId: string;
  /** Absent in events written before stations existed, and in commands that keep the current one. */
  stationId?: string | null;
  /** Absent: none (events written before modifiers, and dishes without any). */
  modifierGroupIds?: string[];
  /** Absent: none declared. */
  allergens?: string[];
  /** Absent: the category's rate (on a change: unchanged); null: the category's. */
  taxRateId?: string | null;
  /** Absent: none (on a change: unchanged); '' takes it off. */
  description?: string;
}

/** A tax rate (tax-rates.ts): a percent kept in parts per million. */
export interface TaxRateDetails { name: string; ratePpm: number }
export interface TaxRate extends TaxRateDetails { id: string; version: number }

/** A modifier group and its options (modifier-groups.ts). */
export interface ModifierOption { id: string; name: string; priceDeltaCents: Cents }

export interface ModifierGroupDetails {
  name: string;
  minChoices: number;
  maxChoices: number;
  options: ModifierOption[];
}

export interface ModifierGroup extends ModifierGroupDetails { id: string; version: number }
