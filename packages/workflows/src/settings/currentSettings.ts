import { type RestaurantSettings, SETTINGS_STREAM, restaurantSettings, settingsInForce } from '@comanda/domain';
import type { CommandHandler } from '@comanda/event-store';

/** What the environment gives a new restaurant (packages/config's fields), before any SettingsChanged. */
export interface SettingsFromEnvironment {
  pricesIncludeTax: boolean;
  waiterDiscountMaxPercent: number;
  serviceCharge: { rateBp: number; minParty: number; taxable: boolean };
  restaurantName: string;
  receiptFooter: string;
  kitchenAutoBumpMinutes: number;
}

export const settingsDefaults = (env: SettingsFromEnvironment): RestaurantSettings => ({
  pricesIncludeTax: env.pricesIncludeTax, waiterDiscountMaxPercent: env.waiterDiscountMaxPercent,
  serviceChargeRateBp: env.serviceCharge.rateBp, serviceChargeMinParty: env.serviceCharge.minParty, serviceChargeTaxable: env.serviceCharge.taxable,
  restaurantName: env.restaurantName, receiptFooter: env.receiptFooter, kitchenAutoBumpMinutes: env.kitchenAutoBumpMinutes,
});

/**
 * The settings in force now, read from the `settings` stream at each use: the command handler's fold
 * reads only the events it has not seen, so a change appended by any process applies at the next
 * bill, discount or receipt on every other, as the menu and a revoked session already do.
 */
export async function currentSettings(commands: CommandHandler, env: SettingsFromEnvironment): Promise<{ settings: RestaurantSettings; version: number }> {
  const { state } = await commands.state(restaurantSettings, SETTINGS_STREAM);
  return { settings: settingsInForce(state, settingsDefaults(env)), version: state.version };
}
