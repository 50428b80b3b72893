import { RateError, type RateProvider } from './provider.js';

/**
 * Rates from configuration (`COMANDA_RATES="USD=97000.00,MXN=1750000.00"`): always "fresh", which is
 * exactly why starting with them prints a warning. For tests, demos, and a restaurant that sets its
 * own rate by hand.
 */
export function fixedProvider(rates: Readonly<Record<string, string>>): RateProvider {
  return {
    name: 'fixed',
    async quote(currency) {
      const rate = rates[currency];
      if (rate === undefined) throw new RateError(`fixed: no rate configured for ${currency} (COMANDA_RATES)`);
      return { currency, rate, source: 'fixed' };
    },
  };
}
