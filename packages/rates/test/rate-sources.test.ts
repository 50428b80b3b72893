import t from 'tap';
import { ExchangeRates, NoRateError, coinbaseProvider, coingeckoProvider, fixedProvider, krakenProvider, openRates, type RateProvider } from '../src/index.js';
import { fakeProvider, type ProviderName } from './fake-provider.js';

/** The contract every rate source meets behind ExchangeRates: fresh rates, or NoRateError; never a guess. */
const MAX_AGE_MS = 120_000;
const TIMEOUT_MS = 300;

const http: Array<[ProviderName, (url: string) => RateProvider, { timestamps: boolean; mxn: boolean }]> = [
  ['kraken', krakenProvider, { timestamps: false, mxn: false }],
  ['coinbase', coinbaseProvider, { timestamps: true, mxn: true }],
  ['coingecko', coingeckoProvider, { timestamps: true, mxn: true }],
];

for (const [name, make, traits] of http) {
  t.test(`${name}: its real ticker format against a local fake server`, async (t) => {
    const fake = await fakeProvider(name);
    t.teardown(fake.close);
    let now = Date.now();
    const rates = () => new ExchangeRates({ provider: make(fake.url), maxAgeMs: MAX_AGE_MS, timeoutMs: TIMEOUT_MS, refreshAfterMs: 0, now: () => now });

    await t.test('a price is read exactly, with its source and time', async (t) => {
      fake.next({ kind: 'price', rate: '97000.5', ageS: 5 });
      const q = await rates().rate('USD');
      t.equal(Number(q.rate), 97000.5);
      t.equal(q.source, name);
      t.equal(q.currency, 'USD');
      t.ok(now - q.at >= (traits.timestamps ? 4000 : 0) && now - q.at < 10_000, 'the quote is as old as the provider says');
    });

    await t.test('a provider error is no rate', async (t) => {
      fake.next({ kind: 'error' });
      await t.rejects(rates().rate('USD'), NoRateError);
    });

    await t.test('an HTTP 5xx or 429 is no rate', async (t) => {
      for (const status of [500, 503, 429]) {
        fake.next({ kind: 'http', status });
        await t.rejects(rates().rate('USD'), NoRateError, `${status}`);
      }
    });

    await t.test('a body that is not JSON is no rate', async (t) => {
      fake.next({ kind: 'garbage' });
      await t.rejects(rates().rate('USD'), NoRateError);
    });

    await t.test('a provider that does not answer is given up on after the timeout', async (t) => {
      fake.next({ kind: 'hang' });
      const started = Date.now();
      await t.rejects(rates().rate('USD'), NoRateError);
      const took = Date.now() - started;
      t.ok(took >= TIMEOUT_MS - 20 && took < TIMEOUT_MS + 2000, `gave up after ${took} ms`);
    });

    if (traits.timestamps) {
      await t.test('a quote older than the maximum age is no rate', async (t) => {
        fake.next({ kind: 'price', rate: '97000.5', ageS: 3600 });
        await t.rejects(rates().rate('USD'), /old/);
      });
    }

    await t.test('MXN', async (t) => {
      fake.next({ kind: 'price', rate: '1750000.25' });
      if (traits.mxn) t.equal(Number((await rates().rate('MXN')).rate), 1750000.25);
      else await t.rejects(rates().rate('MXN'), NoRateError, `${name} lists no BTC/MXN pair`);
    });

    await t.test('the cache: a failure is covered by the last quote until it passes the maximum age', async (t) => {
      const r = rates();
      fake.next({ kind: 'price', rate: '97000.5', ageS: 0 });
      now = Date.now();
      const first = await r.rate('USD');
      fake.next({ kind: 'http', status: 500 });
      now += 60_000;
      t.same(await r.rate('USD'), first, 'served from the cache while younger than the maximum age');
      const status = await r.status(['USD']);
      t.equal(status[0]!.fresh, true);
      t.match(status[0]!.lastError, /500/);
      now += 70_000;
      await t.rejects(r.rate('USD'), NoRateError, 'past the maximum age: no rate');
      const after = await r.status(['USD']);
      t.equal(after[0]!.fresh, false);
      now = Date.now();
    });

    await t.test('a young quote is reused without asking again; concurrent askers share one question', async (t) => {
      const r = new ExchangeRates({ provider: make(fake.url), maxAgeMs: MAX_AGE_MS, timeoutMs: TIMEOUT_MS, refreshAfterMs: 30_000 });
      fake.next({ kind: 'price', rate: '97000.5', ageS: 0 });
      const before = fake.state.requests;
      await Promise.all(Array.from({ length: 10 }, () => r.rate('USD')));
      await r.rate('USD');
      t.equal(fake.state.requests - before, 1);
    });
  });
}

t.test('fixed: the configured rates, always fresh, and a warning at start', async (t) => {
  const warnings: string[] = [];
  const r = openRates({ rateSource: 'fixed', fixedRates: { USD: '97000.00', MXN: '1750000.00' }, rateUrl: null, rateMaxAgeS: 120, rateTimeoutMs: 1000 }, (m) => warnings.push(m));
  t.match(warnings, [/FIXED.*USD=97000.00, MXN=1750000.00/]);
  t.equal((await r.rate('MXN')).rate, '1750000.00');
  t.equal((await r.rate('USD')).source, 'fixed');
  await t.rejects(r.rate('EUR'), NoRateError, 'a currency with no configured rate has none');
  t.equal((await r.rate('BTC')).rate, '1.00', 'bitcoin is priced in bitcoin exactly');
  const other = openRates({ rateSource: 'kraken', fixedRates: {}, rateUrl: null, rateMaxAgeS: 120, rateTimeoutMs: 1000 }, (m) => warnings.push(m));
  t.equal(other.source, 'kraken');
  t.equal(warnings.length, 1, 'only fixed rates warn');
  const direct = fixedProvider({ USD: '1.5' });
  t.same(await direct.quote('USD', AbortSignal.timeout(1000)), { currency: 'USD', rate: '1.5', source: 'fixed' });
});

t.test('a provider that ignores the abort signal is still bounded by the timeout', async (t) => {
  const stuck: RateProvider = { name: 'stuck', quote: () => new Promise(() => {}) };
  const r = new ExchangeRates({ provider: stuck, maxAgeMs: MAX_AGE_MS, timeoutMs: 100 });
  await t.rejects(r.rate('USD'), /no answer within 100 ms/);
});
