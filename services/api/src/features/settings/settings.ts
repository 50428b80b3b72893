import { CURRENCY_STREAM, type RestaurantSettings, SETTINGS_STREAM, baseCurrency, currencyById, fromCents, restaurantSettings, toCents } from '@comanda/domain';
import { currentSettings, settingsDefaults } from '@comanda/workflows';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { IfMatchHeaders, Stale } from '../../http/resources.js';
import { commonErrors } from '../../http/schemas.js';
import { ifMatch, setEtag, writeContext } from '../../http/write-context.js';
import { unchanged, versionTag } from '../../plugins/revalidation.js';
import { Strict } from '../bills/money-input.js';

const Fields = {
  restaurant_name: Type.String({ maxLength: 200, description: 'printed on bills and receipts; trimmed, 1–80 characters' }),
  receipt_footer: Type.String({ maxLength: 400, description: 'the last line of every bill and receipt, at most 200 characters ("" for none)' }),
  prices_include_tax: Type.Boolean({ description: 'true: menu prices include tax; false: taxes are added on the bill. Bills already issued keep their mode' }),
  waiter_discount_max_percent: Type.Number({ minimum: 0, maximum: 100, description: 'the most a waiter discounts without a manager, in whole percent (0–100); discounts already given stay' }),
  service_charge_percent: Type.Number({ minimum: 0, maximum: 100, description: 'the automatic service charge, in percent of a bill after discounts (at most two decimals; 0 = none); applies to bills issued after the change' }),
  service_charge_min_party: Type.Number({ minimum: 1, maximum: 99, description: 'parties of this many guests or more get it (1–99)' }),
  service_charge_taxable: Type.Boolean({ description: 'the charge is taxed at its bill\'s rates' }),
  kitchen_auto_bump_minutes: Type.Number({ minimum: 0, maximum: 1440, description: 'a ready kitchen ticket nobody bumped is bumped after this many minutes (0 = never, at most 1440)' }),
};
const Settings = Type.Object({
  ...Fields,
  currency: Type.String({ description: 'the base currency every amount is shown in (changed by an admin with PUT /base-currency)' }),
  version: Type.Integer({ description: 'the settings\' version (also the ETag If-Match takes); 0 while nothing was ever changed' }),
});
const Body = Strict({
  restaurant_name: Type.Optional(Fields.restaurant_name), receipt_footer: Type.Optional(Fields.receipt_footer),
  prices_include_tax: Type.Optional(Fields.prices_include_tax), waiter_discount_max_percent: Type.Optional(Fields.waiter_discount_max_percent),
  service_charge_percent: Type.Optional(Fields.service_charge_percent), service_charge_min_party: Type.Optional(Fields.service_charge_min_party),
  service_charge_taxable: Type.Optional(Fields.service_charge_taxable), kitchen_auto_bump_minutes: Type.Optional(Fields.kitchen_auto_bump_minutes),
  reason: Type.Optional(Type.String({ maxLength: 400, description: 'why, for the audit trail (at most 200 characters)' })),
}, { examples: [{ waiter_discount_max_percent: 15, reason: 'summer promotion' }] });
const tags = ['settings'];

/** The body's fields as the decider's settings: only those sent. A percent with more than two decimals is refused by the decider. */
function changesOf(b: Static<typeof Body>): Partial<RestaurantSettings> {
  const pairs: [keyof RestaurantSettings, unknown][] = [
    ['restaurantName', b.restaurant_name], ['receiptFooter', b.receipt_footer], ['pricesIncludeTax', b.prices_include_tax],
    ['waiterDiscountMaxPercent', b.waiter_discount_max_percent],
    ['serviceChargeRateBp', b.service_charge_percent === undefined ? undefined : toCents(b.service_charge_percent) ?? Number.NaN],
    ['serviceChargeMinParty', b.service_charge_min_party], ['serviceChargeTaxable', b.service_charge_taxable], ['kitchenAutoBumpMinutes', b.kitchen_auto_bump_minutes],
  ];
  return Object.fromEntries(pairs.filter(([, v]) => v !== undefined));
}

/** The restaurant's settings (issue 60): events in the `settings` stream over the environment's defaults. */
export default async function settingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { commands, config } = app.deps;

  const answer = async ({ settings: s, version }: { settings: RestaurantSettings; version: number }) => ({
    restaurant_name: s.restaurantName, receipt_footer: s.receiptFooter, prices_include_tax: s.pricesIncludeTax,
    waiter_discount_max_percent: s.waiterDiscountMaxPercent, service_charge_percent: fromCents(s.serviceChargeRateBp),
    service_charge_min_party: s.serviceChargeMinParty, service_charge_taxable: s.serviceChargeTaxable, kitchen_auto_bump_minutes: s.kitchenAutoBumpMinutes,
    currency: currencyById((await commands.state(baseCurrency, CURRENCY_STREAM)).state.currencyId)?.acronym ?? '',
    version,
  });

  app.get('/settings', {
    config: { permission: 'settings:read' },
    schema: {
      tags, summary: 'The restaurant\'s settings in force',
      description: 'What every screen shows or applies: name and footer, tax mode, the waiter\'s discount limit, the service charge, auto-bump and the currency. A setting never changed is the default of a new restaurant (its environment variable).',
      response: { 200: Settings, ...commonErrors },
    },
  }, async (request, reply) => {
    const now = await currentSettings(commands, config);
    if (unchanged(request, reply, versionTag(now.version))) return reply;
    return answer(now);
  });

  app.put('/settings', {
    config: { permission: 'settings:write' },
    schema: {
      tags, summary: 'Change some settings',
      description: 'Only the fields sent change, applied at once on every process; recorded with who and why in the audit trail (`settings_changed`). Bills already issued keep their figures; discounts already given stay. If-Match with the ETag of GET /settings: 412 when someone changed them meanwhile.',
      headers: IfMatchHeaders, body: Body, response: { 200: Settings, ...commonErrors, 412: Stale },
    },
  }, async (request, reply) => {
    const { reason, ...rest } = request.body;
    const result = await commands.handle(restaurantSettings, SETTINGS_STREAM, {
      type: 'changeSettings', changes: changesOf(rest), defaults: settingsDefaults(config), by: request.staff?.id ?? null,
      ...(reason?.trim() ? { reason: reason.trim() } : {}), ...(ifMatch(request) === undefined ? {} : { ifMatch: ifMatch(request)! }),
    }, writeContext(request));
    setEtag(reply, result.state.version);
    return answer({ settings: { ...settingsDefaults(config), ...result.state.changed }, version: result.state.version });
  });
}
