import t from 'tap';
import { MENU_STREAM, menu, newId } from '@comanda/domain';
import { CommandHandler, MemoryEventStore } from '@comanda/event-store';
import { InProcessBus } from '@comanda/bus';
import { Metrics, commandObserver, instrumentBus, instrumentStore } from '../src/index.js';

const value = async (metrics: Metrics, name: string, labels: Record<string, string> = {}) => {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  const samples = (metric?.values ?? []) as Array<{ labels: Record<string, unknown>; value: number }>;
  return samples.filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);
};

t.test('command outcomes: ok, conflict retried, rejected, unchanged; appends and head', async (t) => {
  const metrics = new Metrics({ processMetrics: false });
  const store = instrumentStore(new MemoryEventStore(), metrics);
  const commands = new CommandHandler(store, undefined, commandObserver(metrics));
  // A second replica's handler on the same log: commands in one process queue per stream, across
  // processes they conflict and are decided again.
  const replica = new CommandHandler(store, undefined, commandObserver(metrics));
  const add = (name: string, via = commands) => via.handle(menu, MENU_STREAM, { type: 'addCategory', categoryId: newId(), name });
  await add('Tacos');
  await add('Sopas', replica);
  await Promise.all([add('Postres'), add('Bebidas', replica)]);
  await t.rejects(add('tacos'), /already exists/);
  t.equal(await value(metrics, 'comanda_commands_total', { aggregate: 'menu', outcome: 'ok' }), 3);
  t.equal(await value(metrics, 'comanda_commands_total', { aggregate: 'menu', outcome: 'conflict_retried' }), 1);
  t.equal(await value(metrics, 'comanda_commands_total', { aggregate: 'menu', outcome: 'rejected' }), 1);
  t.equal(await value(metrics, 'comanda_command_conflicts_total', { aggregate: 'menu' }), 1);
  t.equal(await value(metrics, 'comanda_event_store_appends_total', { outcome: 'ok' }), 4);
  t.equal(await value(metrics, 'comanda_event_store_appends_total', { outcome: 'conflict' }), 1);
  t.equal(await value(metrics, 'comanda_event_store_head_position'), 4);
  let followed: bigint | null = 1n;
  metrics.watchFollower('relay', () => followed);
  t.equal(await value(metrics, 'comanda_lag_events', { part: 'relay' }), 3, 'head − position');
  followed = 4n;
  t.equal(await value(metrics, 'comanda_lag_events', { part: 'relay' }), 0);
});

t.test('where positions are not a count (PostgreSQL), the lag is the store\'s count of the events after the position', async (t) => {
  const metrics = new Metrics({ processMetrics: false });
  const positions = [3n << 20n, 5n << 20n, 9n << 20n];
  const store = Object.assign(new MemoryEventStore(), {
    headPosition: async () => positions.at(-1)!,
    countAfter: async (at: bigint | null) => positions.filter((p) => at === null || p > at).length,
  });
  instrumentStore(store, metrics);
  metrics.watchFollower('projector', () => positions[0]!);
  t.equal(await value(metrics, 'comanda_lag_events', { part: 'projector' }), 2, 'two events, not a difference of positions');
});

t.test('bus publishes are counted by family, failures apart', async (t) => {
  const metrics = new Metrics({ processMetrics: false });
  const bus = instrumentBus(new InProcessBus(), metrics);
  await bus.publish('pos.order.OrderPlaced', {}, 'a');
  // The failing transport sits below the instrumentation, as NATS would when unreachable.
  const broken = instrumentBus({ ...new InProcessBus(), publish: async () => { throw new Error('bus down'); } } as unknown as InProcessBus, metrics);
  await t.rejects(broken.publish('pos.order.OrderPlaced', {}, 'b'), /bus down/);
  t.equal(await value(metrics, 'comanda_bus_published_total', { family: 'order' }), 1);
  t.equal(await value(metrics, 'comanda_bus_publish_failures_total', { family: 'order' }), 1);
  await bus.close();
});

t.test('the text exposition names every family the issue asks for', async (t) => {
  const text = await new Metrics({ processMetrics: false }).render();
  for (const name of [
    'comanda_http_requests_total', 'comanda_http_request_duration_seconds', 'comanda_commands_total', 'comanda_event_store_appends_total',
    'comanda_event_store_head_position', 'comanda_lag_events', 'comanda_bus_publish_failures_total', 'comanda_webhooks_total',
    'comanda_wallet_reconciliations_total', 'comanda_login_failures_total', 'comanda_login_throttled_total',
  ]) t.match(text, new RegExp(`# TYPE ${name} `), name);
});

t.test('answered requests: counts and a cumulative latency histogram per method, route and status', async (t) => {
  const metrics = new Metrics({ processMetrics: false });
  metrics.answers.record('GET', '/orders', 200, 0.0007);
  metrics.answers.record('GET', '/orders', 200, 0.03);
  metrics.answers.record('GET', '/orders', 200, 9);
  metrics.answers.record('POST', '/orders', 409, 0.002);
  t.equal(await value(metrics, 'comanda_http_requests_total', { method: 'GET', route: '/orders', status: '200' }), 3);
  t.equal(await value(metrics, 'comanda_http_requests_total', { route: '/orders' }), 4);
  const text = await metrics.render();
  t.match(text, '# TYPE comanda_http_requests_total counter\n');
  t.match(text, 'comanda_http_requests_total{method="POST",route="/orders",status="409"} 1\n');
  t.match(text, '# TYPE comanda_http_request_duration_seconds histogram\n');
  const bucket = (le: string) => Number(new RegExp(`comanda_http_request_duration_seconds_bucket\\{le="${le.replace('+', '\\+')}",method="GET",route="/orders",status="200"\\} (\\S+)`).exec(text)?.[1]);
  t.equal(bucket('0.001'), 1, 'below the first bound');
  t.equal(bucket('0.025'), 1);
  t.equal(bucket('0.05'), 2, 'cumulative');
  t.equal(bucket('5'), 2);
  t.equal(bucket('+Inf'), 3, 'every observation');
  t.match(text, /comanda_http_request_duration_seconds_sum\{method="GET",route="\/orders",status="200"\} 9\.0307\d*\n/);
  t.match(text, 'comanda_http_request_duration_seconds_count{method="GET",route="/orders",status="200"} 3\n');
  metrics.registry.resetMetrics();
  t.equal(await value(metrics, 'comanda_http_requests_total'), 0, 'a reset forgets them');
  // A route bound beforehand, answering statuses in turn, and the same route recorded by name.
  const tables = metrics.answers.route('GET', '/tables');
  t.equal(metrics.answers.route('GET', '/tables'), tables, 'one tally per method and pattern');
  for (let i = 0; i < 1000; i++) tables.record(i % 2 ? 200 : 204, 0.001);
  metrics.answers.record('GET', '/tables', 204, 0.001);
  metrics.answers.record('POST', '/orders', 201, 0.002);
  t.equal(await value(metrics, 'comanda_http_requests_total', { method: 'GET', route: '/tables' }), 1001);
  t.equal(await value(metrics, 'comanda_http_requests_total', { method: 'GET', route: '/tables', status: '204' }), 501);
  t.equal(await value(metrics, 'comanda_http_requests_total', { method: 'POST' }), 1);
  metrics.registry.resetMetrics();
  t.equal(await value(metrics, 'comanda_http_requests_total'), 0, 'a reset forgets a bound route too');
  tables.record(200, 0.001);
  t.equal(await value(metrics, 'comanda_http_requests_total', { route: '/tables', status: '200' }), 1, 'which counts again after it');
});
