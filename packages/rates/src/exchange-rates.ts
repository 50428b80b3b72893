import { RateError, type Quote, type RateProvider } from './provider.js';

export interface ExchangeRatesOptions {
  provider: RateProvider;
  /** A quote older than this is never used (COMANDA_RATE_MAX_AGE_S). */
  maxAgeMs: number;
  /** A provider that has not answered by then is given up on (COMANDA_RATE_TIMEOUT_MS). */
  timeoutMs: number;
  /** A cached quote younger than this is used without asking again; default a quarter of maxAgeMs, at most 30 s. */
  refreshAfterMs?: number;
  now?: () => number;
}

/** No fresh rate for a currency: checkout must not price a bill (never a 0- or 1-sat invoice). */
export class NoRateError extends Error {
  override readonly name = 'NoRateError';
  readonly currency: string;
  readonly reason: string;
  constructor(currency: string, reason: string) {
    super(`No exchange rate available for ${currency}: ${reason}`);
    this.currency = currency;
    this.reason = reason;
  }
}

export interface RateStatus {
  currency: string;
  quote: Quote | null;
  /** Age of the quote in ms (from the provider's time), null without one. */
  ageMs: number | null;
  fresh: boolean;
  lastError: string | null;
}

/** Bitcoin priced in bitcoin: exact, from no provider. */
const IDENTITY = 'BTC';

/**
 * The rates checkout uses: one provider behind a cache, a maximum age and a bounded timeout. A quote
 * is reused while young; when it is older the provider is asked again (one question per currency at a
 * time, however many tills ask), and if the provider fails or answers a quote that is itself too old,
 * the cached quote serves until it passes the maximum age. After that: NoRateError, never a guess.
 */
export class ExchangeRates {
  private readonly cache = new Map<string, { quote: Quote; fetchedAt: number }>();
  private readonly errors = new Map<string, string>();
  private readonly asking = new Map<string, Promise<Quote>>();
  private readonly now: () => number;
  private readonly refreshAfterMs: number;
  private readonly options: ExchangeRatesOptions;

  constructor(options: ExchangeRatesOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.refreshAfterMs = options.refreshAfterMs ?? Math.min(30_000, Math.floor(options.maxAgeMs / 4));
  }

  get source(): string {
    return this.options.provider.name;
  }

  /** A fresh rate for `currency` (acronym), or NoRateError. */
  async rate(currency: string): Promise<Quote> {
    const now = this.now();
    if (currency === IDENTITY) return { currency, rate: '1.00', source: 'identity', at: now };
    const cached = this.cache.get(currency);
    if (cached && this.fresh(cached.quote, now) && now - cached.fetchedAt < this.refreshAfterMs) return cached.quote;
    try {
      return await this.ask(currency);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.errors.set(currency, reason);
      const still = this.cache.get(currency);
      if (still && this.fresh(still.quote, this.now())) return still.quote;
      throw new NoRateError(currency, reason);
    }
  }

  /** What `GET /currencies/rates` shows: each currency asked for (fetched when due), fresh or not. */
  async status(currencies: readonly string[]): Promise<RateStatus[]> {
    return Promise.all(currencies.map(async (currency) => {
      let quote: Quote | null = null;
      try {
        quote = await this.rate(currency);
      } catch {
        quote = this.cache.get(currency)?.quote ?? null;
      }
      const now = this.now();
      return {
        currency, quote, ageMs: quote ? Math.max(0, now - quote.at) : null, fresh: quote !== null && this.fresh(quote, now),
        lastError: this.errors.get(currency) ?? null,
      };
    }));
  }

  private fresh(quote: Quote, now: number): boolean {
    return now - quote.at <= this.options.maxAgeMs;
  }

  private ask(currency: string): Promise<Quote> {
    let pending = this.asking.get(currency);
    if (!pending) {
      pending = (async () => {
        // A timer of our own (AbortSignal.timeout's is unref'd): the provider's fetch honours the
        // signal, and the race also bounds a provider that ignores it.
        const controller = new AbortController();
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            controller.abort();
            reject(new RateError(`${this.source}: no answer within ${this.options.timeoutMs} ms`));
          }, this.options.timeoutMs);
        });
        const answer = await Promise.race([this.options.provider.quote(currency, controller.signal), timeout]).finally(() => clearTimeout(timer));
        const fetchedAt = this.now();
        const quote: Quote = { ...answer, at: answer.at ?? fetchedAt };
        if (!this.fresh(quote, fetchedAt)) {
          throw new RateError(`${this.source}: the quote is ${Math.round((fetchedAt - quote.at) / 1000)} s old (maximum ${Math.round(this.options.maxAgeMs / 1000)} s)`);
        }
        this.cache.set(currency, { quote, fetchedAt });
        this.errors.delete(currency);
        return quote;
      })().finally(() => this.asking.delete(currency));
      this.asking.set(currency, pending);
    }
    return pending;
  }
}
