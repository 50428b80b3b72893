import t from 'tap';
import { type RestaurantSettings, type SettingsEvent, restaurantSettings, settingsInForce } from '../src/index.js';
import { given } from './given.js';

// The defaults of a new restaurant, as the environment gives them.
const defaults: RestaurantSettings = {
  pricesIncludeTax: true, waiterDiscountMaxPercent: 10, serviceChargeRateBp: 0, serviceChargeMinParty: 6, serviceChargeTaxable: false,
  restaurantName: 'Comanda', receiptFooter: 'Thank you!', kitchenAutoBumpMinutes: 0,
};
const change = (changes: Partial<RestaurantSettings>, extra: { reason?: string; ifMatch?: number } = {}) =>
  ({ type: 'changeSettings' as const, changes, defaults, by: 'm1', ...extra });
const changed = (changes: Partial<RestaurantSettings>, before: Partial<RestaurantSettings>, reason?: string): SettingsEvent =>
  ({ type: 'SettingsChanged', data: { changes, before, by: 'm1', ...(reason ? { reason } : {}) } });

t.test('a fresh restaurant runs on the defaults; a change carries only what moved, from what, by whom and why', async (t) => {
  const g = given(restaurantSettings, []);
  t.same(settingsInForce(g.state, defaults), defaults);
  t.same(g.when(change({ waiterDiscountMaxPercent: 15, restaurantName: 'Comanda', serviceChargeRateBp: 1250 }, { reason: 'new policy' })),
    { events: [changed({ waiterDiscountMaxPercent: 15, serviceChargeRateBp: 1250 }, { waiterDiscountMaxPercent: 10, serviceChargeRateBp: 0 }, 'new policy')] });
  t.same(g.when(change({ restaurantName: '  La Esquina ' })), { events: [changed({ restaurantName: 'La Esquina' }, { restaurantName: 'Comanda' })] }, 'the name is kept trimmed');
  t.same(g.when(change({ kitchenAutoBumpMinutes: 0, pricesIncludeTax: true })), { events: [] }, 'saving what is in force writes nothing');
});

t.test('a changed setting wins over the defaults ever after; the others still follow them', async (t) => {
  const g = given(restaurantSettings, [changed({ waiterDiscountMaxPercent: 20 }, { waiterDiscountMaxPercent: 10 })]);
  t.equal(g.state.version, 1);
  const otherDefaults = { ...defaults, waiterDiscountMaxPercent: 5, restaurantName: 'Otra' };
  t.match(settingsInForce(g.state, otherDefaults), { waiterDiscountMaxPercent: 20, restaurantName: 'Otra' });
  t.same(g.when(change({ waiterDiscountMaxPercent: 10 })), { events: [changed({ waiterDiscountMaxPercent: 10 }, { waiterDiscountMaxPercent: 20 })] }, 'back to the default is a change too');
});

t.test('bad values are refused naming each field, nothing written', async (t) => {
  t.same(given(restaurantSettings, []).when(change({
    waiterDiscountMaxPercent: 101, serviceChargeRateBp: -1, serviceChargeMinParty: 0, kitchenAutoBumpMinutes: -1,
    restaurantName: ' ', receiptFooter: 'x'.repeat(201), pricesIncludeTax: 'yes' as unknown as boolean,
  }, { reason: 'r'.repeat(201) })), {
    error: {
      kind: 'validation', message: 'Validation failed', details: {
        errors: [
          { field: 'prices_include_tax', message: 'must be true or false' },
          { field: 'waiter_discount_max_percent', message: 'must be a whole percent from 0 to 100' },
          { field: 'service_charge_percent', message: 'must be a percent from 0 to 100 with at most two decimals' },
          { field: 'service_charge_min_party', message: 'must be a number of guests from 1 to 99' },
          { field: 'restaurant_name', message: 'must not be blank' },
          { field: 'receipt_footer', message: 'must be at most 200 characters' },
          { field: 'kitchen_auto_bump_minutes', message: 'must be whole minutes from 0 (never) to 1440' },
          { field: 'reason', message: 'must be at most 200 characters' },
        ],
      },
    },
  });
  t.match(given(restaurantSettings, []).when(change({ restaurantName: 'x'.repeat(81), waiterDiscountMaxPercent: 2.5 })), {
    error: { details: { errors: [{ field: 'waiter_discount_max_percent' }, { field: 'restaurant_name', message: 'must be at most 80 characters' }] } },
  });
  t.match(given(restaurantSettings, []).when(change({ receiptFooter: '', serviceChargeMinParty: 1, kitchenAutoBumpMinutes: 1440 })), { events: [{ data: { changes: { receiptFooter: '', serviceChargeMinParty: 1, kitchenAutoBumpMinutes: 1440 } } }] }, 'the bounds themselves pass');
});

t.test('a stale If-Match is refused; the current version passes', async (t) => {
  const g = given(restaurantSettings, [changed({ waiterDiscountMaxPercent: 20 }, { waiterDiscountMaxPercent: 10 })]);
  t.match(g.when(change({ waiterDiscountMaxPercent: 25 }, { ifMatch: 0 })), { error: { kind: 'precondition' } });
  t.match(g.when(change({ waiterDiscountMaxPercent: 25 }, { ifMatch: 1 })), { events: [{ type: 'SettingsChanged' }] });
});
