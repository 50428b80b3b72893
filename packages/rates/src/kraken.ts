import { RateError, decimalRate, getJson, isObject, type RateProvider } from './provider.js';

export const KRAKEN_URL = 'https://api.kraken.com';

/**
 * Kraken's public ticker: `GET /0/public/Ticker?pair=XBTUSD` →
 * `{"error":[],"result":{"XXBTZUSD":{"a":[…],"b":[…],"c":["97000.10000","0.001"],…}}}`; `c[0]` is the
 * last trade's price. Errors come as 200 with `{"error":["EQuery:Unknown asset pair"]}`. The ticker
 * carries no timestamp, so a quote is as old as the answer. Kraken lists no MXN pair.
 */
export function krakenProvider(baseUrl = KRAKEN_URL): RateProvider {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    name: 'kraken',
    async quote(currency, signal) {
      const { status, body } = await getJson('kraken', `${base}/0/public/Ticker?pair=XBT${encodeURIComponent(currency)}`, signal);
      if (!isObject(body)) throw new RateError(`kraken: answered ${status} with an unexpected body`);
      const errors = Array.isArray(body.error) ? body.error.map(String).join('; ') : '';
      if (status !== 200) throw new RateError(`kraken: answered ${status}${errors ? ` (${errors})` : ''}`);
      if (errors) throw new RateError(`kraken: ${errors}`);
      const result = isObject(body.result) ? Object.values(body.result)[0] : undefined;
      const last = isObject(result) && Array.isArray(result.c) ? result.c[0] : undefined;
      return { currency, rate: decimalRate(last, 'kraken'), source: 'kraken' };
    },
  };
}
