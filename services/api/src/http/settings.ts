import type { RestaurantSettings } from '@comanda/domain';
import { type BillDeps, currentSettings } from '@comanda/workflows';
import type { FastifyInstance } from 'fastify';

/**
 * The restaurant's settings in force for this request (issue 60): read from the `settings` stream at
 * each use, never kept from the start, so a manager's change on any replica applies to the next request
 * here. The environment gives only the defaults of what was never changed.
 */
export const settingsNow = async (app: FastifyInstance): Promise<RestaurantSettings> =>
  (await currentSettings(app.deps.commands, app.deps.config)).settings;

/** What a bill is issued with now: the tax mode and the automatic service charge in force. */
export async function billDeps(app: FastifyInstance): Promise<BillDeps & { pricesIncludeTax: boolean }> {
  const s = await settingsNow(app);
  return {
    commands: app.deps.commands, now: () => app.now(), pricesIncludeTax: s.pricesIncludeTax,
    serviceCharge: { rateBp: s.serviceChargeRateBp, minParty: s.serviceChargeMinParty, taxable: s.serviceChargeTaxable },
  };
}
