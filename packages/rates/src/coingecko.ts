import { RateError, decimalRate, getJson, isObject, type RateProvider } from './provider.js';

export const COINGECKO_URL = 'https://api.coingecko.com';

/**
 * CoinGecko's simple price: `GET /api/v3/simple/price?ids=bitcoin&vs_currencies=mxn&include_last_updated_at=true&precision=full`
 * → `{"bitcoin":{"mxn":1750000.12,"last_updated_at":1732297200}}` (a JSON number; seconds). Errors:
 * 429 `{"status":{"error_code":429,"error_message":"…"}}`; an unknown currency answers `{"bitcoin":{}}`.
 */
export function coingeckoProvider(baseUrl = COINGECKO_URL): RateProvider {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    name: 'coingecko',
    async quote(currency, signal) {
      const vs = currency.toLowerCase();
      const url = `${base}/api/v3/simple/price?ids=bitcoin&vs_currencies=${encodeURIComponent(vs)}&include_last_updated_at=true&precision=full`;
      const { status, body } = await getJson('coingecko', url, signal);
      if (status !== 200) {
        const message = isObject(body) && isObject(body.status) ? body.status.error_message : undefined;
        throw new RateError(`coingecko: answered ${status}${typeof message === 'string' ? ` (${message})` : ''}`);
      }
      const bitcoin = isObject(body) ? body.bitcoin : undefined;
      if (!isObject(bitcoin) || bitcoin[vs] === undefined) throw new RateError(`coingecko: no ${currency} price`);
      const updated = bitcoin.last_updated_at;
      if (typeof updated !== 'number' || !Number.isFinite(updated)) throw new RateError('coingecko: the price has no last_updated_at');
      return { currency, rate: decimalRate(bitcoin[vs], 'coingecko'), source: 'coingecko', at: updated * 1000 };
    },
  };
}
