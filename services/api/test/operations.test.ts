import t from 'tap';
import pino from 'pino';
import parsePrometheus from 'parse-prometheus-text-format';
import { MemoryAttemptCounter } from '@comanda/attempts';
import { loadConfig } from '@comanda/config';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { InProcessBus } from '@comanda/bus';
import { Metrics } from '@comanda/metrics';
import { MemoryReadStore } from '@comanda/read-store';
import { Projector } from '@comanda/projector';
import { buildApp } from '../src/index.js';
import { ADMIN, testApp } from './harness.js';

interface Sample { labels?: Record<string, string>; value?: string; count?: string }
interface Family { name: string; type: string; metrics: Sample[] }

const TOKEN = 'scrape-token-0123456789';

/** Parses the exposition with a Prometheus text parser; throws on anything malformed. */
async function scrape(app: Awaited<ReturnType<typeof testApp>>['app']) {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  if (res.statusCode !== 200) throw new Error(`scrape answered ${res.statusCode}`);
  const families = (parsePrometheus as (text: string) => Family[])(res.body);
  const value = (name: string, labels: Record<string, string> = {}) => {
    const family = families.find((f) => f.name === name);
    const samples = family?.metrics.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v)) ?? [];
    return samples.reduce((sum, m) => sum + Number(m.value ?? m.count), 0);
  };
  return { res, families, value };
}

t.test('GET /metrics: Prometheus text behind a bearer token, counters move with traffic', async (t) => {
  const metrics = new Metrics();
  const h = await testApp({ COMANDA_METRICS_TOKEN: TOKEN }, {}, undefined, { metrics });
  t.teardown(h.close);
  metrics.watchFollower('projector', () => h.projector.position());

  t.equal((await h.app.inject({ method: 'GET', url: '/metrics' })).statusCode, 401, 'no token');
  t.equal((await h.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode, 401);
  const before = await scrape(h.app);
  t.match(before.res.headers['content-type'], /text\/plain; version=0\.0\.4/);
  t.ok(before.families.some((f) => f.name === 'comanda_process_cpu_user_seconds_total'), 'process metrics');

  const admin = await h.as('admin');
  const bad = await h.app.inject({ method: 'POST', url: '/auth/login', payload: { name: ADMIN.name, pin: '0000' } });
  t.equal(bad.statusCode, 401);
  const created = await h.app.inject({ method: 'POST', url: '/categories', headers: { cookie: admin }, payload: { name: 'Tacos' } });
  t.equal(created.statusCode, 201, created.body);
  const duplicate = await h.app.inject({ method: 'POST', url: '/categories', headers: { cookie: admin }, payload: { name: 'tacos' } });
  t.equal(duplicate.statusCode, 409);
  for (let i = 0; i < 6; i++) await h.app.inject({ method: 'POST', url: '/auth/login', payload: { name: 'nobody', pin: '0000' } });
  // The second GET is answered from the answer cache, past the route's handler.
  for (let i = 0; i < 2; i++) t.equal((await h.app.inject({ method: 'GET', url: '/categories', headers: { cookie: admin } })).statusCode, 200);
  t.equal((await h.app.inject({ method: 'GET', url: '/no-such-page' })).statusCode, 404);
  // Under a page's prefix and for a method no route has, the not-found handler's own hook counts too.
  t.equal((await h.app.inject({ method: 'GET', url: '/kitchen/no-such-page' })).statusCode, 404);
  t.equal((await h.app.inject({ method: 'DELETE', url: '/' })).statusCode, 404);
  t.equal((await h.app.inject({ method: 'GET', url: '/swagger/json' })).statusCode, 200);

  const after = await scrape(h.app);
  const http = (route: string, status: string) =>
    after.value('comanda_http_requests_total', { route, status }) - before.value('comanda_http_requests_total', { route, status });
  t.equal(http('/categories', '201'), 1, 'requests counted by route pattern and status');
  t.equal(http('/categories', '409'), 1);
  t.equal(http('/categories', '200'), 2, 'a cached answer is counted like a computed one');
  t.equal(http('unmatched', '404'), 3, 'an unknown route is counted under one label');
  t.equal(http('/swagger/json', '200'), 1, 'so are the routes of the plugins registered first (the OpenAPI document)');
  // The text parser keeps only one series of a labelled histogram, so the histogram is read from the text itself.
  t.match(after.res.body, /comanda_http_request_duration_seconds_count\{method="POST",route="\/categories",status="201"\} 1\n/, 'latency histogram observed');
  t.match(after.res.body, /comanda_http_request_duration_seconds_bucket\{le="\+Inf",method="POST",route="\/categories",status="409"\} 1\n/);
  t.equal(after.value('comanda_commands_total', { aggregate: 'menu', outcome: 'ok' }), 1);
  t.equal(after.value('comanda_commands_total', { aggregate: 'menu', outcome: 'rejected' }), 1);
  t.ok(after.value('comanda_event_store_appends_total', { outcome: 'ok' }) > before.value('comanda_event_store_appends_total', { outcome: 'ok' }));
  // Throttling is per (address, name): one failure for admin, five for 'nobody', whose sixth meets the lockout.
  t.equal(after.value('comanda_login_failures_total', { endpoint: 'login' }), 6, 'failures until the lockout');
  t.equal(after.value('comanda_login_throttled_total', { endpoint: 'login' }), 1);
  t.equal(after.value('comanda_event_store_head_position'), Number(await h.store.headPosition()));
  t.equal(after.value('comanda_lag_events', { part: 'projector' }), 0, 'the projector is caught up');
  t.notMatch(after.res.body, /\/categories\/[0-9a-f-]{36}/, 'routes are patterns, never ids');
});

t.test('without COMANDA_METRICS_TOKEN there is no /metrics route', async (t) => {
  const h = await testApp();
  t.teardown(h.close);
  t.equal((await h.app.inject({ method: 'GET', url: '/metrics' })).statusCode, 404);
});

t.test('/health/ready answers 503 until the read models have caught up; /health/live at once', async (t) => {
  const store = new MemoryEventStore();
  await store.append('slow-1', [{ id: 'e1', type: 'Slow', data: {}, metadata: {} }], 'no_stream');
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const readStore = new MemoryReadStore();
  const projector = new Projector({
    store, readStore, logger: pino({ level: 'silent' }),
    projections: [{ name: 'slow', handles: ['Slow'], apply: () => held }],
  });
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent' }), store, readStore, attempts: new MemoryAttemptCounter(), bus: new InProcessBus(), commands: new CommandHandler(store),
    gate: projector, masterKey: 'k'.repeat(64), health: [{ name: 'projector', check: async () => projector.state }],
  });
  t.teardown(async () => (await app.close(), await projector.stop()));
  const started = projector.start();

  t.same((await app.inject({ method: 'GET', url: '/health/live' })).json(), { status: 'live' });
  const waiting = await app.inject({ method: 'GET', url: '/health/ready' });
  t.equal(waiting.statusCode, 503);
  t.same(waiting.json(), { status: 'not_ready', waitingFor: ['projector'] });
  t.equal((await app.inject({ method: 'GET', url: '/health' })).statusCode, 503, '/health stays the detailed view');

  release();
  await started;
  const ready = await app.inject({ method: 'GET', url: '/health/ready' });
  t.equal(ready.statusCode, 200);
  t.same(ready.json(), { status: 'ready' });
});
