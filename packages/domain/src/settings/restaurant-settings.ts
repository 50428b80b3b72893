import type { Decider } from '../decider.js';
import { type FieldError, validationFailed } from '../errors.js';
import { unchangedSince } from '../versions.js';

/**
 * The restaurant's settings a manager changes from the screen (`settings` stream, issue 60). The
 * stream holds only what was changed: each setting nobody changed is the environment's default of a
 * new restaurant (the command carries those defaults, so the decider stays pure), and a setting once
 * changed by an event wins over the environment on every restart.
 */
export const SETTINGS_STREAM = 'settings';

export interface RestaurantSettings {
  /** Menu prices include tax; false: taxes are added on the bill. */
  pricesIncludeTax: boolean;
  /** The most a waiter discounts without a manager, in whole percent of what a discount applies to. */
  waiterDiscountMaxPercent: number;
  /** The automatic service charge, in basis points of a bill after discounts (0: none). */
  serviceChargeRateBp: number;
  /** Parties of this many guests or more get it. */
  serviceChargeMinParty: number;
  serviceChargeTaxable: boolean;
  restaurantName: string;
  receiptFooter: string;
  /** A ready kitchen ticket nobody bumped is bumped after this many minutes; 0 = never. */
  kitchenAutoBumpMinutes: number;
}

export const SETTING_NAMES = [
  'pricesIncludeTax', 'waiterDiscountMaxPercent', 'serviceChargeRateBp', 'serviceChargeMinParty', 'serviceChargeTaxable',
  'restaurantName', 'receiptFooter', 'kitchenAutoBumpMinutes',
] as const satisfies readonly (keyof RestaurantSettings)[];

export const RESTAURANT_NAME_MAX = 80;
export const RECEIPT_FOOTER_MAX = 200;
export const AUTO_BUMP_MAX_MINUTES = 1440;

/** What the stream holds: the settings changed so far and the stream's version (If-Match). */
export interface SettingsState { changed: Partial<RestaurantSettings>; version: number }

export type SettingsEvent = {
  type: 'SettingsChanged';
  /** `changes`: only the settings that changed, to their new values; `before`: what each was (for the audit trail). */
  data: { changes: Partial<RestaurantSettings>; before: Partial<RestaurantSettings>; by: string | null; reason?: string };
};

export type SettingsCommand = {
  type: 'changeSettings'; changes: Partial<RestaurantSettings>; defaults: RestaurantSettings; by: string | null; reason?: string; ifMatch?: number;
};

/** The settings in force: the stream's changes over the defaults of a new restaurant. */
export const settingsInForce = (state: SettingsState, defaults: RestaurantSettings): RestaurantSettings => ({ ...defaults, ...state.changed });

// The API's field names (snake_case), so a refusal names what the client sent.
const FIELD: Record<keyof RestaurantSettings, string> = {
  pricesIncludeTax: 'prices_include_tax', waiterDiscountMaxPercent: 'waiter_discount_max_percent', serviceChargeRateBp: 'service_charge_percent',
  serviceChargeMinParty: 'service_charge_min_party', serviceChargeTaxable: 'service_charge_taxable', restaurantName: 'restaurant_name',
  receiptFooter: 'receipt_footer', kitchenAutoBumpMinutes: 'kitchen_auto_bump_minutes',
};

const whole = (v: unknown, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

function problem(name: keyof RestaurantSettings, v: unknown): string | null {
  switch (name) {
    case 'pricesIncludeTax': case 'serviceChargeTaxable': return typeof v === 'boolean' ? null : 'must be true or false';
    case 'waiterDiscountMaxPercent': return whole(v, 0, 100) ? null : 'must be a whole percent from 0 to 100';
    case 'serviceChargeRateBp': return whole(v, 0, 10_000) ? null : 'must be a percent from 0 to 100 with at most two decimals';
    case 'serviceChargeMinParty': return whole(v, 1, 99) ? null : 'must be a number of guests from 1 to 99';
    case 'kitchenAutoBumpMinutes': return whole(v, 0, AUTO_BUMP_MAX_MINUTES) ? null : `must be whole minutes from 0 (never) to ${AUTO_BUMP_MAX_MINUTES}`;
    case 'restaurantName':
      if (typeof v !== 'string' || !v.trim()) return 'must not be blank';
      return v.length > RESTAURANT_NAME_MAX ? `must be at most ${RESTAURANT_NAME_MAX} characters` : null;
    case 'receiptFooter': return typeof v === 'string' && v.length <= RECEIPT_FOOTER_MAX ? null : `must be at most ${RECEIPT_FOOTER_MAX} characters`;
  }
}

export const restaurantSettings: Decider<SettingsCommand, SettingsEvent, SettingsState> = {
  initialState: () => ({ changed: {}, version: 0 }),
  decide(command, state) {
    unchangedSince(state.version, command.ifMatch);
    const errors: FieldError[] = [];
    for (const name of SETTING_NAMES) {
      if (!(name in command.changes)) continue;
      const message = problem(name, command.changes[name]);
      if (message) errors.push({ field: FIELD[name], message });
    }
    if (command.reason !== undefined && command.reason.length > 200) errors.push({ field: 'reason', message: 'must be at most 200 characters' });
    if (errors.length) throw validationFailed(errors);
    const now = settingsInForce(state, command.defaults);
    const changes: Partial<Record<keyof RestaurantSettings, unknown>> = {};
    const before: Partial<Record<keyof RestaurantSettings, unknown>> = {};
    for (const name of SETTING_NAMES) {
      const to = command.changes[name];
      if (to === undefined || to === now[name]) continue;
      changes[name] = name === 'restaurantName' ? (to as string).trim() : to;
      before[name] = now[name];
    }
    // Saving the screen as it is writes nothing: the audit trail holds only what moved.
    if (!Object.keys(changes).length) return [];
    return [{
      type: 'SettingsChanged',
      data: { changes: changes as Partial<RestaurantSettings>, before: before as Partial<RestaurantSettings>, by: command.by, ...(command.reason ? { reason: command.reason } : {}) },
    }];
  },
  evolve: (state, event) => ({ changed: { ...state.changed, ...event.data.changes }, version: state.version + 1 }),
};
