import { COINBASE_URL, coinbaseProvider } from './coinbase.js';
import { COINGECKO_URL, coingeckoProvider } from './coingecko.js';
import { ExchangeRates } from './exchange-rates.js';
import { fixedProvider } from './fixed.js';
import { KRAKEN_URL, krakenProvider } from './kraken.js';
import type { RateProvider } from './provider.js';

export const RATE_SOURCES = ['kraken', 'coinbase', 'coingecko', 'fixed'] as const;
export type RateSourceName = (typeof RATE_SOURCES)[number];

export interface RateSettings {
  rateSource: RateSourceName;
  /** COMANDA_RATES: acronym → fiat per BTC. */
  fixedRates: Record<string, string>;
  /** COMANDA_RATE_URL: the provider's base URL (tests point it at a local fake server). */
  rateUrl: string | null;
  rateMaxAgeS: number;
  rateTimeoutMs: number;
}

export const DEFAULT_URLS: Record<Exclude<RateSourceName, 'fixed'>, string> = { kraken: KRAKEN_URL, coinbase: COINBASE_URL, coingecko: COINGECKO_URL };

export function providerFor(settings: Pick<RateSettings, 'rateSource' | 'fixedRates' | 'rateUrl'>): RateProvider {
  switch (settings.rateSource) {
    case 'fixed': return fixedProvider(settings.fixedRates);
    case 'kraken': return krakenProvider(settings.rateUrl ?? KRAKEN_URL);
    case 'coinbase': return coinbaseProvider(settings.rateUrl ?? COINBASE_URL);
    case 'coingecko': return coingeckoProvider(settings.rateUrl ?? COINGECKO_URL);
  }
}

/** The configured rates; `warn` hears once that fixed rates are in use (they never go stale). */
export function openRates(settings: RateSettings, warn: (message: string) => void, now?: () => number): ExchangeRates {
  if (settings.rateSource === 'fixed') {
    const list = Object.entries(settings.fixedRates).map(([c, r]) => `${c}=${r}`).join(', ') || 'none';
    warn(`Exchange rates are FIXED from COMANDA_RATES (${list} per BTC): Lightning checkout prices bills at these rates whatever the market does`);
  }
  return new ExchangeRates({ provider: providerFor(settings), maxAgeMs: settings.rateMaxAgeS * 1000, timeoutMs: settings.rateTimeoutMs, ...(now ? { now } : {}) });
}
