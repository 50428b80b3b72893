/**
 * The rate-source port: where the price of a bitcoin in a fiat currency comes from. An adapter asks
 * once and answers a quote or throws a RateError; caching, maximum age and timeouts are the
 * ExchangeRates' job, the same for every adapter.
 */
export interface Quote {
  /** ISO 4217 acronym of the fiat currency (USD, MXN…). */
  currency: string;
  /** Fiat units per bitcoin, as a decimal string (see packages/domain/src/bills/sats.ts). */
  rate: string;
  /** The adapter's name (kraken, coinbase, coingecko, fixed). */
  source: string;
  /** When the price was true: the provider's own timestamp when it gives one, else when it answered (ms). */
  at: number;
}

export type ProviderQuote = Omit<Quote, 'at'> & { at?: number };

export interface RateProvider {
  readonly name: string;
  /**
   * One question to the provider; `signal` aborts it (the bounded timeout). `at` is left out when the
   * provider gives no time of its own: the quote is then as old as the answer.
   */
  quote(currency: string, signal: AbortSignal): Promise<ProviderQuote>;
}

/** The provider gave no usable rate: unreachable, an error answer, a format we do not know. */
export class RateError extends Error {
  override readonly name = 'RateError';
}

/** A price from a provider, as a canonical decimal string, or a RateError. */
export function decimalRate(value: unknown, what: string): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,15}(\.\d+)?$/.test(text) || !/[1-9]/.test(text)) {
    throw new RateError(`${what}: not a positive price (${JSON.stringify(value)})`);
  }
  return text;
}

/** GET a JSON document; non-2xx answers and bodies that are not JSON are RateErrors naming the provider. */
export async function getJson(provider: string, url: string, signal: AbortSignal): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, { signal, headers: { accept: 'application/json' } });
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new RateError(`${provider}: no answer in time`);
    throw new RateError(`${provider}: unreachable (${(error as Error).message})`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new RateError(`${provider}: the answer was cut off`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new RateError(`${provider}: answered ${response.status} with a body that is not JSON`);
  }
  return { status: response.status, body };
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
