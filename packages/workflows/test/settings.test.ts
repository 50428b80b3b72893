import t from 'tap';
import { SETTINGS_STREAM, restaurantSettings } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { currentSettings, settingsDefaults } from '../src/index.js';

const env = { pricesIncludeTax: false, waiterDiscountMaxPercent: 10, serviceCharge: { rateBp: 0, minParty: 6, taxable: false }, restaurantName: 'Comanda', receiptFooter: 'Thank you!', kitchenAutoBumpMinutes: 0 };

t.test('the settings in force: the environment\'s defaults until a change, then the change, read by another handler on the same log', async (t) => {
  const log = new MemoryEventStore();
  const here = new CommandHandler(log);
  const elsewhere = new CommandHandler(log);
  t.same(await currentSettings(elsewhere, env), { settings: settingsDefaults(env), version: 0 });
  t.match(settingsDefaults(env), { pricesIncludeTax: false, serviceChargeMinParty: 6 });
  await here.handle(restaurantSettings, SETTINGS_STREAM, { type: 'changeSettings', changes: { waiterDiscountMaxPercent: 5 }, defaults: settingsDefaults(env), by: 'm1' });
  const now = await currentSettings(elsewhere, { ...env, waiterDiscountMaxPercent: 20, restaurantName: 'Otra' });
  t.match(now, { settings: { waiterDiscountMaxPercent: 5, restaurantName: 'Otra' }, version: 1 }, 'the event wins over the environment; what was never changed follows it');
});
