import { ConfigError } from './config-error.js';

/** The automatic service charge: `rateBp` of the bill (0: none) for parties of `minParty` guests or more. */
export interface ServiceChargeConfig { rateBp: number; minParty: number; taxable: boolean }

type Env = Record<string, string | undefined>;

const value = (env: Env, name: string): string | null => {
  const v = env[name]?.trim();
  return v ? v : null;
};

/** "12.5" → 1250 basis points, from the digits (no float): at most two decimals, 0 to 100. */
function percent(env: Env, name: string): number {
  const raw = value(env, name);
  if (raw === null) return 0;
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(raw);
  const bp = m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : NaN;
  if (!(bp >= 0 && bp <= 10_000)) throw new ConfigError(name, `must be a percent from 0 to 100 with at most two decimals (got "${raw}")`);
  return bp;
}

/**
 * COMANDA_SERVICE_CHARGE_PERCENT (default 0: no automatic charge), COMANDA_SERVICE_CHARGE_MIN_PARTY
 * (guests, 1 to 99, default 6) and COMANDA_SERVICE_CHARGE_TAXABLE (true or false, default false).
 */
export function serviceChargeConfig(env: Env): ServiceChargeConfig {
  const rateBp = percent(env, 'COMANDA_SERVICE_CHARGE_PERCENT');
  const party = value(env, 'COMANDA_SERVICE_CHARGE_MIN_PARTY');
  if (party !== null && (!/^\d{1,2}$/.test(party) || Number(party) < 1)) {
    throw new ConfigError('COMANDA_SERVICE_CHARGE_MIN_PARTY', `must be a number of guests from 1 to 99 (got "${party}")`);
  }
  const taxable = value(env, 'COMANDA_SERVICE_CHARGE_TAXABLE');
  if (taxable !== null && taxable !== 'true' && taxable !== 'false') {
    throw new ConfigError('COMANDA_SERVICE_CHARGE_TAXABLE', `must be true or false (got "${taxable}")`);
  }
  return { rateBp, minParty: party === null ? 6 : Number(party), taxable: taxable === 'true' };
}
