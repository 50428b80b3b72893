import { RateError, decimalRate, getJson, isObject, type RateProvider } from './provider.js';

export const COINBASE_URL = 'https://api.exchange.coinbase.com';

/**
 * Coinbase Exchange's public ticker: `GET /products/BTC-USD/ticker` →
 * `{"ask":"…","bid":"…","volume":"…","trade_id":…,"price":"97000.01","size":"…","time":"2026-11-22T17:40:00.123456Z"}`.
 * `time` is the last trade's: the quote is that old. Errors: 4xx/5xx with `{"message":"NotFound"}`.
 */
export function coinbaseProvider(baseUrl = COINBASE_URL): RateProvider {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    name: 'coinbase',
    async quote(currency, signal) {
      const { status, body } = await getJson('coinbase', `${base}/products/BTC-${encodeURIComponent(currency)}/ticker`, signal);
      if (status !== 200) throw new RateError(`coinbase: answered ${status}${isObject(body) && typeof body.message === 'string' ? ` (${body.message})` : ''}`);
      if (!isObject(body)) throw new RateError('coinbase: unexpected body');
      const at = typeof body.time === 'string' ? Date.parse(body.time) : NaN;
      if (!Number.isFinite(at)) throw new RateError('coinbase: the ticker has no time');
      return { currency, rate: decimalRate(body.price, 'coinbase'), source: 'coinbase', at };
    },
  };
}
