import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake answers next: the provider's real format, an error, silence or garbage. */
export type Behaviour =
  | { kind: 'price'; rate: string; ageS?: number }
  | { kind: 'error' }
  | { kind: 'http'; status: number }
  | { kind: 'garbage' }
  | { kind: 'hang' };

export type ProviderName = 'kraken' | 'coinbase' | 'coingecko';

/** Each provider's real ticker answer for BTC in `currency`, `ageS` seconds old where it says so. */
function answer(provider: ProviderName, url: URL, b: Behaviour): { status: number; body: string } {
  const now = Date.now();
  if (b.kind === 'garbage') return { status: 200, body: '<html>maintenance</html>' };
  if (provider === 'kraken') {
    const pair = url.searchParams.get('pair') ?? '';
    if (url.pathname !== '/0/public/Ticker') return { status: 404, body: '{"error":["EGeneral:Unknown method"]}' };
    if (b.kind === 'error' || pair === 'XBTMXN') return { status: 200, body: JSON.stringify({ error: ['EQuery:Unknown asset pair'] }) };
    if (b.kind === 'http') return { status: b.status, body: JSON.stringify({ error: ['EService:Unavailable'] }) };
    if (b.kind !== 'price') throw new Error('unreachable');
    const key = `XXBTZ${pair.slice(3)}`;
    return {
      status: 200,
      body: JSON.stringify({ error: [], result: { [key]: {
        a: [`${b.rate}0`, '1', '1.000'], b: [`${b.rate}0`, '2', '2.000'], c: [`${b.rate}000`, '0.00100000'],
        v: ['1000.1', '2000.2'], p: [b.rate, b.rate], t: [12345, 23456], l: [b.rate, b.rate], h: [b.rate, b.rate], o: b.rate,
      } } }),
    };
  }
  if (provider === 'coinbase') {
    const m = /^\/products\/BTC-([A-Z]+)\/ticker$/.exec(url.pathname);
    if (!m || b.kind === 'error') return { status: 404, body: JSON.stringify({ message: 'NotFound' }) };
    if (b.kind === 'http') return { status: b.status, body: JSON.stringify({ message: 'Internal server error' }) };
    if (b.kind !== 'price') throw new Error('unreachable');
    const time = new Date(now - (b.ageS ?? 1) * 1000).toISOString().replace('Z', '123Z');
    return { status: 200, body: JSON.stringify({ ask: b.rate, bid: b.rate, volume: '4321.5', trade_id: 987654321, price: b.rate, size: '0.001', time }) };
  }
  const vs = url.searchParams.get('vs_currencies') ?? '';
  if (url.pathname !== '/api/v3/simple/price' || url.searchParams.get('ids') !== 'bitcoin') return { status: 404, body: '{"error":"Not Found"}' };
  if (b.kind === 'error') return { status: 200, body: JSON.stringify({ bitcoin: {} }) };
  if (b.kind === 'http') return { status: b.status, body: JSON.stringify({ status: { error_code: b.status, error_message: "You've exceeded the Rate Limit." } }) };
  if (b.kind !== 'price') throw new Error('unreachable');
  return { status: 200, body: JSON.stringify({ bitcoin: { [vs]: Number(b.rate), last_updated_at: Math.floor((now - (b.ageS ?? 1) * 1000) / 1000) } }) };
}

/** A local HTTP server in the shape of one provider; `next` sets what it answers, `requests` counts. */
export async function fakeProvider(provider: ProviderName) {
  let behaviour: Behaviour = { kind: 'price', rate: '97000.5' };
  const state = { requests: 0 };
  const server: Server = createServer((req, res) => {
    state.requests++;
    if (behaviour.kind === 'hang') return; // never answers; the client's timeout must end it
    const { status, body } = answer(provider, new URL(req.url ?? '/', 'http://fake'), behaviour);
    res.writeHead(status, { 'content-type': body.startsWith('<') ? 'text/html' : 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    next(b: Behaviour) {
      behaviour = b;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
